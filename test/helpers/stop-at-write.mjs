// Loaded into a real memlint process (`node --import <this file> dist/cli.js ...`) by
// test/helpers/killed.ts: it counts the process's write boundaries, the atomic writer's renames
// (src/fs/atomic.ts: temp file written, then renamed over the target) and file removals, and
// before the Nth one (MEMLINT_STOP_BEFORE_OP=N) writes MEMLINT_STOP_FILE and stops the process
// with SIGSTOP; the test then kills it with SIGKILL from outside. With MEMLINT_STOP_BEFORE_OP=each
// it stops before every one, writing the boundary's number, and the test lets it go on
// (SIGCONT). The process's code is the shipped bundle, unchanged: nothing in src/ knows about this.
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
  if (marker && (stopAt === 'each' || ops === Number(stopAt))) {
    fs.writeFileSync(marker, stopAt === 'each' ? String(ops) : String(process.pid));
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
