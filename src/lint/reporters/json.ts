// ESLint's JSON formatter shape: [{filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount}],
// messages with ESLint's own fields only (fixability shows in the fixable counts). Written one
// message at a time: the same bytes as one JSON.stringify of the whole array.
import type { FileResult, LintMessage } from '../engine.js';
import { joinChunks } from './output.js';

function messageJson(m: LintMessage): string {
  return JSON.stringify({
    ruleId: m.ruleId,
    severity: m.severity,
    message: m.message,
    line: m.line,
    column: m.column,
    ...(m.endLine !== undefined ? { endLine: m.endLine } : {}),
    ...(m.endColumn !== undefined ? { endColumn: m.endColumn } : {}),
    ...(m.fatal ? { fatal: true } : {}),
  });
}

export function* jsonChunks(results: FileResult[]): Generator<string> {
  yield '[';
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    yield `${i > 0 ? ',' : ''}{"filePath":${JSON.stringify(r.filePath)},"messages":[`;
    for (let k = 0; k < r.messages.length; k++) yield (k > 0 ? ',' : '') + messageJson(r.messages[k]!);
    yield `],"errorCount":${r.errorCount},"warningCount":${r.warningCount},"fixableErrorCount":${r.fixableErrorCount},"fixableWarningCount":${r.fixableWarningCount}}`;
  }
  yield ']';
}

export function formatJson(results: FileResult[]): string {
  return joinChunks(jsonChunks(results));
}
