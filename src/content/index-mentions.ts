// Topic files the index names without an entry: a table of file names, a back-ticked name, a
// "see SCHEMA.md" in prose, a `[[stem]]` wiki link. The agent does read those names, so such a topic is not an orphan;
// it is an index line that is not in the entry form. Pure: lines in, line numbers out.
import { normalizeTarget, type IndexLine } from '../memdir/memory-index.js';
import { lineWikiNames } from '../memdir/links.js';

const LINK_TARGET = /\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

const WORD_RE = /[A-Za-z0-9_-]+/g;

/** The longest run of ASCII letters, digits, `_` and `-` in a text, or null when it has none. */
function longestWord(s: string): string | null {
  let best: string | null = null;
  for (const m of s.match(WORD_RE) ?? []) if (best === null || m.length > best.length) best = m;
  return best;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * For each topic (memdir-relative path, NFC) that no entry links to, the first index line that
 * names it: a link to it anywhere on a line, or its path (or its path from the repository root,
 * `fromRoot` being the memdir's, or its file name, when no other topic shares it) standing as a word. Lines inside block comments do not count: Claude Code strips them.
 * With `broad`, also what names a topic as one of several (index-orphan and consolidation: the
 * agent knows where it is; index-entry-format asks a line for an entry only where it names the
 * file): a folder above it (`corpus/`), its path from the memdir's own name (`memory/notes.md`),
 * its name without `.md` in backticks (`` `p18-deployment` ``), a glob that matches it (in
 * backticks, `` `p6a-*` ``, or a bare `ref_*.md`), and a `[[name]]` wiki link by the `name:` of its
 * frontmatter (`nameOf`), which Claude Code's links resolve as they resolve a stem, when no other
 * topic answers to that name (a draft sharing its name with the memory the index links is not
 * named by the link: it is an orphan, whose entry is not certain: `linkedByName`).
 */
export function topicMentions(lines: readonly Pick<IndexLine, 'line' | 'text' | 'kind' | 'entry'>[], topics: readonly string[], fromRoot?: string, broad = false, nameOf?: (topic: string) => string | undefined): Map<string, number> {
  return mentionsOf(lines, topics, fromRoot, broad, nameOf, true);
}

/**
 * topicMentions; `byAnchor` false tests every topic's pattern on every line (what the anchors
 * narrow, kept to hold them to it).
 */
export function mentionsOf(lines: readonly Pick<IndexLine, 'line' | 'text' | 'kind' | 'entry'>[], topics: readonly string[], fromRoot: string | undefined, broad: boolean, nameOf: ((topic: string) => string | undefined) | undefined, byAnchor: boolean): Map<string, number> {
  const out = new Map<string, number>();
  const entries = new Set(lines.filter((l) => l.entry).map((l) => l.entry!.key));
  const wanted = topics.filter((t) => !entries.has(t));
  if (wanted.length === 0) return out;
  const baseCount = new Map<string, number>();
  for (const t of topics) {
    const b = t.split('/').pop()!;
    baseCount.set(b, (baseCount.get(b) ?? 0) + 1);
  }
  // How many topics answer to a [[link]]: by their stem, and by their name.
  // Names are read only when the index holds a wiki link: consolidation parses each topic for it.
  const byName = broad && nameOf !== undefined && lines.some((l) => l.text.includes('[['));
  const answering = new Map<string, number>();
  if (byName) {
    for (const t of topics) {
      const stem = t.replace(/\.md$/u, '');
      const name = nameOf(t)?.trim();
      for (const k of name && name !== stem ? [stem, name] : [stem]) answering.set(k, (answering.get(k) ?? 0) + 1);
    }
  }
  // Each topic's pattern, made when a line is first tested against it: most topics are named on
  // no line, and making every pattern was most of a run over thousands of topics.
  const names = new Map<string, () => RegExp>();
  const made = new Map<string, RegExp>();
  const patternOf = (t: string): RegExp => {
    let re = made.get(t);
    if (!re) made.set(t, (re = names.get(t)!()));
    return re;
  };
  const byWord = new Map<string, string[]>();
  const everyLine: string[] = [];
  for (const t of wanted) {
    const b = t.split('/').pop()!;
    const alts = baseCount.get(b) === 1 && b !== t ? [t, b] : [t];
    // Its path from the repository root (`.claude/agent-memory/x/notes.md`), when the memdir is in one;
    // broadly, also from the memdir's own name (`memory/notes.md`).
    if (fromRoot) alts.unshift(`${fromRoot}/${t}`);
    if (fromRoot?.includes('/') && broad) alts.push(`${fromRoot.split('/').pop()!}/${t}`);
    // Also `[[stem]]` (or `[[path/stem]]`, `[[stem|label]]`): a wiki link naming the file without `.md`.
    const stems = alts.map((a) => a.replace(/\.md$/u, ''));
    const name = byName ? nameOf?.(t)?.trim() : undefined;
    const wikiNames = name && answering.get(name) === 1 ? [...stems, name] : stems;
    // Broadly, a folder above it named as one (`corpus/`, `[sources](sources/)`): the agent knows
    // where to look; and its name without `.md` as a whole code span.
    if (broad) for (let i = t.indexOf('/'); i > 0; i = t.indexOf('/', i + 1)) alts.push(t.slice(0, i + 1));
    // Each way the pattern can match holds one of these words whole (a run of ASCII letters,
    // digits, `_` and `-`: whatever stands next to it in a match is none of those): a line holding
    // none of them cannot name the topic. A way with no such word is tested on every line.
    const words = [...stems, ...(name && answering.get(name) === 1 ? [name] : []), ...(broad ? alts.filter((a) => a.endsWith('/')) : [])].map(longestWord);
    if (words.includes(null)) everyLine.push(t);
    else {
      for (const w of new Set(words as string[])) {
        const same = byWord.get(w);
        if (same) same.push(t);
        else byWord.set(w, [t]);
      }
    }
    names.set(t, () => {
      const coded = broad ? `|\`(?:\\./)?(?:${stems.map(escapeRe).join('|')})\`` : '';
      // Broadly, an absolute path that ends in its path from the repository root: the same file in
      // the writer's own checkout (`/Users/me/proj/.claude/agent-memory/x/notes.md`).
      const absolute = broad && fromRoot ? `|(?<=\\/)${escapeRe(`${fromRoot}/${t}`)}(?![\\w/-])` : '';
      return new RegExp(`(?<![\\w./-])(?:\\./)?(?:${alts.map(escapeRe).join('|')})(?![\\w/-])|\\[\\[[ \\t]*(?:\\./)?(?:${wikiNames.map(escapeRe).join('|')})(?:\\.md)?[ \\t]*(?:[|#][^\\]]*)?\\]\\]${coded}${absolute}`, 'u');
    });
  }
  let inComment = false;
  for (const l of lines) {
    // A block HTML comment (an HTML block opening with `<!--`, up to its `-->`) is stripped.
    if (l.kind === 'html' && (inComment || /^\s*<!--/.test(l.text))) {
      const from: number = inComment ? 0 : l.text.indexOf('<!--') + 4;
      inComment = !l.text.includes('-->', from);
      continue;
    }
    inComment = false;
    if (l.kind === 'frontmatter' || l.kind === 'blank') continue;
    const linked = new Set<string>();
    for (const m of l.text.matchAll(LINK_TARGET)) linked.add(normalizeTarget(m[1]!));
    const globs = broad ? codeGlobs(l.text, fromRoot) : [];
    const test = (t: string) => {
      if (!out.has(t) && (patternOf(t).test(l.text) || globs.some((matches) => matches(t)))) out.set(t, l.line);
    };
    for (const t of linked) if (names.has(t) && !out.has(t)) out.set(t, l.line);
    if (!byAnchor || globs.length > 0) for (const t of wanted) test(t);
    else {
      for (const t of everyLine) test(t);
      for (const w of l.text.match(WORD_RE) ?? []) for (const t of byWord.get(w) ?? []) test(t);
    }
    if (out.size === wanted.length) break;
  }
  return out;
}

/**
 * The globs a line holds as whole code spans (`` `p6a-*` ``, `` `memory/ref_*.md` ``) or as bare
 * words naming Markdown files (`ref_*.md`), each as a test of a memdir-relative path. A glob's
 * folder may be the memdir's own (its name, or its path from the repository root):
 * `memory/ref_*.md` names `ref_a.md` of a memdir called memory. Linear in the line and the name:
 * the index comes from the repository, so no pattern of it becomes a regular expression.
 */
function codeGlobs(text: string, fromRoot: string | undefined): Array<(rel: string) => boolean> {
  if (!text.includes('*') && !text.includes('?')) return [];
  const out: Array<(rel: string) => boolean> = [];
  const own = fromRoot ? [fromRoot, fromRoot.split('/').pop()!] : [];
  for (const spaced of text.split(/[\s…]+/)) {
    // A whole code span (`p6a-*`), or a bare word that is a glob of Markdown files (ref_*.md).
    const word = spaced.replace(/^[(\["']+/, '');
    const coded = /^`[^`]+`[)\]"',.;:]*$/.test(word) ? word.slice(1, word.lastIndexOf('`')) : null;
    const bare = coded === null ? word.replace(/[)\]"',.;:]+$/, '') : null;
    let glob = coded ?? bare!;
    if (!/[*?]/.test(glob) || !/^[\w./*?-]+$/.test(glob) || (bare !== null && !glob.endsWith('.md'))) continue;
    glob = glob.replace(/^\.\//, '');
    for (const prefix of own) if (glob.startsWith(`${prefix}/`)) glob = glob.slice(prefix.length + 1);
    // `*.md` or `*` names no file in particular.
    if (glob.split('/').pop()!.replace(/\.md$/, '').replace(/[*?]/g, '').length < 2) continue;
    // A glob written without `.md` (`p6a-*`) names the files as their names without it would.
    const g = glob;
    out.push((rel) => globMatch(g, rel) || (!g.endsWith('.md') && rel.endsWith('.md') && globMatch(g, rel.slice(0, -3))));
  }
  return out;
}

/** `*` (any run of characters but `/`) and `?` (one such character), matched greedily with one backtrack point: linear. */
export function globMatch(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    if (g < glob.length && (glob[g] === '?' ? name[n] !== '/' : glob[g] !== '*' && glob[g] === name[n])) {
      g++;
      n++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      mark = n;
    } else if (star >= 0 && name[mark] !== '/') {
      g = star + 1;
      n = ++mark;
    } else return false;
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

/**
 * Whether a line of the index links `[[name]]` (a memory's `name:`): a topic sharing its name with
 * another memory the index links this way is an orphan whose entry would be a second line under
 * the same title, maybe for a superseded draft: reported, not written (index-orphan, consolidation).
 */
export function linkedByName(lines: readonly Pick<IndexLine, 'text' | 'kind'>[], name: string | undefined): boolean {
  const n = name?.trim();
  if (!n) return false;
  // The names an index links, read once per index (each orphan asks for its own).
  let names = linkedNames.get(lines);
  if (!names) linkedNames.set(lines, (names = new Set(lines.flatMap((l) => (l.kind !== 'code' && l.kind !== 'frontmatter' ? lineWikiNames(l.text) : [])))));
  return names.has(n);
}
const linkedNames = new WeakMap<readonly object[], Set<string>>();
