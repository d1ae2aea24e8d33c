// Small path facts shared by the commands: where a path really is, and whether it lies in a folder.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// The system's realpath(3) is one call where Node's own walks the path a component at a time: the
// language server asks for every file of the memdir on each change. On Windows Node's own is kept
// (the system call there may name a substituted drive differently).
const realpath = process.platform === 'win32' ? realpathSync : realpathSync.native;

/** The real path of p (symlinks resolved), or p made absolute when it does not exist. */
export function realOrResolved(p: string): string {
  try {
    return realpath(p);
  } catch {
    return resolve(p);
  }
}

/**
 * Where p is or would be, symlinks resolved: its real path, or, when it does not exist yet, the
 * real path of its nearest existing folder with the rest of p joined on (a folder still to be
 * created under /tmp compares with one under /private/tmp).
 */
export function realOrNearestReal(p: string): string {
  try {
    return realpath(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realOrNearestReal(parent), basename(p));
  }
}

/** Whether child is parent or lies below it (a folder named `..x` inside parent is inside). */
export function isWithin(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/**
 * Whether p is a regular file (through symlinks): what a reader opens. A FIFO, a socket or a device
 * named `*.md` would block a read or never end it, so a hook reads regular files only.
 */
export function isRegularFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A relative path with '/' separators on every platform (as git names paths). */
export function withSlashes(p: string): string {
  return p.split(sep).join('/');
}

/** The path of `to` relative to `from`, with '/' separators on every platform. */
export function slashRelative(from: string, to: string): string {
  return withSlashes(relative(from, to));
}

/** A folder's path from a repository root ('/' separators) when it lies inside it, below the root. */
export function pathBelowRoot(root: string | null | undefined, dir: string): string | undefined {
  const rel = root ? slashRelative(root, dir) : '';
  return rel && !rel.startsWith('..') ? rel : undefined;
}
