// memlint doctor: for this worktree, whether each part is really active, not just written down.
// A driver named in .gitattributes but not defined in git config silently falls back to a text
// merge; a worktree without husky's stubs runs no hooks at all; a lock that is not ignored gets
// committed and every checkout resets the 24 h gate.
import { existsSync, readFileSync, accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { configValue } from '../git/config.js';
import { attributeValues, ignoredPaths } from '../git/status.js';
import { DRIVER_NAME, driverProgram, hasLineMergeFallback } from '../merge/command.js';
import { blockLines, outsideBlock } from './blocks.js';
import { HOOKS_PATH, MEMLINT_HOOKS, stubsPresent } from './husky.js';
import { memlintWords, planInstall, type Worktree } from './setup.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { symlinkedMemdirMessage } from '../memdir/discover.js';
import { configWarnings, loadConfig } from '../config.js';
import { isConfigError } from '../errors.js';
import { resolveRules, ruleOptionWarnings } from '../lint/engine.js';
import { slashRelative } from '../fs/paths.js';

export interface Check {
  part: string;
  ok: boolean;
  /** What is active, or what is not and why. */
  detail: string;
  /** The command that fixes it (when not ok). */
  fix?: string;
  /** ok, with something to say (a warning line): it does not fail doctor. */
  warning?: boolean;
}

function hookRunsMemlint(root: string, hook: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(root, '.husky', hook), 'utf8');
  } catch {
    return false;
  }
  const args = MEMLINT_HOOKS[hook]!;
  const lines = [...(blockLines(text) ?? []), ...outsideBlock(text)];
  return lines.some((l) => !l.trim().startsWith('#') && /memlint|dist\/cli\.js/.test(l) && l.includes(args));
}

export function checkHooks(wt: Worktree, memdirs: string[]): Check {
  const part = 'hooks';
  const hooksPath = configValue({ cwd: wt.root, env: wt.env }, 'core.hooksPath');
  if (hooksPath === null) return { part, ok: false, detail: 'core.hooksPath is not set: git runs .git/hooks, not the .husky/ hooks', fix: 'memlint install' };
  if (hooksPath.replace(/\/+$/, '') !== HOOKS_PATH) return { part, ok: false, detail: `core.hooksPath is "${hooksPath}", so the .husky/ hooks do not run`, fix: `git config core.hooksPath ${HOOKS_PATH}` };
  if (!stubsPresent(wt.root)) {
    return { part, ok: false, detail: `no husky hook stubs in this worktree (${HOOKS_PATH}/ is missing${wt.isLinked ? '; linked worktrees do not share them' : ''}): no hook runs here`, fix: 'memlint install --local' };
  }
  const missing = Object.keys(MEMLINT_HOOKS).filter((h) => !hookRunsMemlint(wt.root, h));
  if (missing.length > 0) return { part, ok: false, detail: `stubs active, but ${missing.map((h) => `.husky/${h}`).join(', ')} ${missing.length === 1 ? 'does' : 'do'} not run memlint`, fix: 'memlint install' };
  // Written by an older memlint (the package was upgraded, install not run since): what install
  // would rewrite now, as its own plan says.
  const older = planInstall(wt, { local: false, memdirs, env: wt.env })
    .filter((a) => a.kind === 'file' && (a.rel.startsWith('.husky/') || a.rel === 'package.json'))
    .map((a) => (a.kind === 'file' && a.rel === 'package.json' ? "package.json's prepare script" : a.kind === 'file' ? a.rel : ''));
  if (older.length > 0) {
    return {
      part,
      ok: false,
      detail: `${older.join(', ')} ${older.length === 1 ? 'is' : 'are'} an older memlint's (this version writes ${older.length === 1 ? 'it' : 'them'} otherwise; install rewrites only memlint's part); commit what install changes`,
      fix: 'memlint install',
    };
  }
  return { part, ok: true, detail: `active in this worktree (${HOOKS_PATH}: pre-commit lints staged memory, pre-push refuses conflict markers and secrets, post-commit consolidates when due, post-checkout, post-merge and post-rewrite run touch)` };
}

