// Lines as memlint reads and writes them: cut at \n, \r\n or a lone \r, each with its own ending,
// so that a file's endings come back as they were.

const EOL_SPLIT = /(\r\n|\r|\n)/;

/**
 * Lines with their endings ('\n', '\r\n', '\r', or '' for a last line without one) and offsets.
 * A native split, not a loop over characters: most texts are split once, before the code is
 * optimised, and the interpreter is slow at character loops (the merge driver and --staged
 * split cold, on every run).
 */
export function splitLines(text: string): Array<{ text: string; eol: string; offset: number }> {
  if (text === '') return [];
  const parts = text.split(EOL_SPLIT);
  const out: Array<{ text: string; eol: string; offset: number }> = [];
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

/** The line ending most lines of text end with: LF, CRLF or a lone CR (as splitLines splits), for lines memlint adds; LF when none. */
export function dominantEol(text: string): string {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const cr = (text.match(/\r/g) ?? []).length - crlf;
  if (cr > lf && cr > crlf) return '\r';
  return crlf > lf ? '\r\n' : '\n';
}

/** The byte order mark a text starts with ('\uFEFF'), or '' when it has none. */
export function bomOf(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
}

/** The text without a leading byte order mark. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
