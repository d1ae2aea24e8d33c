// A project as npm would leave it: package.json, node_modules/.bin/memlint pointing at the built
// CLI, and (optionally) husky installed.
import { appendFileSync, copyFileSync, cpSync, mkdirSync, symlinkSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { dirname, join } from 'node:path';
import { CLI, ROOT, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { memlintInProcess } from '../helpers/in-process.js';

export function npmInstall(dir: string, opts: { husky?: boolean } = {}): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', '.bin', 'memlint'))) symlinkSync(CLI, join(dir, 'node_modules', '.bin', 'memlint'));
  if (opts.husky !== false && !existsSync(join(dir, 'node_modules', 'husky'))) {
    symlinkSync(join(ROOT, 'node_modules', 'husky'), join(dir, 'node_modules', 'husky'));
    symlinkSync(join(ROOT, 'node_modules', 'husky', 'bin.js'), join(dir, 'node_modules', '.bin', 'husky'));
  }
}

export const topic = (name: string, type: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n\n${body}`;

/**
 * A project as npm would leave one before memlint is installed: package.json, .gitignore, a memdir
 * of an index and one topic, node_modules/.bin/memlint (and husky unless `husky: false`), all
 * committed. Made once per worker for each `opts` and copied for every caller (timestamps and
 * symlinks kept), as installedProject() is: the add and the commit are two git processes, the same
 * for every caller, and no caller sees what another did to its copy.
 */
export function project(opts: { husky?: boolean; pkg?: Record<string, unknown> } = {}): string {
  const key = JSON.stringify(opts);
  let made = projectsMade.get(key);
  if (!made) projectsMade.set(key, (made = makeProject(opts)));
  const dir = tempDir();
  cpSync(made, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return dir;
}

const projectsMade = new Map<string, string>();

function makeProject(opts: { husky?: boolean; pkg?: Record<string, unknown> }): string {
  const dir = initRepo();
  writeFiles(dir, {
    'package.json': JSON.stringify(opts.pkg ?? { name: 'app', private: true, devDependencies: { husky: '9.1.7', memlint: '0.1.0' } }, null, 2) + '\n',
    '.gitignore': 'node_modules\n',
    '.claude/memory/MEMORY.md': '# Memory\n\n## User\n\n- [Role](user_role.md) — Backend lead on payments\n',
    '.claude/memory/user_role.md': topic('Role', 'user', 'Backend lead on payments', 'Reads diffs before descriptions.\n'),
  });
  npmInstall(dir, opts);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

/** Tracked-or-not files of the worktree (node_modules and .git aside) with their text. */
export function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git' || e.name === 'node_modules') continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p, readFileSync(join(dir, p), 'utf8'));
    }
  };
  walk('');
  return out;
}

export function localConfig(dir: string): string {
  return git(dir, 'config', '--local', '--list');
}

/**
 * Make the index's stat data settled: every tracked file's mtime a minute in the past, and the
 * index rewritten after it. A fresh test repository otherwise has racily clean entries (file and
 * index written in the same instant), for which git compares content and hides stale stat data.
 */
export function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  for (const f of git(dir, 'ls-files', '-z').split('\0').filter(Boolean)) {
    try {
      utimesSync(join(dir, f), past, past);
    } catch {
      // a tracked file deleted in the worktree
    }
  }
  git(dir, 'update-index', '-q', '--refresh');
}

/** Run git as a user would (hooks and all), never throwing: its exit code and all it printed. */
export function run(cwd: string, args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/**
 * A project with memlint installed (install in this process: the hooks it writes are what git
 * runs) and committed through those hooks, as `project()`, `install` and `git commit -m "memlint
 * install"` leave it. Made once per worker and copied for every caller (timestamps and symlinks
 * kept): install alone is some twenty git processes, and the commit starts memlint through the
 * hooks; no caller sees what another did to its copy.
 */
export async function installedProject(): Promise<string> {
  installedOnce ??= (async () => {
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    git(dir, 'add', '-A');
    const commit = run(dir, ['commit', '-q', '-m', 'memlint install']);
    expect(commit.code, commit.out).toBe(0);
    return dir;
  })();
  const made = await installedOnce;
  const dir = tempDir();
  cpSync(made, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return dir;
}

let installedOnce: Promise<string> | undefined;

/**
 * An installedProject() pushed to a bare remote of its own through its hooks (`env` for the push).
 *
 * Made once per worker for each `env` and copied for every caller (the project and its remote,
 * the copy's origin pointed at the copied remote): the set-up is some thirty git processes and
 * Node starts through the hooks, about 3 s on a busy machine, the same for every caller, and no
 * caller sees what another did to its copy.
 */
export async function installedWithRemote(env: Record<string, string> = {}): Promise<{ repo: string; remote: string }> {
  const key = JSON.stringify(env);
  let made = installedMade.get(key);
  if (!made) {
    made = makeInstalledWithRemote(env);
    installedMade.set(key, made);
  }
  const { repo: madeRepo, remote: madeRemote } = await made;
  const repo = tempDir();
  const remote = join(tempDir('memlint-remote-'), 'remote.git');
  cpSync(madeRepo, repo, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  cpSync(madeRemote, remote, { recursive: true, preserveTimestamps: true });
  const config = join(repo, '.git', 'config');
  const text = readFileSync(config, 'utf8');
  const url = `\turl = ${madeRemote}\n`;
  if (!text.includes(url)) throw new Error(`installedWithRemote: no origin ${madeRemote} in ${config}`);
  writeFileSync(config, text.replace(url, `\turl = ${remote}\n`));
  return { repo, remote };
}

const installedMade = new Map<string, Promise<{ repo: string; remote: string }>>();

async function makeInstalledWithRemote(env: Record<string, string>): Promise<{ repo: string; remote: string }> {
  const repo = await installedProject();
  const remote = join(tempDir('memlint-remote-'), 'remote.git');
  git(repo, 'init', '-q', '--bare', '-b', 'main', remote);
  git(repo, 'remote', 'add', 'origin', remote);
  expect(run(repo, ['push', '-q', '-u', 'origin', 'main'], env).code).toBe(0);
  return { repo, remote };
}

export function append(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  appendFileSync(join(dir, rel), text);
}

/** Push through the hooks: it never fails for consolidation; whether it sends a consolidation (the post-commit hook's). */
export function pushThroughHooks(dir: string, args: string[]): { consolidated: boolean; first: string } {
  const sending = git(dir, 'log', '--format=%s', 'HEAD', '--not', '--remotes');
  const first = run(dir, ['push', '-q', ...args]);
  expect(first.code, first.out).toBe(0);
  // At most the one line saying the memory is still due; never "nothing was pushed".
  expect(first.out).not.toContain('nothing was pushed');
  expect(first.out.split('\n').filter((l) => l !== '').length).toBeLessThanOrEqual(1);
  return { consolidated: /^memory: consolidate$/m.test(sending), first: first.out };
}

/** A commit's output less the post-commit hook's line when it consolidated after it. */
export function withoutConsolidation(out: string): string {
  return out.replace(/^memlint: the memory was due, so memlint committed "memory: consolidate" [0-9a-f]{7} \(\.claude\/memory\) after your commit\n/m, '');
}

export function sh(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** A fresh clone of this repository as it is now (tracked and new files), with npm ci's node_modules. */
export function contributorClone(): string {
  const dir = initRepo();
  const listed = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);
  for (const rel of listed) {
    if (!existsSync(join(ROOT, rel))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    copyFileSync(join(ROOT, rel), join(dir, rel));
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'clone');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}


/**
 * memlint packed as npm publishes it, without building it again: the files package.json ships
 * ("files", README, LICENSE; dist/ as the global setup built it from these sources) beside the
 * manifest prepack leaves (scripts/pack-manifest.mjs strips the scripts and devDependencies), then `npm pack`. That npm
 * ci and npm pack build and strip it themselves is test/install/package.test.ts's to show.
 */
export function packMemlint(out: string = tempDir()): string {
  const stage = tempDir('memlint-package-');
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  for (const rel of ['package.json', 'README.md', 'LICENSE', ...manifest.files]) cpSync(join(ROOT, rel), join(stage, rel), { recursive: true });
  const strip = sh(stage, process.execPath, [join(ROOT, 'scripts', 'pack-manifest.mjs'), 'strip']);
  if (strip.code !== 0) throw new Error(`pack-manifest strip failed: ${strip.out}`);
  const pack = sh(stage, 'npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out]);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.out}`);
  return join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
}
