// Claude Code's limits on what it loads, measured exactly as it measures them
// (MAX_ENTRYPOINT_LINES / MAX_ENTRYPOINT_BYTES and truncateEntrypointContent in src/memdir/memdir.ts):
// the text is trimmed, lines are split on '\n', and "bytes" are JS string length in UTF-16 code units.
import { blockModel } from './blocks.js';
import { claudeFormat, type ClaudeFormat } from './format.js';
import { withoutBom } from './lines.js';

// The numbers are the format registry's (src/memdir/format.ts), for the newest known version.
const NEWEST = claudeFormat();
export const MAX_INDEX_LINES = NEWEST.indexMaxLines;
export const MAX_INDEX_UNITS = NEWEST.indexMaxUnits;
export const MAX_ENTRY_CHARS = NEWEST.maxEntryChars;
/** What recall shows another session of a memory file: its first lines and bytes (UTF-8). */
export const TOPIC_RECALL = NEWEST.topicRecall;
export const MAX_TOPIC_FILES = 200;
export const FRONTMATTER_MAX_LINES = 30;

/** Claude Code's formatFileSize: KB (then MB, GB) with one decimal, a trailing ".0" dropped. */
export function formatFileSize(units: number): string {
  const kb = units / 1024;
  if (kb < 1) return `${units} bytes`;
  if (kb < 1024) return `${kb.toFixed(1).replace(/\.0$/, '')}KB`;
  const mb = kb / 1024;
  if (mb < 1024) return `${mb.toFixed(1).replace(/\.0$/, '')}MB`;
  return `${(mb / 1024).toFixed(1).replace(/\.0$/, '')}GB`;
}

const AGENT_MEMORY_RE = /[/\\]\.claude[/\\]agent-memory(?:-local|-snapshots)?[/\\][^/\\]+[/\\]?$/;

/** Agent memory is loaded raw (no frontmatter or comment stripping) by buildMemoryPrompt: loadIndex's `strip: false`. */
export function isAgentMemdir(dir: string): boolean {
  return AGENT_MEMORY_RE.test(dir);
}

const FRONTMATTER_RE = /^---\s*\n[\s\S]*?---\s*\n?/;

/**
 * What reaches the truncation step on the CLAUDE.md loading path: frontmatter removed, block-level
 * HTML comments removed (comments inside a line of text stay).
 */
export function stripForLoad(raw: string): string {
  return loadedLines(raw)
    .map((l) => l.text)
    .join('\n');
}

/**
 * The lines that survive the stripping, each with its 1-based line in the file. Claude Code's
 * comment stripping runs the marked lexer, which turns CRLF and CR into LF; it runs only when the
 * text holds "<!--", so other files keep their CRs (and count them). Which lines are a block
 * comment is the block model's word (a top-level HTML block that opens with `<!--`), read on the
 * text the lexer sees: after the frontmatter.
 */
function loadedLines(raw: string, strip = true): Array<{ line: number; text: string }> {
  if (!strip) return raw.split('\n').map((text, i) => ({ line: i + 1, text }));
  let text = withoutBom(raw);
  if (text.includes('<!--')) text = text.replace(/\r\n?/g, '\n');
  const fm = FRONTMATTER_RE.exec(text);
  // Lines of the file before the first line of what follows the frontmatter.
  const before = fm ? fm[0].split('\n').length - 1 : 0;
  const rest = fm ? text.slice(fm[0].length) : text;
  const src = rest.split('\n');
  const out: Array<{ line: number; text: string }> = [];
  const comments = rest.includes('<!--') ? new Map(blockModel(rest).comments.map((c) => [c.startLine - 1, c.endLine - 1])) : null;
  for (let i = 0; i < src.length; i++) {
    const end = comments?.get(i);
    if (end === undefined) {
      out.push({ line: before + i + 1, text: src[i]! });
      continue;
    }
    // The comment closes on the block's last line; text after it on that line is kept.
    const line = src[i]!;
    const open = line.indexOf('<!--');
    // "<!-->" and "<!--->" are complete (empty) comments.
    const close = end > i ? src[end]!.indexOf('-->') : /^<!---?>/.test(line.slice(open)) ? line.indexOf('>', open + 4) - 2 : line.indexOf('-->', open + 4);
    if (close < 0) {
      // An unclosed comment is not stripped: the rest of the file stays.
      for (let k = i; k < src.length; k++) out.push({ line: before + k + 1, text: src[k]! });
      break;
    }
    let j = end;
    const after = src[j]!.slice(close + 3);
    if (after.trim() !== '') out.push({ line: before + j + 1, text: after });
    // The lexer's comment block also swallows the empty lines right after it.
    else while (j + 1 < src.length - 1 && src[j + 1] === '') j++;
    i = j;
  }
  return out;
}

