// What memlint adds to a shared text file (.gitattributes, .gitignore, a husky hook) lives in one
// marked block, so install can update it in place and uninstall can take out exactly that.
export const BLOCK_START = '# >>> memlint';
export const BLOCK_END = '# <<< memlint';

function eolOf(text: string): string {
  return /\r\n/.test(text) ? '\r\n' : '\n';
}

function lines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
}

/** The lines of the file outside memlint's block. */
export function outsideBlock(text: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const l of lines(text)) {
    if (l.trim() === BLOCK_START || l.trim().startsWith(`${BLOCK_START} `)) inBlock = true;
    else if (l.trim() === BLOCK_END) inBlock = false;
    else if (!inBlock) out.push(l);
  }
  return out;
}

export function blockLines(text: string): string[] | null {
  const all = lines(text);
  const start = all.findIndex((l) => l.trim() === BLOCK_START || l.trim().startsWith(`${BLOCK_START} `));
  if (start < 0) return null;
  const end = all.findIndex((l, i) => i > start && l.trim() === BLOCK_END);
  return all.slice(start + 1, end < 0 ? all.length : end);
}

/**
 * The file with memlint's block holding `wanted` (minus lines the file already has outside the
 * block, unless `whole`: a script is kept whole): replaced where it stands, else appended. No
 * block when nothing is wanted.
 */
export function withBlock(text: string, wanted: string[], comment: string, opts: { whole?: boolean } = {}): string {
  const eol = eolOf(text);
  const have = new Set(outsideBlock(text).map((l) => l.trim()));
  const body = opts.whole ? wanted : wanted.filter((l) => !have.has(l.trim()));
  const block = body.length > 0 ? [`${BLOCK_START} ${comment}`.trimEnd(), ...body, BLOCK_END] : [];
  const all = lines(text);
  const start = all.findIndex((l) => l.trim() === BLOCK_START || l.trim().startsWith(`${BLOCK_START} `));
  let result: string[];
  if (start >= 0) {
    let end = all.findIndex((l, i) => i > start && l.trim() === BLOCK_END);
    if (end < 0) end = all.length - 1;
    result = [...all.slice(0, start), ...block, ...all.slice(end + 1)];
  } else {
    result = [...all, ...block];
  }
  if (result.length === 0) return '';
  const out = result.join(eol) + eol;
  return start < 0 && block.length === 0 ? text : out;
}

/** The file without memlint's block (the rest byte for byte, apart from line endings normalised to the file's). */
export function withoutBlock(text: string): string {
  if (blockLines(text) === null) return text;
  const eol = eolOf(text);
  const all = lines(text);
  const start = all.findIndex((l) => l.trim() === BLOCK_START || l.trim().startsWith(`${BLOCK_START} `));
  let end = all.findIndex((l, i) => i > start && l.trim() === BLOCK_END);
  if (end < 0) end = all.length - 1;
  const result = [...all.slice(0, start), ...all.slice(end + 1)];
  return result.length === 0 ? '' : result.join(eol) + eol;
}
