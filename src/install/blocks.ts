// What memlint adds to a shared text file (.gitattributes, .gitignore, a husky hook) lives in one
// marked block, so install can update it in place and uninstall can take out exactly that: every
// byte outside the block stays as it was, line endings and a missing final newline included.
export const BLOCK_START = '# >>> memlint';
export const BLOCK_END = '# <<< memlint';

function eolOf(text: string): string {
  return /\r\n/.test(text) ? '\r\n' : '\n';
}

interface Line {
  /** The line without its terminator. */
  text: string;
  /** Offset of its first character, and of the character after its terminator. */
  start: number;
  end: number;
  /** Its terminator ('' for a last line without one). */
  eol: string;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  const re = /([^\n]*?)(\r?\n|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    out.push({ text: m[1]!, start: m.index, end: m.index + m[0].length, eol: m[2]! });
  }
  return out;
}

const isStart = (l: string) => l.trim() === BLOCK_START || l.trim().startsWith(`${BLOCK_START} `);

/** The block's first and last line (an unterminated block runs to the end of the file), or null. */
function blockSpan(lines: Line[]): [number, number] | null {
  const start = lines.findIndex((l) => isStart(l.text));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.text.trim() === BLOCK_END);
  return [start, end < 0 ? lines.length - 1 : end];
}

/** The lines of the file outside memlint's block. */
export function outsideBlock(text: string): string[] {
  const lines = splitLines(text);
  const span = blockSpan(lines);
  return lines.filter((_, i) => !span || i < span[0] || i > span[1]).map((l) => l.text);
}

export function blockLines(text: string): string[] | null {
  const lines = splitLines(text);
  const span = blockSpan(lines);
  return span ? lines.slice(span[0] + 1, lines[span[1]]!.text.trim() === BLOCK_END ? span[1] : span[1] + 1).map((l) => l.text) : null;
}

/**
 * The file with memlint's block holding `wanted` (minus lines the file already has outside the
 * block, compared by `key` when given, unless `whole`: a script is kept whole): replaced where it stands, else appended (after
 * a line break of its own when the file does not end with one, and then without a final one, so
 * that taking the block out gives the file back). No block when nothing is wanted.
 */
export function withBlock(text: string, wanted: string[], comment: string, opts: { whole?: boolean; key?: (line: string) => string | null } = {}): string {
  const eol = eolOf(text);
  // Lines are the same when their keys are (a .gitattributes line quoted or not); else when their text is.
  const key = (l: string) => opts.key?.(l) ?? l.trim();
  const have = new Set(outsideBlock(text).map(key));
  const body = opts.whole ? wanted : wanted.filter((l) => !have.has(key(l)));
  const lines = splitLines(text);
  const span = blockSpan(lines);
  if (body.length === 0) return span ? withoutBlock(text) : text;
  const block = [`${BLOCK_START} ${comment}`.trimEnd(), ...body, BLOCK_END].join(eol);
  if (span) {
    const first = lines[span[0]]!;
    const last = lines[span[1]]!;
    return text.slice(0, first.start) + block + text.slice(last.start + last.text.length);
  }
  if (text === '') return block + eol;
  return /\n$/.test(text) ? text + block + eol : text + eol + block;
}

/** The file without memlint's block, every other byte as it was. */
export function withoutBlock(text: string): string {
  const lines = splitLines(text);
  const span = blockSpan(lines);
  if (!span) return text;
  const first = lines[span[0]]!;
  const last = lines[span[1]]!;
  if (last.eol !== '' || span[0] === 0) return text.slice(0, first.start) + text.slice(last.end);
  // The block closes the file without a final line break: it came after one of its own.
  const before = lines[span[0] - 1]!;
  return text.slice(0, before.start + before.text.length) + text.slice(last.end);
}
