// The one place that talks to git: the git CLI, batched (one call per kind of fact per run).
// Every function takes the directory it works in explicitly, so tests can point it anywhere.
import { spawnSync } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface GitOptions {
  /** Directory git runs in. */
  cwd: string;
  input?: string | Buffer;
  /** Return stdout as a Buffer (binary-safe) instead of a string. */
  binary?: boolean;
  /** Accept these exit codes as success (default [0]). */
  okCodes?: number[];
  env?: NodeJS.ProcessEnv;
}

export function gitRaw(args: string[], opts: GitOptions): { stdout: Buffer; code: number } {
  const r = spawnSync('git', args, {
    cwd: opts.cwd,
    input: opts.input,
    maxBuffer: 1 << 30,
    env: opts.env ?? process.env,
  });
  if (r.error) throw new GitError(`git could not start: ${r.error.message}`, null, '');
  const code = r.status ?? 128;
  if (!(opts.okCodes ?? [0]).includes(code)) {
    const stderr = r.stderr.toString('utf8').trim();
    throw new GitError(`git ${args[0]} failed: ${stderr.split('\n')[0] ?? ''}`, code, stderr);
  }
  return { stdout: r.stdout, code };
}

export function git(args: string[], opts: GitOptions): string {
  return gitRaw(args, opts).stdout.toString('utf8');
}

/** The top of the working tree containing dir, or null outside a repository. */
export function repoRoot(dir: string): string | null {
  const r = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return r.stdout.trim() || null;
}

export interface RepoInfo {
  root: string;
  gitDir: string;
  commonDir: string;
  isLinkedWorktree: boolean;
}

export function repoInfo(dir: string): RepoInfo | null {
  const r = spawnSync('git', ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (r.error || r.status !== 0) return null;
  const [root, gitDir, commonDir] = r.stdout.trim().split('\n');
  if (!root || !gitDir || !commonDir) return null;
  return { root, gitDir, commonDir, isLinkedWorktree: gitDir !== commonDir };
}

function splitZ(s: string): string[] {
  return s.split('\0').filter((x) => x !== '');
}

/** Tracked files plus untracked files that are not ignored, relative to root. */
export function listFiles(root: string, opts: { untracked?: boolean; pathspec?: string[] } = {}): string[] {
  const args = ['ls-files', '-z', '--cached'];
  if (opts.untracked !== false) args.push('--others', '--exclude-standard');
  if (opts.pathspec?.length) args.push('--', ...opts.pathspec);
  const files = splitZ(git(args, { cwd: root }));
  return [...new Set(files)];
}

/** Tracked files only (the index), relative to root. */
export function trackedFiles(root: string): string[] {
  return splitZ(git(['ls-files', '-z', '--cached'], { cwd: root }));
}

export interface StagedChange {
  status: string;
  path: string;
}

/** Paths changed in the index against HEAD (or the empty tree before the first commit). */
export function stagedChanges(root: string): StagedChange[] {
  const out = git(['diff', '--cached', '--name-status', '-z', '--no-renames', '--diff-filter=ACMRDT'], { cwd: root });
  const parts = splitZ(out);
  const changes: StagedChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i]!, path: parts[i + 1]! });
  return changes;
}

/**
 * Read many objects in one `git cat-file --batch` call. Specs are object names such as
 * ":path" (the staged blob) or "HEAD:path". Missing objects come back as null.
 */
export function readBlobs(root: string, specs: string[]): Map<string, Buffer | null> {
  const result = new Map<string, Buffer | null>();
  if (specs.length === 0) return result;
  const { stdout } = gitRaw(['cat-file', '--batch'], { cwd: root, input: specs.join('\n') + '\n' });
  let pos = 0;
  for (const spec of specs) {
    const nl = stdout.indexOf(10, pos);
    if (nl < 0) {
      result.set(spec, null);
      continue;
    }
    const header = stdout.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(spec, null);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    result.set(spec, stdout.subarray(pos, pos + size));
    pos += size + 1;
  }
  return result;
}

/** Whether each path is ignored by git (one call). */
export function ignoredPaths(root: string, paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const { stdout } = gitRaw(['check-ignore', '-z', '--stdin'], { cwd: root, input: paths.join('\0') + '\0', okCodes: [0, 1] });
  return new Set(splitZ(stdout.toString('utf8')));
}

/** Unix time (seconds) of the last commit touching each path (one `git log` call). */
export function lastCommitTimes(root: string, paths: string[]): Map<string, number> {
  const times = new Map<string, number>();
  if (paths.length === 0) return times;
  const wanted = new Set(paths);
  const out = git(['log', '--format=%x00%ct', '--name-only', '-z', '--no-renames', '--', ...paths], { cwd: root });
  let current = 0;
  for (const tok of out.split('\0')) {
    const t = tok.replace(/^\n+/, '');
    if (t === '') continue;
    if (/^\d+$/.test(t) && !wanted.has(t)) {
      current = Number(t);
      continue;
    }
    for (const p of t.split('\n')) {
      if (p && wanted.has(p) && !times.has(p)) times.set(p, current);
    }
  }
  return times;
}

export function headCommit(root: string): string | null {
  const r = spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