export function checkDriver(wt: Worktree): Check {
  const part = 'merge driver';
  const driver = configValue({ cwd: wt.root, env: wt.env }, `merge.${DRIVER_NAME}.driver`);
  if (driver === null) {
    return { part, ok: false, detail: `merge.${DRIVER_NAME}.driver is not defined in git config: files marked merge=${DRIVER_NAME} silently get git's text merge`, fix: 'memlint install --local' };
  }
  if (driver.includes(wt.root + '/')) return { part, ok: false, detail: `merge.${DRIVER_NAME}.driver holds this worktree's absolute path; other worktrees would run this one's memlint`, fix: 'memlint install --local' };
  if (!hasLineMergeFallback(driver)) {
    return { part, ok: false, detail: `merge.${DRIVER_NAME}.driver has no git merge-file fallback: when memlint cannot start, git keeps ours as it is and their side is silently missing`, fix: 'memlint install --local' };
  }
  const program = driverProgram(driver);
  if (program !== null && !existsSync(join(wt.root, program)) && mainHas(wt, program)) {
    return { part, ok: true, detail: `merge.${DRIVER_NAME}.driver defined; this worktree has no ${program}, so merges run the main worktree's (${join(wt.mainRoot!, program)})` };
  }
  if (program !== null && !existsSync(join(wt.root, program))) {
    return { part, ok: false, detail: `merge.${DRIVER_NAME}.driver is defined but starts ${program}, which is missing in this worktree (merges run the main worktree's memlint, or git merge-file where it has none)`, fix: 'npm install' };
  }
  // Written by memlint before it tested for its program: sh says "not found" in a linked worktree without one.
  const older = program !== null && !driver.trim().startsWith('memlint=') ? `; an older command, which makes sh print a "not found" line in a worktree without ${program} (memlint install --local rewrites it)` : '';
  return { part, ok: true, detail: `merge.${DRIVER_NAME}.driver defined (${driver.length > 60 ? `${driver.slice(0, 57)}...` : driver})${older}` };
}

export function checkAttributes(wt: Worktree, memdirs: string[]): Check {
  const part = 'attributes';
  const owner = new Map<string, string>();
  for (const d of memdirs) {
    const p = d === '.' || d === '' ? '' : `${d}/`;
    for (const f of [INDEX_FILE, 'topic.md', 'logs/2026/01/2026-01-01.md']) owner.set(`${p}${f}`, d);
  }
  const wrong = new Set<string>();
  for (const [path, value] of attributeValues({ cwd: wt.root, env: wt.env }, 'merge', [...owner.keys()])) if (value !== DRIVER_NAME) wrong.add(owner.get(path) ?? path);
  if (wrong.size > 0) return { part, ok: false, detail: `.gitattributes does not route ${[...wrong].join(', ')} to merge=${DRIVER_NAME}`, fix: 'memlint install' };
  return { part, ok: true, detail: `memory files merge with ${DRIVER_NAME} (${memdirs.join(', ')})` };
}

export function checkLockIgnored(wt: Worktree, memdirs: string[]): Check {
  const part = 'lock';
  const paths = memdirs.map((d) => (d === '.' || d === '' ? '.consolidate-lock' : `${d}/.consolidate-lock`));
  const ignored = ignoredPaths({ cwd: wt.root, env: wt.env }, paths, { noIndex: true });
  const not = paths.filter((p) => !ignored.has(p));
  if (not.length > 0) return { part, ok: false, detail: `${not.join(', ')} not ignored: it would be committed, and each checkout would reset its mtime and with it the 24 h gate`, fix: 'memlint install' };
  return { part, ok: true, detail: `.consolidate-lock ignored (${memdirs.join(', ')})` };
}

