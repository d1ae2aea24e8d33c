// Temporary git repositories and files for tests: real git, real files, no mocks.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { GitContext } from '../../src/git/repo.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli.js');

export function tempDir(prefix = 'memlint-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Where memlint's git layer asks git in a test: this folder, in the test process's environment. */
export function gitAt(cwd: string): GitContext {
  return { cwd, env: process.env };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** An empty repository as `git init` and the test identity make it (run once, by the global setup). */
export function makeRepoTemplate(dir = tempDir('memlint-template-')): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'core.autocrlf', 'false');
  git(dir, 'config', 'commit.gpgsign', 'false');
  return dir;
}

/**
 * A new repository on branch main with the test identity: the template's .git copied (the same
 * folder `git init` and four `git config` calls make, without spawning git five times). Made by
 * git itself where there is no template (a helper used outside vitest's run) or a .git already.
 */
export function initRepo(dir = tempDir()): string {
  const template = inject('repoTemplate');
  if (!template || existsSync(join(dir, '.git'))) return makeRepoTemplate(dir);
  cpSync(join(template, '.git'), join(dir, '.git'), { recursive: true });
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string> | Map<string, string>): void {
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  for (const [rel, content] of entries) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function memlint(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '', ...opts.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A new repository (initRepo) holding `files`, committed on main with `message`, as initRepo() and
 * commitFiles() make it. Made by git once per worker for each set of files and message, then
 * copied for every caller with its timestamps (the add and the commit are two git processes, the
 * same for every caller); no caller sees what another did to its copy.
 */
export function committedRepo(files: Record<string, string>, message = 'commit', dir = tempDir()): string {
  const key = JSON.stringify([message, files]);
  let made = committedMade.get(key);
  if (!made) {
    made = initRepo();
    commitFiles(made, files, message);
    committedMade.set(key, made);
  }
  cpSync(made, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return dir;
}

const committedMade = new Map<string, string>();

/** Write files into a repository and commit everything (`git add -A`). */
export function commitFiles(repo: string, files: Record<string, string>, message = 'commit'): void {
  writeFiles(repo, files);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', message);
}

export interface ImportedCommit {
  /** The branch it goes on. */
  branch: string;
  message: string;
  /** Files written over its parent's tree (path -> text). */
  files: Record<string, string>;
  /** Files of its parent's tree it deletes (as `git rm` would). */
  deletes?: string[];
  /** Its parent: an earlier commit of the list by position, or a commit of the repository (`main`); else its branch's last in the list. */
  from?: number | string;
}

/**
 * A history made by one `git fast-import` instead of an add and a commit for each commit and a
 * checkout between branches, then HEAD's branch in the index and working tree (`git reset
 * --hard`): two git processes for any number of commits, all committed now.
 */
export function importCommits(repo: string, commits: ImportedCommit[], committer = 'Test <test@example.com>'): void {
  const parts: Buffer[] = [];
  const now = Math.floor(Date.now() / 1000);
  const data = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  };
  // fast-import reads a path to the end of its line: one holding a line break (or a quote or a
  // backslash, which quoting must escape) goes C-quoted.
  const path = (p: string) => (/[\n\r"\\]/.test(p) ? `"${p.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"` : p);
  commits.forEach((c, i) => {
    parts.push(Buffer.from(`commit refs/heads/${c.branch}\nmark :${i + 1}\ncommitter ${committer} ${now} +0000\n`));
    data(c.message);
    if (c.from !== undefined) parts.push(Buffer.from(`from ${typeof c.from === 'number' ? `:${c.from + 1}` : `${c.from}^0`}\n`));
    for (const file of c.deletes ?? []) parts.push(Buffer.from(`D ${path(file)}\n`));
    for (const [file, text] of Object.entries(c.files)) {
      parts.push(Buffer.from(`M 100644 inline ${path(file)}\n`));
      data(text);
    }
  });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: Buffer.concat(parts), stdio: ['pipe', 'pipe', 'pipe'] });
  git(repo, 'reset', '-q', '--hard');
}

/** Every file of the working tree but .git, by relative path. */
export function treeSnapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out.set(p, readFileSync(join(dir, p), 'utf8'));
    }
  };
  walk('');
  return out;
}
