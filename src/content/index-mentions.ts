// Topic files the index names without an entry: a table of file names, a back-ticked name, a
// "see SCHEMA.md" in prose, a `[[stem]]` wiki link. The agent does read those names, so such a topic is not an orphan;
// it is an index line that is not in the entry form. Pure: lines in, line numbers out.
import { normalizeTarget, type IndexLine } from '../memdir/memory-index.js';

const LINK_TARGET = /\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * For each topic (memdir-relative path, NFC) that no entry links to, the first index line that
 * names it: a link to it anywhere on a line, or its path (or its path from the repository root,
 * `fromRoot` being the memdir's, or its file name, when no other topic shares it) standing as a word. Lines inside block comments do not count: Claude Code strips them.
 */
export function topicMentions(lines: readonly Pick<IndexLine, 'line' | 'text' | 'kind' | 'entry'>[], topics: readonly string[], fromRoot?: string, folders = false): Map<string, number> {
  const out = new Map<string, number>();
  const entries = new Set(lines.filter((l) => l.entry).map((l) => l.entry!.key));
  const wanted = topics.filter((t) => !entries.has(t));
  if (wanted.length === 0) return out;
  const baseCount = new Map<string, number>();
  for (const t of topics) {
    const b = t.split('/').pop()!;
    baseCount.set(b, (baseCount.get(b) ?? 0) + 1);
  }
  const names = new Map<string, RegExp>();
  for (const t of wanted) {
    const b = t.split('/').pop()!;
    const alts = baseCount.get(b) === 1 && b !== t ? [t, b] : [t];
    // Its path from the repository root (`.claude/agent-memory/x/notes.md`), when the memdir is in one.
    if (fromRoot) alts.unshift(`${fromRoot}/${t}`);
    // Also `[[stem]]` (or `[[path/stem]]`, `[[stem|label]]`): a wiki link naming the file without `.md`.
    const stems = alts.map((a) => a.replace(/\.md$/u, ''));
    // With `folders`, a folder above it named as one (`corpus/`, `[sources](sources/)`): the agent knows where to look.
    if (folders) for (let i = t.indexOf('/'); i > 0; i = t.indexOf('/', i + 1)) alts.push(t.slice(0, i + 1));
    names.set(t, new RegExp(`(?<![\\w./-])(?:\\./)?(?:${alts.map(escapeRe).join('|')})(?![\\w/-])|\\[\\[[ \\t]*(?:\\./)?(?:${stems.map(escapeRe).join('|')})(?:\\.md)?[ \\t]*(?:[|#][^\\]]*)?\\]\\]`, 'u'));
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
    for (const t of wanted) {
      if (out.has(t)) continue;
      if (linked.has(t) || names.get(t)!.test(l.text)) out.set(t, l.line);
    }
    if (out.size === wanted.length) break;
  }
  return out;
}