export interface IndexMeasure {
  /** The trimmed, stripped text that Claude Code measures. */
  text: string;
  lines: number;
  units: number;
  overLines: boolean;
  overUnits: boolean;
}

export interface LoadOptions {
  /**
   * Strip frontmatter and block HTML comments first, as the auto memory (CLAUDE.md) path does
   * (default). Agent memory (`buildMemoryPrompt`) truncates the raw file: pass false.
   */
  strip?: boolean;
}

export function measureIndex(raw: string, options: LoadOptions = {}): IndexMeasure {
  const text = (options.strip === false ? raw : stripForLoad(raw)).trim();
  const lines = text === '' ? 0 : text.split('\n').length;
  const units = text.length;
  return { text, lines, units, overLines: lines > MAX_INDEX_LINES, overUnits: units > MAX_INDEX_UNITS };
}

/**
 * What an index's trailing blank lines add to its measure once a line is written after them:
 * Claude Code trims the index before it counts, so they count only then.
 */
export function trailingBlankMeasure(raw: string): { lines: number; units: number } {
  const trimmed = measureIndex(raw);
  const follower = /[\r\n]$/.test(raw) ? 'x' : '\nx';
  const m = measureIndex(raw + follower);
  const followed = m.text.endsWith(follower);
  return {
    lines: Math.max(0, (followed ? m.lines - 1 : m.lines) - trimmed.lines),
    units: Math.max(0, (followed ? m.units - follower.length : m.units) - trimmed.units),
  };
}

export interface LoadedIndex {
  /** Exactly what the agent sees: the kept part, plus the warning when it was cut. */
  content: string;
  /** The kept part of the measured text. */
  kept: string;
  truncated: boolean;
  warning: string | null;
  measure: IndexMeasure;
}

/** Claude Code's truncateEntrypointContent, applied to the stripped index. */
export function loadIndex(raw: string, options: LoadOptions = {}): LoadedIndex {
  const measure = measureIndex(raw, options);
  const { text, lines, units, overLines, overUnits } = measure;
  if (!overLines && !overUnits) return { content: text, kept: text, truncated: false, warning: null, measure };
  let kept = overLines ? text.split('\n').slice(0, MAX_INDEX_LINES).join('\n') : text;
  if (kept.length > MAX_INDEX_UNITS) {
    const cutAt = kept.lastIndexOf('\n', MAX_INDEX_UNITS);
    kept = kept.slice(0, cutAt > 0 ? cutAt : MAX_INDEX_UNITS);
  }
  const reason =
    overUnits && !overLines
      ? `${formatFileSize(units)} (limit: ${formatFileSize(MAX_INDEX_UNITS)}) — index entries are too long`
      : overLines && !overUnits
        ? `${lines} lines (limit: ${MAX_INDEX_LINES})`
        : `${lines} lines and ${formatFileSize(units)}`;
  const warning = `> WARNING: MEMORY.md is ${reason}. Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.`;
  return { content: `${kept}\n\n${warning}`, kept, truncated: true, warning, measure };
}

