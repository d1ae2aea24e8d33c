// Whether a process that left its PID in a lock or a temporary file's name is still running.
import { readFileSync } from 'node:fs';

/**
 * Whether `pid` names a running process. A zombie (killed, not yet reaped by its parent: for a
 * moment after `kill -9` a shell may leave one) answers signal 0 as a live one does, yet holds
 * nothing: where /proc tells the state, a zombie is not running.
 */
export function isProcessRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // `pid (comm) state ...`: the command name may hold spaces and parentheses; the state follows
  // the last `)`.
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
}
