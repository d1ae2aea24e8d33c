// The agent step's gate: lint errors of the memdir, through the lint engine (loaded only when an
// agent step runs).
import { relative } from 'node:path';
import type { RuleSetting } from '../config.js';
import type { LintError, MemdirRef } from './run.js';

export function makeLint(rules: Record<string, RuleSetting> | undefined, cwd: string): (m: MemdirRef) => Promise<LintError[]> {
  return async (m) => {
    const { lintMemdirs, resolveRules } = await import('../lint/engine.js');
    const res = await lintMemdirs({ memdirs: [{ dir: m.dir, repoRoot: m.repoRoot, reason: 'path' }], rules: resolveRules(rules) });
    return res.results.flatMap((r) =>
      r.messages.filter((x) => x.severity === 2).map((x) => ({ file: relative(cwd, r.filePath), line: x.line, column: x.column, ruleId: x.ruleId ?? 'memlint', message: x.message })),
    );
  };
}
