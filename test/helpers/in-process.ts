// memlint run in this process: the program's main() (src/cli.ts) from `cwd`, its stdout and
// stderr collected, a failure reported as the launcher reports it (src/report-error.ts). The same
// program the CLI runs, without starting Node and loading the bundle for every case: for the lint
// fixtures, hundreds of runs. Tests in one file run one after another, so the working folder and
// the environment can be borrowed for the run and given back.
//
// What only the real binary shows stays with memlint() (test/helpers/repo.ts): the launcher's own
// paths (the merge driver, update-branch, `--staged` and `--pre-push` answered before the program
// loads), stdin, a stack trace under MEMLINT_DEBUG=1, and everything git runs (hooks, the driver).
// So does what a process does once: a memlint.config.mjs is named once per process. (A finished
// consolidation's lock names this process's PID, which does not keep this process out:
// src/consolidate/lock.ts.) update-branch starts `process.argv[1]` as the driver (here vitest's
// worker), and merge writes its messages to fd 2 itself, past the collector: both run as the CLI.
import { vi } from 'vitest';
import { main } from '../../src/cli.js';
import { reportError } from '../../src/report-error.js';
import type { Given } from '../../src/commands/given.js';
import type { CliResult } from './repo.js';

export interface InProcessOptions {
  /** Variables set for the run, on top of this process's environment (as memlint() does). */
  env?: Record<string, string | undefined>;
  /** The whole environment of the run instead (a hermetic one: nothing inherited). */
  exactEnv?: NodeJS.ProcessEnv;
  /** What the launcher would have learnt first (src/commands/given.ts), such as git's pre-push stdin. */
  given?: Given;
}

function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/**
 * `run` in this process as the CLI would run it from `cwd`: the working folder and the environment
 * borrowed for the run and given back, stdout and stderr collected. Its result is the exit code.
 */
export async function inProcess(cwd: string, opts: InProcessOptions, run: () => Promise<number>): Promise<CliResult> {
  const home = process.cwd();
  const before = { ...process.env };
  const out = { stdout: '', stderr: '' };
  const collect = (key: 'stdout' | 'stderr') =>
    vi.spyOn(process[key], 'write').mockImplementation(((chunk: string | Uint8Array) => {
      out[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write);
  if (opts.exactEnv) {
    for (const k of Object.keys(process.env)) delete process.env[k];
    setEnv(opts.exactEnv);
  } else {
    setEnv({ NO_COLOR: '1', MEMLINT_DEBUG: '', ...opts.env });
  }
  process.chdir(cwd);
  const spies = [collect('stdout'), collect('stderr')];
  let code: number;
  try {
    code = await run();
  } catch (err) {
    code = reportError(err);
  } finally {
    for (const s of spies) s.mockRestore();
    process.chdir(home);
    for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    setEnv(before);
  }
  return { code, ...out };
}

export async function memlintInProcess(cwd: string, args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  return inProcess(cwd, opts, () => main(args, opts.given));
}
