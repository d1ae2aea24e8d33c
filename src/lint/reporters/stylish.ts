// Human output: one line per message, `file:line:col  severity  message  rule-id`, then a summary.
// Colour only on a TTY (and never with NO_COLOR). Two passes over the messages (the location
// column's width, then the lines), one line at a time.
import { relative } from 'node:path';
import type { FileResult } from '../engine.js';
import { INPUT_PROBLEM_ID, JOINED_UNITS, joinChunks } from './output.js';
import { escapeControls } from '../../printable.js';

export interface StylishOptions {
  cwd: string;
  color: boolean;
  fixHint: boolean;
  /**
   * With --staged: files whose working-tree version already has none of these problems. Their
   * answer is `git add`, not --fix (which changes the working tree, not what is committed).
   */
  fixedInWorktree?: ReadonlySet<string>;
}

export function* stylishChunks(results: FileResult[], opts: StylishOptions): Generator<string> {
  const c = (code: string, s: string) => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  // A file name is data: a control character in it (a line break, ESC) must not break the one-line
  // format or reach the terminal raw (contract §14).
  const fileOf = (r: FileResult) => escapeControls(relative(opts.cwd, r.filePath) || r.filePath);
  let errors = 0;
  let warnings = 0;
  let fixable = 0;
  let width = 0;
  let rows = 0;
  // Indexed loops over the messages: in this generator V8 left for-of loops unoptimised, each step
  // making an iterator result.
  for (const r of results) {
    const file = fileOf(r);
    for (let k = 0; k < r.messages.length; k++) {
      const m = r.messages[k]!;
      // The location's length, without writing it out: this pass is over every message.
      width = Math.max(width, file.length + 2 + decimalLength(m.line) + decimalLength(m.column));
      rows++;
    }
    errors += r.errorCount;
    warnings += r.warningCount;
    if (!opts.fixedInWorktree?.has(r.filePath)) fixable += r.fixableErrorCount + r.fixableWarningCount;
  }
  if (rows === 0) return;
  // Each line is the pieces of c('4', loc), padding, severity, message and c('2', rule id), joined
  // with many others at once, up to JOINED_UNITS: a line made by a template is a tree of strings,
  // walked again by the writer's join, for each of a large report's lines.
  const [underline, dim, reset] = opts.color ? ['\x1b[4m', '\x1b[2m', '\x1b[0m'] : ['', '', ''];
  const error = c('31', 'error');
  const warn = c('33', 'warn ');
  const pads: string[] = [];
  // A line's length besides the location with its padding (`width`), the message and the rule id
  // (the two severities are as long): a batch is joined once it is JOINED_UNITS long.
  const fixedUnits = underline.length + 2 * reset.length + 3 * 2 + error.length + dim.length + 1;
  // One array for every batch, written from its start again: a new one per batch grew by copies
  // to thousands of pieces, for each of a large report's batches.
  const parts: string[] = [];
  let count = 0;
  let units = 0;
  const batch = () => {
    parts.length = count;
    count = 0;
    units = 0;
    return parts.join('');
  };
  for (const r of results) {
    const file = fileOf(r);
    for (let k = 0; k < r.messages.length; k++) {
      const m = r.messages[k]!;
      const line = String(m.line);
      const column = String(m.column);
      const padding = width - (file.length + line.length + column.length + 2);
      const pad = (pads[padding] ??= ' '.repeat(padding));
      const ruleId = m.ruleId ?? INPUT_PROBLEM_ID;
      parts[count++] = underline;
      parts[count++] = file;
      parts[count++] = ':';
      parts[count++] = line;
      parts[count++] = ':';
      parts[count++] = column;
      parts[count++] = reset;
      parts[count++] = pad;
      parts[count++] = '  ';
      parts[count++] = m.severity === 2 ? error : warn;
      parts[count++] = '  ';
      const message = escapeControls(m.message);
      parts[count++] = message;
      parts[count++] = '  ';
      parts[count++] = dim;
      parts[count++] = ruleId;
      parts[count++] = reset;
      parts[count++] = '\n';
      units += width + fixedUnits + message.length + ruleId.length;
      if (units >= JOINED_UNITS) yield batch();
    }
  }
  if (count > 0) yield batch();
  const total = errors + warnings;
  const summary = `${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})`;
  yield `\n${c(errors ? '31;1' : '33;1', `✖ ${summary}`)}\n`;
  if (fixable > 0 && opts.fixHint) yield `  ${fixable} of them can be settled by \`memlint --fix\`\n`;
  const staged = results.filter((r) => r.messages.length > 0 && opts.fixedInWorktree?.has(r.filePath)).map(fileOf);
  if (staged.length > 0) yield `  the working tree already fixes ${staged.join(', ')}: stage ${staged.length === 1 ? 'it' : 'them'} with \`git add ${staged.join(' ')}\`\n`;
}

/** The length of `${n}`: its digits for a non-negative integer, else the string's own. */
function decimalLength(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) return String(n).length;
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  return digits;
}

export function formatStylish(results: FileResult[], opts: StylishOptions): string {
  return joinChunks(stylishChunks(results, opts));
}
