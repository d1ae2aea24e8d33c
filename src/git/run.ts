// The two ways memlint runs git: gitSync, and gitAsync for calls that overlap with each other or
// with the program loading. Every git command memlint runs goes through one of them, from a named
// function in src/git that builds its arguments and parses its output. This module loads nothing
// but node:child_process and has no side effect, so the launcher (dist/cli.js) requires it on its
// first git call only: the paths that never run git (the merge driver) do not load it.
import { spawn, spawnSync } from 'node:child_process';

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
  /** The folder git runs in. */
  cwd: string;
  /** The whole environment git runs in: the command's, handed down; never read from the process here. */
  env: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Variables set for this command on top of `env` (LC_ALL=C where memlint reads git's messages). */
  set?: NodeJS.ProcessEnv;
  /** Exit codes that are answers, not failures (default [0]); 'any' for all. */
  okCodes?: number[] | 'any';
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** The result, or a GitError when git could not start or exited with a code that is not an answer. */
function checked(args: string[], opts: GitOptions, r: GitResult | { error: Error }): GitResult {
  if ('error' in r) throw new GitError(`git could not start: ${r.error.message}`, null, '');
  const ok = opts.okCodes ?? [0];
  if (ok !== 'any' && !ok.includes(r.code)) {
    const first = r.stderr.trim();
    throw new GitError(`git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? args[0]} failed: ${first.split('\n')[0] ?? ''}`, r.code, first);
  }
  return r;
}

// No git command memlint runs may run code that comes with a repository (contract §9, §14):
// core.hooksPath can name a committed folder, and hooks run on far more than commit and push
// (post-index-change on any index write: add, status's refresh, merge --abort; reference-transaction
// on any ref update), so every command runs with hooks off, and without the fsmonitor hook. `git
// config` alone runs as asked: install and doctor read and write the real core.hooksPath, and it
// runs no hook. Textconv and external diff drivers are turned off by the commands that would run
// them (--no-textconv, --no-ext-diff where they are built).
const NO_REPOSITORY_CODE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

/** The git subcommand of an argument list (after `-c key=value` pairs and global options). */
function subcommand(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '-C') i++;
    else if (!args[i]!.startsWith('-')) return args[i];
  }
  return undefined;
}

/** args with hooks and the fsmonitor off, `git config` aside. */
export function withoutRepositoryCode(args: string[]): string[] {
  return subcommand(args) === 'config' ? args : [...NO_REPOSITORY_CODE, ...args];
}

// memlint writes its pathspecs with the magic they need (`:(top,glob)`, `:(literal)`); a user's
// GIT_GLOB_PATHSPECS, GIT_NOGLOB_PATHSPECS or GIT_LITERAL_PATHSPECS would change what they mean,
// or make git refuse the magic ("pathspec magic not supported").
const DEFAULT_PATHSPECS = { GIT_GLOB_PATHSPECS: '0', GIT_NOGLOB_PATHSPECS: '0', GIT_LITERAL_PATHSPECS: '0' };

/** The environment git runs in: the one given, pathspecs read as written, with `set` on top. */
function envOf(opts: GitOptions): NodeJS.ProcessEnv {
  const env = opts.env;
  const plain = env.GIT_GLOB_PATHSPECS === undefined && env.GIT_NOGLOB_PATHSPECS === undefined && env.GIT_LITERAL_PATHSPECS === undefined;
  if (plain) return opts.set ? { ...env, ...opts.set } : env;
  return { ...env, ...DEFAULT_PATHSPECS, ...opts.set };
}

/** Run git and wait for it. */
export function gitSync(args: string[], opts: GitOptions): GitResult {
  const r = spawnSync('git', withoutRepositoryCode(args), { cwd: opts.cwd, input: opts.input, env: envOf(opts), maxBuffer: 1 << 30 });
  if (r.error) return checked(args, opts, { error: r.error });
  return checked(args, opts, { code: r.status ?? 128, stdout: r.stdout, stderr: r.stderr.toString('utf8') });
}

/** gitSync's stdout as text. */
export function git(args: string[], opts: GitOptions): string {
  return gitSync(args, opts).stdout.toString('utf8');
}

/** Run git without blocking: several can run at once, and beside the program loading. */
export function gitAsync(args: string[], opts: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const settle = (r: GitResult | { error: Error }) => {
      try {
        resolve(checked(args, opts, r));
      } catch (err) {
        reject(err);
      }
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('git', withoutRepositoryCode(args), { cwd: opts.cwd, env: envOf(opts), stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    } catch (err) {
      settle({ error: err as Error });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error) => settle({ error }));
    child.on('close', (code) => settle({ code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => {}); // git exiting early fails the run through its exit code
      child.stdin!.end(opts.input);
    }
  });
}

/**
 * Paths in groups small enough for one command line each, for the commands that take paths only
 * as arguments (`ls-files`, `ls-tree`, `add`): Linux gives a command's arguments and environment
 * 2 MB together, and thousands of paths passed it (git never ran). 128 KiB of paths a group.
 */
export function argumentGroups(paths: string[], budget = 128 * 1024): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let size = 0;
  for (const p of paths) {
    const bytes = Buffer.byteLength(p) + 1;
    if (group.length > 0 && size + bytes > budget) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(p);
    size += bytes;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** What `answer` returns, or null when git failed: for questions whose failure is itself the answer. */
export function orNull<T>(answer: () => T): T | null {
  try {
    return answer();
  } catch (err) {
    if (err instanceof GitError) return null;
    throw err;
  }
}
