// Loaded into a real memlint process (`node --import <this file> dist/cli.js ...`) by
// test/helpers/killed.ts: it counts the process's write boundaries, the atomic writer's renames
// (src/fs/atomic.ts: temp file written, then renamed over the target) and file removals, and
// before the Nth one (MEMLINT_STOP_BEFORE_OP=N) writes MEMLINT_STOP_FILE and stops the process
// with SIGSTOP; the test then kills it with SIGKILL from outside. With MEMLINT_STOP_BEFORE_OP=each
// it waits before every one, the boundary's number in MEMLINT_STOP_FILE, until the test removes
// that file (a wait, not SIGSTOP: a process strace follows shows its own stop as strace's). The
// process's code is the shipped bundle, unchanged: nothing in src/ knows about this.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

const stopAt = process.env.MEMLINT_STOP_BEFORE_OP;
const marker = process.env.MEMLINT_STOP_FILE;
const repo = process.cwd() + sep;
let ops = 0;
// Only the repository's files count: memlint's own short-lived files in the OS temp folder do not.
const inRepo = (path) => resolve(String(path)).startsWith(repo);

function boundary() {
  ops++;
  if (marker && stopAt === 'each') {
    // Written whole before it appears: the test reads the number as soon as the file is there.
    fs.writeFileSync(`${marker}.part`, String(ops));
    renameSync(`${marker}.part`, marker);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (fs.existsSync(marker)) Atomics.wait(pause, 0, 0, 5);
  } else if (marker && ops === Number(stopAt)) {
    fs.writeFileSync(marker, String(process.pid));
    process.kill(process.pid, 'SIGSTOP');
  }
}

const { renameSync, unlinkSync } = fs;
fs.renameSync = function (from, to) {
  if (inRepo(to) && /\.memlint-\d+-[0-9a-z]+-\d+\.tmp$/.test(String(from))) boundary();
  return renameSync.call(this, from, to);
};
fs.unlinkSync = function (path) {
  if (inRepo(path) && !/\.tmp$/.test(String(path))) boundary();
  return unlinkSync.call(this, path);
};
syncBuiltinESMExports();
