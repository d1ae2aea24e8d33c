// What `memlint hook` answers once a payload concerns memory (src/commands/hook.ts reads the payload
// and answers the rest without loading this): the lint of an edited memory file, and SessionStart's
// attention notes.
import { readFileSync, statSync } from 'node:fs';
import { homeOf } from './auto-memory.js';
import path from 'node:path';
import { isRegularFile, realOrResolved, slashRelative } from '../fs/paths.js';
import { formatOf, loadConfig } from '../config.js';
import { locateMemdir } from './locate.js';
import { matcher } from '../glob.js';
import { lintMemdirs, resolveRules, runToday, type EnabledRule } from '../lint/engine.js';
import { blockReason, postToolUseOutput, sessionContext, sessionStartOutput, shownPath } from './hook-report.js';
import { maskSecrets, secretsOf } from '../content/secrets.js';
import { sessionFacts } from './session.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { mayHoldRelativeDate } from '../content/date-patterns.js';

/**
 * The entry line index-orphan's fix would add: the agent can write exactly that. Its hook comes
 * from the topic's description: a relative date in it ("tomorrow") is given with its date, as
 * absolute-dates asks, so the advice never makes the agent write what the next lint blocks.
 */
async function suggestion(m: { ruleId: string | null; fix?: { edits: Array<{ text: string }> } }, today: Date): Promise<{ suggestion?: string }> {
  const text = m.ruleId === 'index-orphan' ? m.fix?.edits[0]?.text.trim() : undefined;
  if (!text) return {};
  if (!mayHoldRelativeDate(text)) return { suggestion: text };
  const { findRelativeDates } = await import('../content/dates.js');
  let out = '';
  let at = 0;
  for (const h of findRelativeDates(text, today)) {
    out += text.slice(at, h.start) + h.replacement;
    at = h.end;
  }
  return { suggestion: out + text.slice(at) };
}

/**
 * After a Write or Edit of the existing Markdown file `file`: '' when it is not memory or has no
 * errors, else the block answer naming them.
 */
export async function editAnswer(file: string, projectDir: string, env: NodeJS.ProcessEnv, debug?: (text: string) => void): Promise<string> {
  const loaded = await loadConfig({ cwd: projectDir, stderr: null });
  const memoryDirs = (loaded.config.memoryDirs ?? []).map((d) => path.resolve(loaded.dir, d));
  const located = await locateMemdir(file, projectDir, env, homeOf(env), memoryDirs);
  if (!located) return '';
  const realFile = realOrResolved(file);
  if (loaded.config.ignore?.length && matcher(loaded.config.ignore)(slashRelative(loaded.dir, realFile))) return '';
  const rules = resolveRules(loaded.config.rules).filter((r) => r.rule.id !== 'no-memory-loss');
  const index = path.join(located.dir, INDEX_FILE);
  const lint = (enabled: EnabledRule[]) =>
    lintMemdirs({
      memdirs: [{ dir: located.dir, repoRoot: located.repoRoot, onlyFiles: new Set([realFile, index]), reason: 'path', ...(located.confirmLinks ? { confirmLinks: true } : {}) }],
      env,
      rules: enabled,
      source: 'worktree',
      today: runToday(env),
      format: formatOf(loaded.config),
      ...(debug ? { debug } : {}),
    });
  // Only errors block, and warnings are told only beside them: the error rules first, so an edit
  // without errors never pays for what only warnings ask (no-stale-reference's history walk).
  const errorRules = rules.filter((r) => r.severity === 2);
  const first = await lint(errorRules);
  if (!first.results.some((r) => r.messages.some((m) => m.severity === 2))) return '';
  const run = errorRules.length === rules.length ? first : await lint(rules);
  const today = runToday(env);
  const messages = await Promise.all(run.results.flatMap((r) => r.messages.map(async (m) => ({ filePath: r.filePath, ruleId: m.ruleId, severity: m.severity, message: m.message, line: m.line, fixable: !!m.fix, ...(await suggestion(m, today)) }))));
  const texts = new Map<string, string>();
  for (const f of new Set(messages.filter((m) => m.ruleId === 'index-line-length').map((m) => m.filePath))) if (isRegularFile(f)) texts.set(f, readFileSync(f, 'utf8'));
  const reason = blockReason(messages, { projectDir: realOrResolved(projectDir), texts, format: formatOf(loaded.config) }, shownPath(located.dir, realOrResolved(projectDir)));
  if (reason === null) return '';
  // The engine masked the messages; the entry lines suggested for orphans are masked here.
  const known = await secretsOf([realFile, index].flatMap((f) => (isRegularFile(f) && statSync(f).size <= 4 * 1024 * 1024 ? [readFileSync(f, 'utf8')] : [])));
  return postToolUseOutput(maskSecrets(reason, known));
}

/** At SessionStart: '' unless the memory needs attention. */
export async function sessionStartAnswer(projectDir: string, env: NodeJS.ProcessEnv, debug?: (text: string) => void): Promise<string> {
  const facts = await sessionFacts(projectDir, env, homeOf(env), debug);
  const context = facts ? sessionContext(facts) : null;
  if (context === null) return '';
  // File names are printed: one named after a secret is masked.
  return sessionStartOutput(maskSecrets(context));
}
