// memlint run in this process: the program's main() (src/cli.ts) from `cwd`, its stdout and
// stderr collected, a failure reported as the launcher reports it (src/report-error.ts). The same
// program the CLI runs, without starting Node and loading the bundle for every case: for the lint
// fixtures, hundreds of runs. Tests in one file run one after another, so the working folder and
// the environment can be borrowed for the run and given back.
import { vi } from 'vitest';
import { main } from '../../src/cli.js';
import { reportError } from '../../src/report-error.js';
import type { CliResult } from './repo.js';

export async function memlintInProcess(cwd: string, args: string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  const home = process.cwd();
  const env = { NO_COLOR: '1', MEMLINT_DEBUG: '', ...opts.env };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const out = { stdout: '', stderr: '' };
  const collect = (key: 'stdout' | 'stderr') =>
    vi.spyOn(process[key], 'write').mockImplementation(((chunk: string | Uint8Array) => {
      out[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write);
  Object.assign(process.env, env);
  process.chdir(cwd);
  const spies = [collect('stdout'), collect('stderr')];
  let code: number;
  try {
    code = await main(args);
  } catch (err) {
    code = reportError(err);
  } finally {
    for (const s of spies) s.mockRestore();
    process.chdir(home);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { code, ...out };
}
