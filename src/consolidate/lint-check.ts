// The agent step's gate: lint errors of the memdir, through the lint engine.
import { relative } from 'node:path';
import type { RuleSetting } from '../config.js';
import { lintMemdirs, resolveRules } from '../lint/engine.js';
import type { MemdirRef } from './due.js';
import type { Io } from '../io.js';

/** A lint error of a memory folder, as the agent step's gate compares them. */
export interface LintError {
  /** Path as shown to the user. */
  file: string;
  line: number;
  column: number;
  ruleId: string;
  message: string;
}

/** `io`: the run's folder (paths are shown from it) and environment; `debug`: where a rule's stack goes when it throws (LintRunOptions.debug). */
export function makeLint(rules: Record<string, RuleSetting> | undefined, io: Pick<Io, 'cwd' | 'env'>, debug?: (text: string) => void): (m: MemdirRef) => Promise<LintError[]> {
  const { cwd, env } = io;
  return async (m) => {
    const res = await lintMemdirs({ memdirs: [{ dir: m.dir, repoRoot: m.repoRoot, reason: 'path' }], env, rules: resolveRules(rules), ...(debug ? { debug } : {}) });
    return res.results.flatMap((r) =>
      r.messages.filter((x) => x.severity === 2).map((x) => ({ file: relative(cwd, r.filePath), line: x.line, column: x.column, ruleId: x.ruleId ?? 'memlint', message: x.message })),
    );
  };
}
