// Small path facts shared by the commands: where a path really is, and whether it lies in a folder.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The real path of p (symlinks resolved), or p made absolute when it does not exist. */
export function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** Whether child is parent or lies below it (a folder named `..x` inside parent is inside). */
export function isWithin(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}
