// Every file memlint changes is written atomically: a temporary file in the same folder, then a
// rename over the target, so an interrupted run leaves each file either old or new, never half.
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync, chmodSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number; mkdir?: boolean } = {}): void {
  const dir = dirname(path);
  if (opts.mkdir) mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.memlint-${process.pid}-${Date.now().toString(36)}-${counter++}.tmp`);
  let mode = opts.mode;
  if (mode === undefined) {
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      mode = undefined;
    }
  }
  const fd = openSync(tmp, 'wx', mode ?? 0o644);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  closeSync(fd);
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
}
