// Output quotes names (contract §14): no raw control character from a file name, a title or an
// input reaches a terminal, a step summary or a workflow command. C0 and C1 controls, DEL, the
// line and paragraph separators and the bidirectional controls are shown escaped, as JSON escapes
// C0 (`\u001b`), so `ESC[2J` in a file name prints as text instead of clearing the screen.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

function escape(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** s with every control character escaped (`\n`, `\u001b`); everything else as is. */
export function escapeControls(s: string): string {
  return s.replace(UNSAFE_ALL, escape);
}

/**
 * A name (a file, a title) as output shows it: as is when plain; in double quotes, with `\` and `"`
 * escaped and every control character escaped, when it holds one, or edge whitespace, or is empty.
 */
export function quoteName(s: string): string {
  if (s !== '' && !UNSAFE.test(s) && !/^\s|\s$/.test(s)) return s;
  return `"${escapeControls(s.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

const NOT_ESCAPED_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify's text with the controls it leaves raw (DEL, C1, bidirectional) escaped too: still the same JSON value. */
export function jsonWithoutControls(json: string): string {
  return json.replace(NOT_ESCAPED_BY_JSON, escape);
}
