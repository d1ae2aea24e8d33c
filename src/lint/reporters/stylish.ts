// Human output: one line per message, `file:line:col  severity  message  rule-id`, then a summary.
// Colour only on a TTY (and never with NO_COLOR).
import { relative } from 'node:path';
import type { FileResult } from '../engine.js';

export function formatStylish(results: FileResult[], opts: { cwd: string; color: boolean; fixHint: boolean }): string {
  const c = (code: string, s: string) => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const rows: string[][] = [];
  let errors = 0;
  let warnings = 0;
  let fixable = 0;
  for (const r of results) {
    const file = relative(opts.cwd, r.filePath) || r.filePath;
    for (const m of r.messages) {
      rows.push([`${file}:${m.line}:${m.column}`, m.severity === 2 ? 'error' : 'warn', m.message, m.ruleId ?? '']);
    }
    errors += r.errorCount;
    warnings += r.warningCount;
    fixable += r.fixableErrorCount + r.fixableWarningCount;
  }
  if (rows.length === 0) return '';
  const w0 = Math.max(...rows.map((r) => r[0]!.length));
  const lines = rows.map(([loc, sev, msg, rule]) => {
    const sevText = sev === 'error' ? c('31', 'error') : c('33', 'warn ');
    // Input problems (unreadable, binary...) have no rule id: no trailing blanks for them.
    return `${c('4', loc!)}${' '.repeat(w0 - loc!.length)}  ${sevText}  ${msg}${rule ? `  ${c('2', rule)}` : ''}`;
  });
  const total = errors + warnings;
  const summary = `${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})`;
  lines.push('', c(errors ? '31;1' : '33;1', `✖ ${summary}`));
  if (fixable > 0 && opts.fixHint) lines.push(`  ${fixable} of them can be settled by \`memlint --fix\``);
  return lines.join('\n') + '\n';
}
