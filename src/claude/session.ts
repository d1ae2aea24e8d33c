// What SessionStart looks at: the memory folder Claude Code loads (its index against the limits,
// the entries past the cut, topic files missing from the index) and the stray stores.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatOf, loadConfig } from '../config.js';
import { resolveRules, lintMemdirs } from '../lint/engine.js';
import { resolveAutoMemoryPath } from './auto-memory.js';
import { parseIndex } from '../memdir/memory-index.js';
import { indexVisibility } from '../memdir/limits.js';
import { shownPath, type SessionFacts } from './hook-report.js';
import { strayStoresOf } from './stores.js';
import { linkProblem, linkState, notAdopted } from './team-link.js';
import { isRegularFile, isWithin, realOrResolved, slashRelative } from '../fs/paths.js';
import { INDEX_FILE } from '../memdir/kinds.js';

/** The facts SessionStart reports on, or null when auto memory is off. */
export async function sessionFacts(projectDir: string, env: NodeJS.ProcessEnv, home: string, debug?: (text: string) => void): Promise<SessionFacts | null> {
  const resolution = resolveAutoMemoryPath({ cwd: projectDir, env, home });
  if (!resolution.autoMemoryEnabled.value) return null;
  const dir = realOrResolved(resolution.resolved.replace(/[/\\]+$/, ''));
  const project = realOrResolved(projectDir);
  const facts: SessionFacts = { memdir: shownPath(dir, project), lines: 0, units: 0, hidden: [], orphans: [], stray: [] };
  const indexFile = path.join(dir, INDEX_FILE);
  if (isRegularFile(indexFile)) {
    const raw = readFileSync(indexFile, 'utf8');
    const loaded = await loadConfig({ cwd: projectDir, stderr: null });
    // Measured and advised as the configured Claude Code version does (config `claudeCode`).
    facts.format = formatOf(loaded.config);
    const v = indexVisibility(raw, { strip: facts.format.stripIndex });
    facts.lines = v.measure.lines;
    facts.units = v.measure.units;
    if (v.firstCutLine !== null) {
      facts.hidden = parseIndex(raw).lines.filter((l) => l.entry && l.line >= v.firstCutLine!).map((l) => l.entry!.key);
    }
    const orphanRule = resolveRules(loaded.config.rules).filter((r) => r.rule.id === 'index-orphan');
    if (orphanRule.length) {
      const gitRoot = resolution.gitRoot ? realOrResolved(resolution.gitRoot) : null;
      const repoRoot = gitRoot && isWithin(dir, gitRoot) ? gitRoot : null;
      const run = await lintMemdirs({ memdirs: [{ dir, repoRoot, reason: 'path' }], env, rules: orphanRule, source: 'worktree', ...(debug ? { debug } : {}) });
      facts.orphans = run.results.filter((r) => r.messages.some((m) => m.ruleId === 'index-orphan')).map((r) => slashRelative(dir, r.filePath));
    }
  }
  const gitRoot = resolution.gitRoot ? realOrResolved(resolution.gitRoot) : null;
  facts.stray = (gitRoot ? notAdopted(strayStoresOf(resolution, env), { cwd: gitRoot, env }) : strayStoresOf(resolution, env)).map((s) => ({ dir: s.dir, mdFiles: s.mdFiles }));
  if (gitRoot) {
    const state = await linkState(gitRoot, env, home).catch(() => null);
    // Started below the top of the checkout, Claude Code reads that folder's own settings: judged there.
    if (state && realOrResolved(projectDir) === gitRoot) facts.link = linkProblem(state);
  }
  return facts;
}
