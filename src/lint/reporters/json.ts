// ESLint's JSON formatter shape: [{filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount}],
// messages with ESLint's own fields only (fixability shows in the fixable counts). Written one
// message at a time: the same bytes as one JSON.stringify of the whole array.
import type { FileResult, LintMessage } from '../engine.js';
import { joinChunks } from './output.js';

function messageJson(m: LintMessage): string {
  // The optional fields added one by one, in this order: a spread into the literal made each of a
  // large run's messages a slow copy.
  const out: Record<string, unknown> = { ruleId: m.ruleId, severity: m.severity, message: m.message, line: m.line, column: m.column };
  if (m.endLine !== undefined) out.endLine = m.endLine;
  if (m.endColumn !== undefined) out.endColumn = m.endColumn;
  if (m.fatal) out.fatal = true;
  return JSON.stringify(out);
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
