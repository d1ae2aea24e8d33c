// ESLint's JSON formatter shape: [{filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount}],
// messages with ESLint's own fields only (fixability shows in the fixable counts).
import type { FileResult } from '../engine.js';

export function formatJson(results: FileResult[]): string {
  return JSON.stringify(
    results.map((r) => ({
      filePath: r.filePath,
      messages: r.messages.map((m) => ({
        ruleId: m.ruleId,
        severity: m.severity,
        message: m.message,
        line: m.line,
        column: m.column,
        ...(m.endLine !== undefined ? { endLine: m.endLine } : {}),
        ...(m.endColumn !== undefined ? { endColumn: m.endColumn } : {}),
        ...(m.fatal ? { fatal: true } : {}),
      })),
      errorCount: r.errorCount,
      warningCount: r.warningCount,
      fixableErrorCount: r.fixableErrorCount,
      fixableWarningCount: r.fixableWarningCount,
    })),
  );
}
