// A real memlint process killed with SIGKILL at a write boundary: test/helpers/stop-at-write.mjs,
// loaded into the process, stops it (SIGSTOP) right before its Nth rename of an atomic write or
// file removal, and this kills it from outside. The shipped bundle runs unchanged.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI } from './repo.js';

const PRELOAD = fileURLToPath(new URL('./stop-at-write.mjs', import.meta.url));
let runs = 0;

export interface Killed {
  /** The PID killed, or null when the run ended before its Nth write boundary. */
  pid: number | null;
  /** The exit code when the run ended by itself. */
  code: number | null;
}

/**
 * Runs `memlint ARGS` in dir and kills it with SIGKILL right before its `op`th write boundary
 * (1-based: the file it was about to rename into place or remove is untouched, its temp file
 * written). The child is pushed on `children` so the test file's afterEach can reap it.
 */
export async function memlintKilledBefore(dir: string, args: string[], op: number, env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<Killed> {
  const marker = `${dir}-stopped-${process.pid}-${runs++}`;
  const c = spawn(process.execPath, ['--import', PRELOAD, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '', ...env, MEMLINT_STOP_BEFORE_OP: String(op), MEMLINT_STOP_FILE: marker },
    stdio: 'ignore',
  });
  children.push(c);
  const closed = new Promise<number | null>((resolve) => c.on('close', (code) => resolve(code)));
  let ended = false;
  void closed.then(() => (ended = true));
  await new Promise<void>((resolve) => {
    const poll = () => (existsSync(marker) || ended ? resolve() : setTimeout(poll, 10));
    poll();
  });
  if (ended && !existsSync(marker)) return { pid: null, code: await closed };
  c.kill('SIGKILL');
  await closed;
  rmSync(marker, { force: true });
  return { pid: c.pid!, code: null };
}

/**
 * Runs `memlint ARGS` in dir, held right before each of its write boundaries in turn (it waits
 * there, writing nothing, until told to go on): at each, `atStop(op)` sees the files as SIGKILL
 * there would leave them (what is on disk is all a killed process leaves), then the run goes on.
 * One process for every boundary instead of one killed process per boundary. A copy `atStop`
 * makes holds the PID of a live process in its lock and temp files' names: look at it only once
 * this resolves, when that process has ended, as after a kill. Resolves with the number of
 * boundaries and the run's exit code.
 */
export async function memlintHeldAtEachWrite(dir: string, args: string[], env: NodeJS.ProcessEnv, children: ChildProcess[], atStop: (op: number) => void): Promise<{ boundaries: number; code: number | null }> {
  const marker = `${dir}-stopped-${process.pid}-${runs++}`;
  const c = spawn(process.execPath, ['--import', PRELOAD, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '', ...env, MEMLINT_STOP_BEFORE_OP: 'each', MEMLINT_STOP_FILE: marker },
    stdio: 'ignore',
  });
  children.push(c);
  let boundaries = 0;
  const code = await new Promise<number | null>((resolve, reject) => {
    let ended = false;
    c.on('close', (exit) => {
      ended = true;
      resolve(exit);
    });
    const poll = () => {
      if (ended) return;
      // The process waits while the marker is there, and goes on once it is removed.
      if (existsSync(marker)) {
        const op = Number(readFileSync(marker, 'utf8'));
        if (op !== boundaries + 1) return reject(new Error(`write boundary ${op} after ${boundaries}`));
        boundaries = op;
        try {
          atStop(op);
        } catch (err) {
          return reject(err as Error);
        }
        rmSync(marker);
      }
      setTimeout(poll, 5);
    };
    poll();
  });
  return { boundaries, code };
}