export function checkResolvable(wt: Worktree): Check {
  const part = 'memlint';
  const words = memlintWords(wt.root);
  const node = spawnSync('sh', ['-c', 'command -v node'], { cwd: wt.root, encoding: 'utf8' });
  if (node.status !== 0) return { part, ok: false, detail: "node is not on the PATH of git's shell: hooks and the driver cannot start memlint", fix: 'add node to PATH in ~/.config/husky/init.sh' };
  if (words.startsWith('node ')) {
    const script = words.split(/\s+/)[1]!;
    if (!existsSync(join(wt.root, script))) return { part, ok: false, detail: `${script} is missing in this worktree`, fix: 'npm run build' };
    return { part, ok: true, detail: `git's shell starts it as "${words}"` };
  }
  if (!words.includes('/')) {
    const found = spawnSync('sh', ['-c', `PATH="node_modules/.bin:$PATH" command -v ${words}`], { cwd: wt.root, encoding: 'utf8' });
    if (found.status !== 0) return { part, ok: false, detail: `${words} is not on the PATH of git's shell`, fix: 'npm install -g memlint' };
    return { part, ok: true, detail: `git's shell finds it at ${found.stdout.trim()}` };
  }
  try {
    accessSync(join(wt.root, words), constants.X_OK);
  } catch {
    if (mainHas(wt, words)) return { part, ok: true, detail: `this worktree has no ${words}: the hooks and the merge driver run the main worktree's (${join(wt.mainRoot!, words)}; "npm install" here gives this worktree its own, and npx its memlint)` };
    return { part, ok: false, detail: `${words} is missing in this worktree: the hooks and the merge driver run the main worktree's memlint (where it has none, the hooks only print advice and let git go on, and merges fall back to git merge-file)`, fix: 'npm install' };
  }
  return { part, ok: true, detail: `git's shell starts it as ${words}` };
}

/** Whether a linked worktree's main worktree holds the program its hooks and driver fall back to. */
function mainHas(wt: Worktree, program: string): boolean {
  if (!wt.isLinked || !wt.mainRoot) return false;
  try {
    accessSync(join(wt.mainRoot, program), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Memory folders discovery left alone: symlinks out of the repository (src/memdir/discover.ts). */
export function checkSymlinkedMemdirs(rels: string[]): Check {
  const detail = rels.map((r) => symlinkedMemdirMessage(r).replace(/ \(.*\)$/, '')).join('; ');
  return { part: 'memory folder', ok: false, detail: `${detail}: nothing in it is linted, merged or consolidated`, fix: `put a folder in the repository in place of the symlink ${rels[0]} (move the memory files into it)` };
}

/**
 * While a memory folder is a symlink out of the repository, `memlint install` refuses (it would
 * write .gitattributes for a folder it does not follow): a fix that runs install says to put the
 * folder right first. `install --local` runs then, but its hooks and driver have no memory to serve.
 */
export function afterSymlinkedMemdirs(checks: Check[], rels: string[]): Check[] {
  if (rels.length === 0) return checks;
  return checks.map((c) => (!c.ok && c.fix !== undefined && /^memlint install\b/.test(c.fix) ? { ...c, fix: `first put a folder in the repository in place of the symlink ${rels[0]} (the memory folder line), then ${c.fix}` } : c));
}

export function formatCheck(c: Check): string {
  if (c.ok) return `${c.warning ? 'warn ' : 'ok   '} ${c.part}: ${c.detail}`;
  return `FAIL  ${c.part}: ${c.detail}; fix: ${c.fix}`;
}

/**
 * The config, validated as every command validates it (loadConfig, then the rules' ids and
 * options as the linter reads them): a FAIL naming the key and the values allowed when a command
 * would refuse it (the hooks then let git go on unchecked), a warning for keys nothing reads.
 */
export async function checkConfig(root: string, configFile: string | undefined): Promise<Check> {
  const part = 'config';
  let loaded;
  try {
    loaded = await loadConfig({ cwd: root, file: configFile, stderr: null });
    resolveRules(loaded.config.rules);
  } catch (err) {
    if (!isConfigError(err)) throw err;
    // "config /abs/.memlintrc.json: key ..." read as ".memlintrc.json: key ..." on the config line.
    const message = (err as Error).message.split('\n')[0]!.replace(/^config (\S+?):/, (_, f: string) => `${slashRelative(root, f) || f}:`);
    return { part, ok: false, detail: `${message} (every memlint command refuses it, and the git hooks let git go on, pre-commit and pre-push checking only conflict markers and secrets)`, fix: 'correct it in the config, then run memlint doctor again' };
  }
  if (loaded.file === null) return { part, ok: true, detail: 'no config file: the defaults apply' };
  const warnings = [...configWarnings(loaded).map((w) => w.replace(/^config [^:]*: /, '')), ...ruleOptionWarnings(loaded.config.rules)];
  const file = slashRelative(root, loaded.file) || loaded.file;
  if (warnings.length > 0) return { part, ok: true, warning: true, detail: `${file}: ${warnings.join('; ')}` };
  return { part, ok: true, detail: `${file} is valid` };
}
