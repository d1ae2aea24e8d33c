// JSON a user wrote (a config, Claude Code's settings), read with its error placed: V8 names an
// offset ("at position 27", and on newer Node "(line 2 column 3)" beside it), or none when the
// text ends too soon, which is its end. Messages name a line and a column, as an editor does.

export class JsonSyntaxError extends Error {
  constructor(
    /** V8's reason without its placing ("Expected ',' or '}' after property value"). */
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

/** 1-based line and column of a UTF-16 offset (a line ends at \n, \r\n or a lone \r). */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.min(offset, text.length));
  const lines = before.split(/\r\n?|\n/);
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** JSON.parse; a syntax error becomes a JsonSyntaxError with its line and column. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const first = err.message.split('\n')[0]!;
    const at = /\bat position (\d+)/.exec(first);
    const { line, column } = lineColumn(text, at ? Number(at[1]) : text.length);
    const reason = first
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s*\bat position \d+/, '')
      .replace(/\s+in JSON$/, '')
      .trim();
    throw new JsonSyntaxError(reason, line, column);
  }
}
