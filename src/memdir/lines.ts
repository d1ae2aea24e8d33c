// Lines as memlint reads and writes them: cut at \n, \r\n or a lone \r, each with its own ending,
// so that a file's endings come back as they were.

/**
 * Lines with their endings ('\n', '\r\n', '\r', or '' for a last line without one) and offsets.
 * Each ending is found by the native indexOf, not by a loop over characters (most texts are split
 * once, before the code is optimised, and the interpreter is slow at character loops) nor by a
 * split on a capturing pattern (a string for every ending and an array of twice the lines: on a
 * topic of 1 MB, a tenth of a lint's own work).
 */
export function splitLines(text: string): Array<{ text: string; eol: string; offset: number }> {
  const out: Array<{ text: string; eol: string; offset: number }> = [];
  const length = text.length;
  let offset = 0;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (offset < length) {
    if (lf >= 0 && lf < offset) lf = text.indexOf('\n', offset);
    if (cr >= 0 && cr < offset) cr = text.indexOf('\r', offset);
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      const eol = lf === cr + 1 ? '\r\n' : '\r';
      out.push({ text: text.slice(offset, cr), eol, offset });
      offset = cr + eol.length;
    } else if (lf >= 0) {
      out.push({ text: text.slice(offset, lf), eol: '\n', offset });
      offset = lf + 1;
    } else {
      out.push({ text: text.slice(offset), eol: '', offset });
      break;
    }
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
