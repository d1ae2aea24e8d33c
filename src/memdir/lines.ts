// Lines as memlint reads and writes them: cut at \n, \r\n or a lone \r, each with its own ending,
// so that a file's endings come back as they were.

const EOL_SPLIT = /(\r\n|\r|\n)/;

/**
 * Lines with their endings ('\n', '\r\n', '\r', or '' for a last line without one) and offsets.
 * Native scans, not a loop over characters: most texts are split once, before the code is
 * optimised, and the interpreter is slow at character loops (the merge driver and --staged split
 * cold, on every run). A text without a carriage return (nearly every memory file) is cut at each
 * indexOf('\n'): a split on the capturing pattern makes a string for every ending and an array of
 * twice the lines. (A loop that also followed
 * '\r' with indexOf ran a hundred times slower once Node 20's optimising compiler took it.)
 */
export function splitLines(text: string): readonly Line[] {
  if (text === lastSplit.text) return lastSplit.lines;
  const lines = split(text);
  lastSplit = { text, lines };
  return lines;
}

export interface Line {
  readonly text: string;
  readonly eol: string;
  readonly offset: number;
}

// A lint pass asks for the lines of the same text from several places (the frontmatter, the block
// model, the rules): the last answer is kept, read-only, so a long file is cut once.
let lastSplit: { text: string; lines: readonly Line[] } = { text: '', lines: [] };

function split(text: string): Line[] {
  const out: Line[] = [];
  if (!text.includes('\r')) {
    const length = text.length;
    let offset = 0;
    while (offset < length) {
      const lf = text.indexOf('\n', offset);
      if (lf < 0) {
        out.push({ text: text.slice(offset), eol: '', offset });
        break;
      }
      out.push({ text: text.slice(offset, lf), eol: '\n', offset });
      offset = lf + 1;
    }
    return out;
  }
  const parts = text.split(EOL_SPLIT);
  let offset = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const eol = parts[i + 1] ?? '';
    if (line === '' && eol === '' && i === parts.length - 1) break; // after a final newline
    out.push({ text: line, eol, offset });
    offset += line.length + eol.length;
  }
  return out;
}

/**
 * The texts of splitLines's lines, without an object for each: a rule that reads only the texts
 * of a long file made one per line again whenever another text had been split since.
 */
export function lineTexts(text: string): string[] {
  const texts = text.includes('\r') ? text.split(LINE_END) : text.split('\n');
  // No line after a final ending (nor in an empty text).
  if (texts[texts.length - 1] === '') texts.pop();
  return texts;
}

const LINE_END = /\r\n|\r|\n/;

/** The line ending most lines of text end with: LF, CRLF or a lone CR (as splitLines splits), for lines memlint adds; LF when none. */
export function dominantEol(text: string): string {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const cr = (text.match(/\r/g) ?? []).length - crlf;
  if (cr > lf && cr > crlf) return '\r';
  return crlf > lf ? '\r\n' : '\n';
}

/** Whether a text holds git's conflict markers (an opening and a closing line): the person's to settle, never a fix's. */
export function holdsConflictMarkers(text: string): boolean {
  return CONFLICT_OPEN.test(text) && CONFLICT_CLOSE.test(text);
}

const CONFLICT_OPEN = /^<{7,}(?: |$)/m;
const CONFLICT_CLOSE = /^>{7,}(?: |$)/m;

/** The byte order mark a text starts with ('\uFEFF'), or '' when it has none. */
export function bomOf(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
}

/** The text without a leading byte order mark. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Ranges of inline code spans in a line (start inclusive, end exclusive), as CommonMark pairs
 * them: a run of backticks opens a span that the next run of the same length closes; a run with no
 * such closer is literal text, and a backslash before an opening run makes its first backtick
 * literal. Linear in the line's length: each length's runs are searched once, left to right.
 */
export function inlineCodeRanges(line: string): Array<[number, number]> {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = line.indexOf('`'); i >= 0; ) {
    let j = i + 1;
    while (line.charCodeAt(j) === BACKTICK) j++;
    runs.push({ start: i, length: j - i });
    i = line.indexOf('`', j);
  }
  const out: Array<[number, number]> = [];
  if (runs.length < 2) return out;
  const runsOfLength = new Map<number, number[]>();
  runs.forEach((run, k) => {
    const list = runsOfLength.get(run.length);
    if (list) list.push(k);
    else runsOfLength.set(run.length, [k]);
  });
  const searched = new Map<number, number>();
  const closerAfter = (k: number, length: number): number => {
    const list = runsOfLength.get(length);
    if (!list) return -1;
    let at = searched.get(length) ?? 0;
    while (at < list.length && list[at]! <= k) at++;
    searched.set(length, at);
    return at < list.length ? list[at]! : -1;
  };
  for (let k = 0; k < runs.length; ) {
    let { start, length } = runs[k]!;
    let backslashes = 0;
    while (start - backslashes > 0 && line.charCodeAt(start - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 1) {
      start++;
      length--;
    }
    const closer = length > 0 ? closerAfter(k, length) : -1;
    if (closer < 0) {
      k++;
      continue;
    }
    out.push([start, runs[closer]!.start + length]);
    k = closer + 1;
  }
  return out;
}

const BACKTICK = 0x60;
const BACKSLASH = 0x5c;

/** A UTF-16 text: its byte order mark, as editors on Windows write it (both byte orders). */
export function isUtf16(buf: Uint8Array): boolean {
  return buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff));
}
