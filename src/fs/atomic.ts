// Every file memlint changes is written atomically: a temporary file in the same folder, then a
// rename over the target, so an interrupted run leaves each file either old or new, never half.
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync, chmodSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isProcessRunning } from './process.js';

let counter = 0;

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number; mkdir?: boolean } = {}): void {
  const dir = dirname(path);
  if (opts.mkdir) mkdirSync(dir, { recursive: true });
  const tmp = tempNameOf(path);
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
  removeStaleTempsOf(path);
}

/**
 * Put `path` in place as a second name of the file `from` (a hard link, through a temporary name
 * and a rename, as writeFileAtomic does): a file moved unchanged needs none of its bytes written
 * or synced again, since they are on disk already. False, with nothing changed, where the file
 * system has no hard links here (another device, a file system without them): write the text then.
 */
export function linkFileAtomic(from: string, path: string, opts: { mkdir?: boolean } = {}): boolean {
  const dir = dirname(path);
  if (opts.mkdir) mkdirSync(dir, { recursive: true });
  const tmp = tempNameOf(path);
  try {
    linkSync(from, tmp);
  } catch (err) {
    if (NO_LINK.has((err as NodeJS.ErrnoException).code ?? '')) return false;
    throw err;
  }
  try {
    renameSync(tmp, path);
  } finally {
    // Gone after a rename, except where `path` was this very file already (a rerun after a kill
    // between the link and the original's removal): rename(2) then leaves both names as they are.
    try {
      unlinkSync(tmp);
    } catch {
      // renamed
    }
  }
  removeStaleTempsOf(path);
  return true;
}

/** Why link(2) may refuse a link that a copy would make. */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

function tempNameOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.memlint-${process.pid}-${Date.now().toString(36)}-${counter++}.tmp`);
}

/**
 * Every writer cleans its own leftovers: once `path` holds its new text, the temp files a killed
 * writer left for this same file (a dead PID's) hold nothing that is not in a file already, since
 * every text is written to the file receiving it before the file giving it up is rewritten.
 */
function removeStaleTempsOf(path: string): void {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.memlint-`;
  const names = tempNamesIn(dir);
  for (let k = names.length - 1; k >= 0; k--) {
    if (names[k]!.startsWith(prefix) && removeIfStale(join(dir, names[k]!), names[k]!)) names.splice(k, 1);
  }
}

// The temporary names each folder held when a run of writes first looked there: read once per
// synchronous run (the cache is dropped when it ends), not once per file written, which made
// writing every topic of a large folder quadratic (10,000 files: 10,000 reads of the folder).
const tempNamesOf = new Map<string, string[]>();

function tempNamesIn(dir: string): string[] {
  let names = tempNamesOf.get(dir);
  if (names) return names;
  try {
    names = readdirSync(dir).filter((name) => OWN_TEMP.test(name));
  } catch {
    names = [];
  }
  if (tempNamesOf.size === 0) queueMicrotask(() => tempNamesOf.clear());
  tempNamesOf.set(dir, names);
  return names;
}

function removeIfStale(p: string, name: string): boolean {
  const m = OWN_TEMP.exec(name);
  if (!m || Number(m[1]) === process.pid || isProcessRunning(Number(m[1]))) return false;
  try {
    if (!lstatSync(p).isFile()) return false;
    unlinkSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * writeFileAtomic's temporary names, `.<name>.memlint-<pid>-<time>-<n>.tmp`, and the shorter
 * `.<name>.memlint-<pid>.tmp` that `memlint resolve` wrote before it used writeFileAtomic.
 */
const OWN_TEMP = /^\..+\.memlint-(\d+)(?:-[0-9a-z]+-\d+)?\.tmp$/s;

/**
 * Remove the temporary files a killed memlint left under these folders (a `kill -9` between the
 * write and the rename): only memlint's own names, only regular files, only when the process that
 * wrote them is gone (a live PID may be a run in progress). Symlinked folders are not entered.
 */
export function removeStaleTempFiles(dirs: string[]): string[] {
  const removed: string[] = [];
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && removeIfStale(p, e.name)) removed.push(p);
    }
  };
  for (const d of dirs) visit(d);
  return removed;
}
