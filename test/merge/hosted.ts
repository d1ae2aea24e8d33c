// A hosted setup for update-branch, diff and the Action: a bare "origin", an author's clone that
// makes main and a pull request branch (`feature`), and fresh clones like a CI runner's. Real git.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { git, importCommits, tempDir } from '../helpers/repo.js';
import { packMemlint } from '../install/helpers.js';

export const MEM = '.claude/memory';
export const INDEX = `${MEM}/MEMORY.md`;
export const entry = (k: string, hook = `about ${k}`) => `- [${k}](${k}.md) — ${hook}\n`;
export const HEADER = '# Memory\n\n';
export const topicFile = (name: string, description = `${name} in one line`, type = 'project') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\nBody of ${name}.\n`;

export interface Hosted {
  dir: string;
  origin: string;
  /** The author's clone: it made main and feature. */
  author: string;
}

/** `git clone` setting the clone's identity and line endings in its config (`-c`: one git call, not five). */
function cloneAs(origin: string, clone: string, who: string): void {
  const config = { 'user.name': who, 'user.email': `${who}@example.com`, 'commit.gpgsign': 'false', 'core.autocrlf': 'false' };
  execFileSync('git', ['clone', '-q', ...Object.entries(config).flatMap(([k, v]) => ['-c', `${k}=${v}`]), origin, clone], { stdio: 'pipe' });
}

/** A clone of origin as a runner makes it: `git clone`, nothing else (no memlint config). */
export function cloneOf(h: Hosted, name: string, branch?: string): string {
  const clone = join(h.dir, name);
  cloneAs(h.origin, clone, name);
  if (branch) git(clone, 'checkout', '-q', branch);
  return clone;
}

type HostedOptions = { onMain: Record<string, string>; onFeature: Record<string, string>; base?: Record<string, string>; attributes?: boolean };

/** The setups a test file has made, by their options: each made by git once, copied after. */
const made = new Map<string, Hosted>();

/**
 * origin with main (an index of two entries and their topics, plus `base` files) and `feature`
 * branched from it; then `feature` gets `onFeature` and main gets `onMain`, both pushed. Made by
 * git the first time these options are asked for (about ten git processes), a copy of that after
 * (the folder copied, origin's path in the author's config rewritten to the copy's).
 */
export function hostedRepo(opts: HostedOptions): Hosted {
  const key = JSON.stringify(opts);
  const first = made.get(key);
  if (first) {
    const dir = tempDir('memlint-hosted-');
    cpSync(first.dir, dir, { recursive: true, verbatimSymlinks: true });
    const h = { dir, origin: join(dir, 'origin.git'), author: join(dir, 'author') };
    const config = join(h.author, '.git', 'config');
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll(first.origin, h.origin));
    return h;
  }
  const h = makeHosted(opts);
  made.set(key, h);
  // The first copy is made now, before any test changes the setup it was made in.
  return hostedRepo(opts);
}

function makeHosted(opts: HostedOptions): Hosted {
  const dir = tempDir('memlint-hosted-');
  const origin = join(dir, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { stdio: 'pipe' });
  const h = { dir, origin, author: join(dir, 'author') };
  cloneAs(origin, h.author, 'author');
  // The three commits by one git fast-import (and a reset to main), not a checkout each way and an
  // add and a commit per commit.
  importCommits(
    h.author,
    [
      {
        branch: 'main',
        message: 'base',
        files: {
          ...(opts.attributes === false ? {} : { '.gitattributes': `${MEM}/**/*.md merge=memlint\n` }),
          '.gitignore': 'node_modules/\n',
          'package.json': '{ "name": "team-app", "private": true }\n',
          [INDEX]: HEADER + entry('user_role') + entry('project_deploys'),
          [`${MEM}/user_role.md`]: topicFile('user_role', 'The user is a backend engineer', 'user'),
          [`${MEM}/project_deploys.md`]: topicFile('project_deploys', 'Deploys go out on Tuesdays'),
          'src/app.ts': 'export const answer = 42;\n',
          ...opts.base,
        },
      },
      { branch: 'feature', message: 'feature: its change', from: 0, files: opts.onFeature },
      { branch: 'main', message: 'main: moved on', files: opts.onMain },
    ],
    'author <author@example.com>',
  );
  // Both branches in one push (each push is five git processes): origin ends as three pushes left
  // it. main already tracks origin/main (the clone of the empty origin set that), so -u only adds
  // feature's upstream.
  git(h.author, 'push', '-q', '-u', 'origin', 'main', 'feature');
  return h;
}

/**
 * Everything a run could change: refs, HEAD, index entries, status, a merge in progress, and every
 * working-tree file's bytes. `git status --porcelain=v2 --branch` names HEAD's branch and commit
 * and every index entry that differs from HEAD's tree (its stages, modes and objects), so it
 * holds what `git symbolic-ref HEAD`, `git rev-parse HEAD` and `git ls-files -s` print, in one
 * process instead of four; the merge state is MERGE_HEAD and MERGE_MSG where git keeps them.
 */
export function snapshot(repo: string): string {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(repo, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.git' || p === 'node_modules') continue;
      if (e.isDirectory()) walk(p);
      else files.push(`${p} ${createHash('sha1').update(readFileSync(join(repo, p))).digest('hex')}`);
    }
  };
  walk('');
  const merging = ['MERGE_HEAD', 'MERGE_MSG'];
  const paths = git(repo, 'rev-parse', ...merging.flatMap((n) => ['--git-path', n])).trim().split('\n');
  const inProgress = merging.map((n, i) => (existsSync(resolve(repo, paths[i]!)) ? n : '')).join(' ');
  return [
    git(repo, 'status', '--porcelain=v2', '--branch', '--untracked-files=all'),
    git(repo, 'for-each-ref', '--format=%(refname) %(objectname)'),
    inProgress,
    files.sort().join('\n'),
  ].join('\n--\n');
}

/** The built package as `npm pack` makes it, installed into a clone (offline: it has no dependencies). */
export function installPackage(clone: string, tarball: string): string {
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', tarball], { cwd: clone, stdio: 'pipe' });
  return join(clone, 'node_modules', '.bin', 'memlint');
}

/**
 * The built package as npm publishes it (packMemlint): packed once per test run, into the global
 * setup's folder, by the first test file that asks; another file asking meanwhile waits for that
 * tarball.
 */
export function packPackage(): string {
  const dir = join(inject('runScratch'), 'npm-pack');
  const done = join(dir, 'tarball');
  const failed = join(dir, 'failed');
  try {
    mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const until = Date.now() + 900_000;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`npm pack failed in another test file: ${readFileSync(failed, 'utf8')}`);
      if (Date.now() > until) throw new Error('npm pack in another test file did not finish in 900 s');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
    return readFileSync(done, 'utf8');
  }
  try {
    const tarball = packMemlint(dir);
    writeFileSync(`${done}.tmp`, tarball);
    renameSync(`${done}.tmp`, done);
    return tarball;
  } catch (err) {
    writeFileSync(failed, String((err as Error).message));
    throw err;
  }
}
