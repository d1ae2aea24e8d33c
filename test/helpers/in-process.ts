// memlint run in this process: the program's main() (src/cli.ts) handed a context of the test's own
// (src/io.ts: `cwd`, an environment, collectors for stdout and stderr), a failure reported as the
// launcher reports it (src/report-error.ts). The same program the CLI runs, without starting Node
// and loading the bundle for every case: for the lint fixtures, hundreds of runs. Nothing global
// is borrowed (no chdir, no change to process.env, no spy on the streams), so runs may overlap.
//
// What only the real binary shows stays with memlint() (test/helpers/repo.ts): the launcher's own
// paths (the merge driver, update-branch, `--staged` and `--pre-push` answered before the program
// loads), stdin, and everything git runs (hooks, the driver). (A finished consolidation's lock
// names this process's PID, which does not keep this process out: src/consolidate/lock.ts.) update-branch starts `process.argv[1]` as the driver (here vitest's
// worker), and merge writes its messages to fd 2 itself, past the collector: both run as the CLI.
import { main } from '../../src/cli.js';
import type { Io, Output } from '../../src/io.js';
import { reportError } from '../../src/report-error.js';
import type { Given } from '../../src/commands/given.js';
import type { CliResult } from './repo.js';

export interface InProcessOptions {
  /** Variables set for the run, on top of this process's environment (as memlint() does); undefined removes one. */
  env?: Record<string, string | undefined>;
  /** The whole environment of the run instead (a hermetic one: nothing inherited). */
  exactEnv?: NodeJS.ProcessEnv;
  /** What the launcher would have learnt first (src/commands/given.ts), such as git's pre-push stdin. */
  given?: Given;
}

/** The run's environment: exactEnv as it is, else this process's with memlint()'s defaults and `env` on top. */
function runEnv(opts: InProcessOptions): NodeJS.ProcessEnv {
  if (opts.exactEnv) return { ...opts.exactEnv };
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries({ NO_COLOR: '1', MEMLINT_DEBUG: '', ...opts.env })) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** An output that keeps what is written (not a terminal, never asks the writer to wait). */
function collector(): Output & { text(): string } {
  const parts: string[] = [];
  return {
    write(chunk: string | Uint8Array) {
      parts.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    },
    once() {
      return this;
    },
    isTTY: false,
    text: () => parts.join(''),
  };
}

/**
 * `run` in this process as the CLI would run it from `cwd`: handed the context (src/io.ts) it is
 * to use, its stdout and stderr collected. Its result is the exit code; a throw is reported as the
 * launcher reports one.
 */
export async function inProcess(cwd: string, opts: InProcessOptions, run: (io: Io) => Promise<number>): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const io: Io = { cwd, env: runEnv(opts), stdout, stderr };
  let code: number;
  try {
    code = await run(io);
  } catch (err) {
    code = reportError(err, io);
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export async function memlintInProcess(cwd: string, args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  return inProcess(cwd, opts, (io) => main(args, opts.given, io));
}
