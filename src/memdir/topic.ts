// A topic file: YAML frontmatter (from line 1, closed within the first 30 lines, which is all
// Claude Code's recall scanner reads) and a Markdown body. Both frontmatter shapes are understood:
// `type` at top level, or nested in a `metadata:` block as newer Claude Code writes it.
import matter from 'gray-matter';
import { FRONTMATTER_MAX_LINES } from './limits.js';
import { bomOf, splitLines } from './lines.js';


export interface FrontmatterError {
  message: string;
  line: number;
  column: number;
}

export interface Frontmatter {
  /** 1-based line of the opening and closing `---`. closeLine is 0 when it is not closed. */
  openLine: number;
  closeLine: number;
  /** The YAML text between the fences. */
  yaml: string;
  /** Parsed data, or null when the YAML does not parse. */
  data: Record<string, unknown> | null;
  error: FrontmatterError | null;
}

export interface ParsedTopic {
  bom: string;
  frontmatter: Frontmatter | null;
  /** 1-based line on which the body starts. */
  bodyLine: number;
  /** UTF-16 offset of the body in the text. */
  bodyOffset: number;
  body: string;
  name: string | undefined;
  description: string | undefined;
  /** Where `type` was found: top level or nested under `metadata`. */
  type: unknown;
  typeAt: 'top' | 'metadata' | null;
  modified: string | undefined;
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const CLOSING_FENCE = /(?:\r\n|\r|\n)(?:---|\.\.\.)[ \t]*(?:\r\n|\r|\n|$)/g;

export function findFrontmatter(text: string): { openLine: number; closeLine: number; yaml: string; endOffset: number } | null {
  const bom = bomOf(text).length;
  if (!text.startsWith('---', bom)) return null;
  // Only the lines up to the closing fence are split: a long topic's body is never needed here.
  CLOSING_FENCE.lastIndex = bom;
  const close = CLOSING_FENCE.exec(text);
  const lines = splitLines(text.slice(bom, close ? close.index + close[0].length : text.length));
  if (lines.length === 0 || !/^---[ \t]*$/.test(lines[0]!.text)) return null;
  for (let i = 1; i < lines.length; i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i]!.text)) {
      const yaml = lines
        .slice(1, i)
        .map((l) => l.text)
        .join('\n');
      const end = lines[i]!.offset + lines[i]!.text.length + lines[i]!.eol.length + bom;
      return { openLine: 1, closeLine: i + 1, yaml, endOffset: end };
    }
  }
  return { openLine: 1, closeLine: 0, yaml: lines.slice(1).map((l) => l.text).join('\n'), endOffset: text.length };
}

export function parseYaml(yaml: string): { data: Record<string, unknown> | null; error: FrontmatterError | null } {
  if (yaml.trim() === '') return { data: {}, error: null };
  try {
    // gray-matter caches by input; an explicit fence pair gives it exactly our YAML.
    const parsed = matter(`---\n${yaml}\n---\n`, {});
    const data = parsed.data as unknown;
    if (!isRecord(data)) return { data: null, error: { message: 'frontmatter is not a mapping of keys to values', line: 2, column: 1 } };
    return { data, error: null };
  } catch (err) {
    const e = err as { reason?: string; message?: string; mark?: { line?: number; column?: number } };
    // gray-matter hands js-yaml the text after the opening fence, starting with that fence's
    // newline: mark.line 0 is the fence line itself, so mark.line + 1 is the 1-based file line.
    const line = (e.mark?.line ?? 0) + 1;
    const column = (e.mark?.column ?? 0) + 1;
    const reason = (e.reason ?? e.message ?? 'invalid YAML').split('\n')[0]!;
    return { data: null, error: { message: reason, line, column } };
  }
}

