// A consolidation stopped by kill -9 after a given number of its file operations.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI } from '../helpers/repo.js';

/**
 * Starts `consolidate --force` in dir, waits until it pauses after `ops` operations (the
 * MEMLINT_TEST_PAUSE_* hooks), then kills it with SIGKILL. The child is pushed on `children`
 * so the test file's afterEach can reap it if the wait never ends. Returns the killed PID.
 */
export async function consolidateKilledAfter(dir: string, ops: number, env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<number> {
  const marker = `${dir}-paused`;
  const c = spawn(process.execPath, [CLI, 'consolidate', '--force'], { cwd: dir, env: { ...process.env, ...env, MEMLINT_TEST_PAUSE_AFTER_OPS: String(ops), MEMLINT_TEST_PAUSE_FILE: marker }, stdio: 'ignore' });
  children.push(c);
  await new Promise<void>((resolve) => {
    const poll = () => (existsSync(marker) ? resolve() : setTimeout(poll, 20));
    poll();
  });
  const closed = new Promise((resolve) => c.on('close', resolve));
  c.kill('SIGKILL');
  await closed;
  return c.pid!;
}
