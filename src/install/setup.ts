// memlint install / uninstall: what they change, computed first (for --dry-run), then applied.
// Tracked files get memlint's marked block (.gitattributes, .gitignore, .husky/<hook>) and the
// package.json prepare script; the clone gets the merge driver in its local git config and, in this
// worktree, husky's hook stubs. Uninstall takes out exactly those.
import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { localConfigReader, setLocalConfig } from '../git/config.js';
import { repository, type GitContext, type Repository } from '../git/repo.js';
import { checkInsideRepo, removeInsideRepo, removeTreeInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { UsageError } from '../errors.js';
import { attributeLineKey, attributeLines, driverConfig, mainWorktreeCopy, programOf, DEFAULT_MEMLINT_BIN, DRIVER_NAME } from '../merge/command.js';
import { outsideBlock, withBlock, withoutBlock } from './blocks.js';
import { HOOK_SCRIPTS } from './hook-scripts.js';
import { HOOKS_PATH, MEMLINT_HOOKS, OWN_STUBS_MARKER, stubsPresent, writeOwnStubs } from './husky.js';
import { editScripts, OWN_REPO_PREPARE, preparedScript, runsMemlintInstall, unpreparedScript } from './package-json.js';
import { slashRelative } from '../fs/paths.js';

export const GITIGNORE_LINES = ['.consolidate-lock', '.snapshot-synced.json'];
/** Paths a person's private Claude Code files live at, ignored once a team shares its memory (docs/interop.md). */
const PRIVATE_GITIGNORE_LINES = ['.claude/settings.local.json', '.claude/agent-memory-local/', 'CLAUDE.local.md'];
/** Local git config keys where install notes what it found in this clone, so uninstall restores exactly that. */
export const NOTE_HOOKS_PATH = 'memlint.installedHooksPath';
/** Where installs before the prepare note moved into package.json (PREPARED_FROM) kept it: still read, and unset by uninstall. */
export const NOTE_PREPARE = 'memlint.preparedFrom';

export type Action =
  | { kind: 'file'; rel: string; path: string; before: string | null; after: string | null; what: string }
  | { kind: 'config'; key: string; before: string | null; after: string | null; what: string }
  | { kind: 'stubs'; what: string }
  | { kind: 'remove-stubs'; what: string }
  | { kind: 'note'; what: string };

export interface Worktree {
  root: string;
  /** The main worktree's root, where node_modules usually is (null for a bare common dir). */
  mainRoot: string | null;
  isLinked: boolean;
  /** Where git found it: asked once, and handed to what needs the repository again. */
  repository: Repository;
  /** The environment it was found in, which git runs in for it. */
  env: NodeJS.ProcessEnv;
}

export function worktreeOf(from: GitContext): Worktree {
  const info = repository(from);
  if (!info) throw new UsageError('not inside a git repository (memlint install sets up git hooks, attributes and config)');
  const mainRoot = basename(info.commonDir) === '.git' ? dirname(info.commonDir) : null;
  return { root: info.root, mainRoot, isLinked: info.isLinkedWorktree, repository: info, env: from.env };
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** How hooks and the driver start memlint: relative to the worktree top, never an absolute path. */
export function memlintWords(root: string): string {
  const pkg = readText(join(root, 'package.json'));
  if (pkg === null) return existsSync(join(root, DEFAULT_MEMLINT_BIN)) ? DEFAULT_MEMLINT_BIN : 'memlint'; // not an npm project: a global memlint
  try {
    if ((JSON.parse(pkg) as { name?: string }).name === 'memlint') return 'node ./dist/cli.js';
  } catch {
    // not JSON: an ordinary project
  }
  return DEFAULT_MEMLINT_BIN;
}

/**
 * Shell lines that set `memlint` to the program that starts memlint in the worktree a hook runs in
 * (empty when there is none), and the words that run it. A linked worktree without node_modules
 * uses the main worktree's (the folder holding the repository's .git), so its hooks work there too.
 */
export function hookFinder(words: string): { find: string[]; run: string } {
  const program = programOf(words);
  if (!program) return { find: [`memlint=$(command -v ${words} 2>/dev/null || :)`], run: '"$memlint"' };
  const { file, test, run } = program;
  return {
    find: [`memlint=${file}`, `if [ ! ${test} "$memlint" ]; then`, ...mainWorktreeCopy(file, test).map((l) => `  ${l}`), 'fi'],
    run,
  };
}

/**
 * The lines memlint puts into .husky/<hook>: the script from hooks/ with the lines that find
 * memlint (hookFinder) filled in. Every hook lets git go on, with one line of advice, where memlint
 * is missing (a clone before npm install, a linked worktree whose main worktree has none either).
 */
export function hookScript(words: string, hook: string): string[] {
  const { find, run } = hookFinder(words);
  const lines = HOOK_SCRIPTS[hook]!.replace(/\r?\n$/, '').split(/\r?\n/);
  return lines.flatMap((l) => {
    const at = l.indexOf('@find@');
    if (at < 0) return [l.replace(/@run@/g, run)];
    const indent = l.slice(0, at);
    return find.map((f) => indent + f);
  });
}

function runsAlready(lines: string[], args: string): boolean {
  return lines.some((l) => !l.trim().startsWith('#') && /memlint|dist\/cli\.js/.test(l) && l.includes(args));
}

export interface InstallOptions {
  /** Only this clone's parts (git config, hook stubs): what the prepare script runs. */
  local: boolean;
  memdirs: string[];
  /** The team shares its memory (config "link"): a person's private Claude Code files are ignored too. */
  privateIgnores?: boolean;
  /** The run's environment: HUSKY=0 leaves the hook stubs unwritten. */
  env: NodeJS.ProcessEnv;
}

export function planInstall(wt: Worktree, opts: InstallOptions): Action[] {
  const { root } = wt;
  // The plan reads the repository's own config; nothing writes it until applyActions.
  const localConfig = localConfigReader({ cwd: root, env: wt.env });
  const actions: Action[] = [];
  const words = memlintWords(root);
  const fileAction = (rel: string, compute: (before: string) => string, what: string) => {
    const path = join(root, rel);
    if (refused(root, rel, actions)) return;
    const before = readText(path);
    const after = compute(before ?? '');
    if (after !== (before ?? '')) actions.push({ kind: 'file', rel, path, before, after, what });
  };
  if (!opts.local) {
    const attrs = opts.memdirs.flatMap((d) => attributeLines(d));
    fileAction('.gitattributes', (t) => withBlock(t, attrs, 'memory files merge with the memlint driver', { key: attributeLineKey }), `merge=${DRIVER_NAME} for ${opts.memdirs.join(', ')}`);
    const ignores = opts.privateIgnores ? [...GITIGNORE_LINES, ...PRIVATE_GITIGNORE_LINES] : GITIGNORE_LINES;
    const why = opts.privateIgnores ? "consolidation lock, snapshot state and each person's private Claude Code files stay local" : 'consolidation lock and snapshot state stay local';
    fileAction('.gitignore', (t) => withBlock(t, ignores, why), ignores.join(', '));
    for (const hook of Object.keys(MEMLINT_HOOKS)) {
      fileAction(`.husky/${hook}`, (t) => (runsAlready(outsideBlock(t), MEMLINT_HOOKS[hook]!) ? t : withBlock(t, hookScript(words, hook), '', { whole: true })), `runs memlint ${MEMLINT_HOOKS[hook]}`);
    }
    const pkgPath = join(root, 'package.json');
    const pkg = refused(root, 'package.json', actions) ? null : readText(pkgPath);
    if (pkg !== null) {
      // In memlint's own repository npm ci runs prepare before any build: it builds first.
      const ours = words === DEFAULT_MEMLINT_BIN ? 'memlint install --local' : OWN_REPO_PREPARE;
      const hasHusky = (() => {
        try {
          const j = JSON.parse(pkg) as { devDependencies?: Record<string, string>; dependencies?: Record<string, string> };
          return 'husky' in { ...j.dependencies, ...j.devDependencies };
        } catch {
          return false;
        }
      })();
      const edited = editScripts(pkg, (scripts, note) => {
        const before = scripts.prepare;
        const after = preparedScript(before, ours, hasHusky);
        if (after !== before) {
          scripts.prepare = after;
          // The original is what the user had before memlint's first install, noted in
          // package.json: a script that already runs memlint's part (husky arrived since) keeps
          // the note taken then (or an older install's note in this clone's git config), else is
          // noted with memlint's part cut out.
          if (note.preparedFrom === undefined) {
            note.preparedFrom = runsMemlintInstall(before) ? (localConfig(NOTE_PREPARE) ?? unpreparedScript(before, null) ?? '') : (before ?? '');
          }
        }
      });
      if (edited !== pkg) actions.push({ kind: 'file', rel: 'package.json', path: pkgPath, before: pkg, after: edited, what: `prepare script runs ${hasHusky ? 'husky and ' : ''}"memlint install --local"` });
      // The note explains the prepare script written: an install that writes none (a second one) says nothing of it.
      if (!hasHusky && edited !== pkg) actions.push({ kind: 'note', what: 'husky is not in devDependencies: "memlint install --local" (the prepare script) writes the hook stubs in each clone, as husky would' });
    } else actions.push({ kind: 'note', what: 'no package.json at the top of the repository: each clone runs "memlint install --local" itself' });
  }
  for (const [key, value] of driverConfig({ memlint: words })) {
    const before = localConfig(key);
    if (before !== value) actions.push({ kind: 'config', key, before, after: value, what: key.endsWith('.driver') ? 'the merge driver command' : "the merge driver's name" });
  }
  const hooksPath = localConfig('core.hooksPath');
  if (hooksPath !== null && hooksPath.replace(/\/+$/, '') !== HOOKS_PATH) {
    actions.push({ kind: 'note', what: `core.hooksPath is "${hooksPath}", not husky's ${HOOKS_PATH}: left as it is, so the .husky hooks will not run (another hook manager?)` });
  } else {
    if (hooksPath === null) {
      actions.push({ kind: 'config', key: 'core.hooksPath', before: null, after: HOOKS_PATH, what: 'git runs the hooks in .husky/' });
      if (localConfig(NOTE_HOOKS_PATH) === null) actions.push({ kind: 'config', key: NOTE_HOOKS_PATH, before: null, after: 'true', what: 'note that install set core.hooksPath' });
    }
    if (refused(root, HOOKS_PATH, actions)) {
      // .husky or .husky/_ is a symlink: no stubs written through it, husky not run on it
    } else if (!stubsPresent(root)) {
      if (opts.env.HUSKY === '0') actions.push({ kind: 'note', what: 'HUSKY=0: hook stubs not written' });
      // Written by memlint, as husky 9 writes them: never by running a husky found in the working tree.
      else actions.push({ kind: 'stubs', what: `${HOOKS_PATH} hook stubs in this worktree` });
    }
  }
  return actions;
}

/**
 * Whether a file or folder install would change is reached through a symlink (or lies outside
 * the worktree): then a note says so, and it is neither read nor written (src/fs/inside.ts).
 */
function refused(root: string, rel: string, actions: Action[]): boolean {
  const c = checkInsideRepo(root, join(root, rel));
  if (c.ok) return false;
  const what = `${c.reason}: ${rel} left as it is`;
  if (!actions.some((a) => a.kind === 'note' && a.what === what)) actions.push({ kind: 'note', what });
  return true;
}

export function planUninstall(wt: Worktree): Action[] {
  const { root } = wt;
  const localConfig = localConfigReader({ cwd: root, env: wt.env });
  const actions: Action[] = [];
  const fileAction = (rel: string, compute: (before: string) => string | null, what: string) => {
    const path = join(root, rel);
    if (refused(root, rel, actions)) return;
    const before = readText(path);
    if (before === null) return;
    const after = compute(before);
    if (after !== before) actions.push({ kind: 'file', rel, path, before, after, what });
  };
  const dropBlock = (t: string) => {
    const out = withoutBlock(t);
    return out.trim() === '' && out !== t ? null : out;
  };
  fileAction('.gitattributes', dropBlock, 'memlint block removed');
  fileAction('.gitignore', dropBlock, 'memlint block removed');
  for (const hook of Object.keys(MEMLINT_HOOKS)) fileAction(`.husky/${hook}`, dropBlock, 'memlint lines removed');
  const pkgPath = join(root, 'package.json');
  const pkg = refused(root, 'package.json', actions) ? null : readText(pkgPath);
  if (pkg !== null) {
    const edited = editScripts(pkg, (scripts, note) => {
      // Installs before the note moved into package.json kept it in this clone's git config.
      const after = unpreparedScript(scripts.prepare, note.preparedFrom ?? localConfig(NOTE_PREPARE));
      if (after === undefined) delete scripts.prepare;
      else scripts.prepare = after;
      delete note.preparedFrom;
    });
    if (edited !== pkg) actions.push({ kind: 'file', rel: 'package.json', path: pkgPath, before: pkg, after: edited, what: 'prepare script restored' });
  }
  for (const key of [`merge.${DRIVER_NAME}.name`, `merge.${DRIVER_NAME}.driver`, NOTE_PREPARE]) {
    const before = localConfig(key);
    if (before !== null) actions.push({ kind: 'config', key, before, after: null, what: 'unset' });
  }
  if (localConfig(NOTE_HOOKS_PATH) !== null) {
    if (localConfig('core.hooksPath') === HOOKS_PATH) actions.push({ kind: 'config', key: 'core.hooksPath', before: HOOKS_PATH, after: null, what: 'unset (install had set it)' });
    actions.push({ kind: 'config', key: NOTE_HOOKS_PATH, before: 'true', after: null, what: 'unset' });
  }
  if (!refused(root, HOOKS_PATH, actions) && existsSync(join(root, HOOKS_PATH, OWN_STUBS_MARKER))) actions.push({ kind: 'remove-stubs', what: `${HOOKS_PATH} (memlint's own hook stubs)` });
  return actions;
}

export function applyActions(wt: Worktree, actions: Action[]): string[] {
  const problems: string[] = [];
  for (const a of actions) {
    if (a.kind === 'file') {
      if (a.after === null) removeInsideRepo(wt.root, a.path);
      else writeInsideRepo(wt.root, a.path, a.after, { mkdir: true });
    } else if (a.kind === 'config') {
      setLocalConfig({ cwd: wt.root, env: wt.env }, a.key, a.after);
    } else if (a.kind === 'stubs') {
      writeOwnStubs(wt.root);
    } else if (a.kind === 'remove-stubs') {
      removeTreeInsideRepo(wt.root, join(wt.root, HOOKS_PATH));
    }
  }
  const husky = join(wt.root, '.husky');
  try {
    if (actions.some((a) => a.kind !== 'note') && checkInsideRepo(wt.root, husky).ok && readdirSync(husky).length === 0) rmdirSync(husky);
  } catch {
    // no .husky folder
  }
  return problems;
}

export function describeAction(a: Action, dry: boolean): string {
  const would = dry ? 'would ' : '';
  switch (a.kind) {
    case 'file':
      return a.after === null ? `${a.rel}: ${would}remove (it held only memlint's lines)` : `${a.rel}: ${would}${a.before === null ? 'create' : 'update'} (${a.what})`;
    case 'config':
      return a.after === null ? `git config ${a.key}: ${would}unset` : `git config ${a.key}: ${would}set (${a.what})`;
    case 'stubs':
      return `${HOOKS_PATH}: ${would}write ${a.what.replace(`${HOOKS_PATH} `, '')}`;
    case 'remove-stubs':
      return `${HOOKS_PATH}: ${would}remove (${a.what})`;
    case 'note':
      return `note: ${a.what}`;
  }
}

export function relPosix(root: string, p: string): string {
  return slashRelative(root, p) || '.';
}