export function parseTopic(text: string): ParsedTopic {
  const bom = bomOf(text);
  const fm = findFrontmatter(text);
  if (!fm) {
    return { bom, frontmatter: null, bodyLine: 1, bodyOffset: bom.length, body: text.slice(bom.length), name: undefined, description: undefined, type: undefined, typeAt: null, modified: undefined };
  }
  let data: Record<string, unknown> | null = null;
  let error: FrontmatterError | null = null;
  if (fm.closeLine === 0) {
    error = { message: 'frontmatter is not closed: no closing `---` line', line: 1, column: 1 };
  } else if (fm.closeLine > FRONTMATTER_MAX_LINES) {
    error = { message: `frontmatter closes on line ${fm.closeLine}: Claude Code reads only the first ${FRONTMATTER_MAX_LINES} lines`, line: fm.closeLine, column: 1 };
    ({ data } = parseYaml(fm.yaml));
  } else {
    ({ data, error } = parseYaml(fm.yaml));
  }
  const meta = data && isRecord(data.metadata) ? data.metadata : undefined;
  let type: unknown;
  let typeAt: ParsedTopic['typeAt'] = null;
  if (data && data.type !== undefined) {
    type = data.type;
    typeAt = 'top';
  } else if (meta && meta.type !== undefined) {
    type = meta.type;
    typeAt = 'metadata';
  }
  const bodyOffset = fm.closeLine === 0 ? text.length : fm.endOffset;
  return {
    bom,
    frontmatter: { openLine: 1, closeLine: fm.closeLine, yaml: fm.yaml, data, error },
    bodyLine: fm.closeLine === 0 ? 1 : fm.closeLine + 1,
    bodyOffset,
    body: text.slice(bodyOffset),
    name: data ? scalar(data.name) : undefined,
    description: data ? scalar(data.description) : undefined,
    type,
    typeAt,
    modified: scalar(data?.modified ?? meta?.modified),
  };
}

// A key and a plain (unquoted, not block, not flow) value on one line of YAML.
const PLAIN_VALUE_RE = /^([ \t]*)([A-Za-z_][\w.-]*)[ \t]*:[ \t]+(?!["'|>[{&*!#%@`])(.*)$/;

/**
 * Whether YAML cut the plain value of `key` (top level or under `metadata:`) at a ` #`, which it
 * reads as a comment: `name: Story #12 checkout` parses as "Story". Such a value is not what the
 * writer meant, so it is never used as a title or to match duplicates (frontmatter-yaml reports it).
 */
export function cutAtComment(fm: Pick<Frontmatter, 'yaml'> | null, key: string): boolean {
  if (!fm || !/[ \t]#/.test(fm.yaml)) return false;
  return fm.yaml.split('\n').some((line) => {
    const m = PLAIN_VALUE_RE.exec(line);
    return m !== null && m[2] === key && /[ \t]#/.test(m[3]!) && !/^[ \t]*#/.test(m[3]!);
  });
}

/** 1-based line of a top-level (or metadata-nested) key in the frontmatter, or 0 when absent. */
export function frontmatterKeyLine(topic: ParsedTopic, key: string): number {
  if (!topic.frontmatter) return 0;
  const lines = topic.frontmatter.yaml.split('\n');
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A top-level key first; else the key inside the `metadata:` block. A key of the same name
  // nested elsewhere (author: {name: ...}) or inside a block scalar is not the one meant.
  const top = lines.findIndex((l) => new RegExp(`^${k}\\s*:`).test(l));
  if (top >= 0) return top + 2;
  const meta = lines.findIndex((l) => /^metadata\s*:/.test(l));
  if (meta < 0) return 0;
  const nested = new RegExp(`^[ \\t]+${k}\\s*:`);
  for (let i = meta + 1; i < lines.length && (/^[ \t]/.test(lines[i]!) || lines[i]!.trim() === ''); i++) {
    if (nested.test(lines[i]!)) return i + 2;
  }
  return 0;
}

/** A pinned lesson (Claude Code 2.1.219 on): `metadata.pinned: true`, or `pinned: true` at top level. */
export function isPinned(data: Record<string, unknown> | null | undefined): boolean {
  if (!data) return false;
  const meta = data.metadata;
  return (typeof meta === 'object' && meta !== null && (meta as Record<string, unknown>).pinned === true) || data.pinned === true;
}
