// `[[name]]` links between memories (Claude Code 2.1.139 on): `name` is the other memory's `name:`
// slug. Claude Code tells the agent to "link liberally": a link that matches no memory yet "is
// fine; it marks something worth writing later, not an error" (2.1.332). So a dangling link is
// listed where a person asks (`show --budget`), never reported by lint. Pure.
import { blockModel, type BlockModel } from './blocks.js';
import { splitLines } from './lines.js';
import type { MemdirModel } from './types.js';

const WIKILINK_RE = /\[\[([^\[\]\n|#]+?)(?:[|#][^\[\]\n]*)?\]\]/g;

export interface WikiLink {
  name: string;
  /** 1-based. */
  line: number;
  /** 1-based UTF-16 column of the name as written (after `[[` and any spaces). */
  column: number;
  /** The name as written, spaces around it excluded: what a rename replaces. */
  written: string;
}

/** The names a line's `[[name]]` links give, outside its inline code. */
export function lineWikiNames(text: string): string[] {
  if (!text.includes('[[')) return [];
  const out: string[] = [];
  // Backticks before each link, counted on from the last (a count from the line's start for each
  // link was quadratic on a line of thousands of links).
  let ticks = 0;
  let tick = text.indexOf('`');
  for (const m of text.matchAll(WIKILINK_RE)) {
    for (; tick >= 0 && tick < m.index; tick = text.indexOf('`', tick + 1)) ticks++;
    if (ticks % 2 === 1) continue;
    out.push(m[1]!.trim());
  }
  return out;
}

/** The `[[name]]` links of a memory's text, outside code and frontmatter. */
export function wikiLinks(text: string, blocks?: BlockModel): WikiLink[] {
  if (!text.includes('[[')) return [];
  const kinds = (blocks ?? blockModel(text)).lines;
  const out: WikiLink[] = [];
  splitLines(text).forEach((l, i) => {
    const k = kinds[i]?.kind;
    if (k === 'code' || k === 'frontmatter' || !l.text.includes('[[')) return;
    for (const m of l.text.matchAll(WIKILINK_RE)) {
      // Inline code on the line: a link inside backticks is an example, not a link.
      const before = l.text.slice(0, m.index);
      if ((before.match(/`/g)?.length ?? 0) % 2 === 1) continue;
      const lead = m[1]!.length - m[1]!.trimStart().length;
      out.push({ name: m[1]!.trim(), line: i + 1, column: m.index + 3 + lead, written: m[1]!.trim() });
    }
  });
  return out;
}

/** The names a `[[link]]` reaches in a memdir: each topic's `name` slug, and each Markdown file's path without `.md`. */
export function linkTargets(model: MemdirModel): Set<string> {
  const names = new Set<string>();
  for (const t of model.topics) {
    const n = model.parsedTopic(t).name?.trim();
    if (n) names.add(n);
  }
  for (const rel of model.allPaths) if (rel.endsWith('.md')) names.add(rel.slice(0, -3));
  return names;
}

/** Links naming no memory: each with the file and line it is on. `names` are the memories' slugs (and file names without .md). */
export function danglingLinks(files: Array<{ rel: string; text: string }>, names: Set<string>): Array<WikiLink & { rel: string }> {
  const out: Array<WikiLink & { rel: string }> = [];
  for (const f of files) for (const l of wikiLinks(f.text)) if (!names.has(l.name)) out.push({ ...l, rel: f.rel });
  return out;
}

/**
 * The text with every `[[from]]` link (outside code) pointing at `to` instead, as when memlint
 * merges one memory into another: the links keep reaching the memory that now holds the text.
 * A link's display part (`[[from|shown]]`) is kept.
 */
export function renameLinks(text: string, from: string, to: string): string {
  if (from === to || !text.includes(`[[${from}`)) return text;
  const onLines = new Set(wikiLinks(text).filter((l) => l.name === from).map((l) => l.line));
  if (onLines.size === 0) return text;
  const re = new RegExp(`\\[\\[\\s*${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?=[|#\\]])`, 'g');
  let line = 1;
  return text.replace(/[^\n]*\n?/g, (l) => {
    const out = onLines.has(line) ? l.replace(re, `[[${to}`) : l;
    line++;
    return out;
  });
}