/** Number of code points: what a person counts as characters (a CJK character or an emoji counts once). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export interface IndexVisibility {
  measure: IndexMeasure;
  /** 1-based source line of the first line the agent does not see, or null when all is loaded. */
  firstCutLine: number | null;
  /** Whether the line cap fired, the size cap, or both. */
  cutBy: 'lines' | 'units' | 'both' | null;
}

/**
 * Which source lines of MEMORY.md the agent sees: the same stripping, trimming and truncation as
 * loadIndex, tracked back to line numbers in the file.
 */
export function indexVisibility(raw: string, options: LoadOptions = {}): IndexVisibility {
  const measure = measureIndex(raw, options);
  if (!measure.overLines && !measure.overUnits) return { measure, firstCutLine: null, cutBy: null };
  const keptLines = loadedLines(raw, options.strip !== false);
  while (keptLines.length && keptLines[0]!.text.trim() === '') keptLines.shift();
  while (keptLines.length && keptLines[keptLines.length - 1]!.text.trim() === '') keptLines.pop();
  let count = measure.overLines ? Math.min(MAX_INDEX_LINES, keptLines.length) : keptLines.length;
  // Units of the first `count` lines joined with '\n' (the first line trimmed at its start).
  const lead = keptLines.length ? keptLines[0]!.text.length - keptLines[0]!.text.trimStart().length : 0;
  let units = -lead - 1;
  let fitting = 0;
  for (let k = 0; k < count; k++) {
    units += keptLines[k]!.text.length + 1;
    if (units <= MAX_INDEX_UNITS) fitting = k + 1;
    else break;
  }
  const unitCut = fitting < count;
  if (unitCut) count = fitting;
  const firstCutLine = count < keptLines.length ? keptLines[count]!.line : null;
  const cutBy = measure.overLines && measure.overUnits ? 'both' : measure.overLines ? 'lines' : 'units';
  return { measure, firstCutLine, cutBy };
}

/**
 * What Claude Code tells the agent to compact the index to (2.1.210 on), as it words it: the
 * dimension nearer its limit, at 70% of that limit ("140 lines", or "17.1KB" of 25,000 units).
 * Older versions name no target: then the limits themselves.
 */
export function compactTargetText(format: ClaudeFormat, lines: number, units: number): string {
  const t = format.compactTarget;
  if (!t) return `${format.indexMaxLines} lines and ${formatFileSize(format.indexMaxUnits)}`;
  return units / format.indexMaxUnits > lines / format.indexMaxLines ? formatFileSize(t.units) : `${t.lines} lines`;
}

/**
 * Where recall cuts a file, as Claude Code 2.1.332 reads one: lines split on "\n", taken while
 * there are fewer than `maxLines` and their bytes (UTF-8, one for each line break between them)
 * stay within `maxBytes`. null when the whole file is shown.
 */
export function recallCut(text: string, maxLines: number, maxBytes: number): { shown: number; lines: number; bytes: number; by: 'lines' | 'bytes' } | null {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const bytes = Buffer.byteLength(text, 'utf8');
  if (lines.length <= maxLines && bytes <= maxBytes) return null;
  let shown = 0;
  let used = 0;
  for (const line of lines) {
    if (shown === maxLines) return { shown, lines: lines.length, bytes, by: 'lines' };
    const next = used + (shown > 0 ? 1 : 0) + Buffer.byteLength(line, 'utf8');
    if (next > maxBytes) return { shown, lines: lines.length, bytes, by: 'bytes' };
    used = next;
    shown++;
  }
  // Within both limits line by line, over only by the final line break.
  return null;
}

/**
 * Whether recall shows a memory file whole (Claude Code's limits for topics, the same in every
 * version the registry knows): what memlint moves into a topic must stay where another session
 * sees it, and a file past the limit gets Claude Code's own error on its next write.
 */
export function withinRecall(text: string): boolean {
  return recallCut(text, TOPIC_RECALL.lines, TOPIC_RECALL.bytes) === null;
}
