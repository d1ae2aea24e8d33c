// Helpers for the security tests: a sentinel folder outside the repository whose every entry
// (kind, mode, mtime, content) is recorded before and compared after, so a test sees any write,
// creation, deletion or mtime change that memlint made outside the repository.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/repo.js';

export interface Sentinel {
  dir: string;
  /** The recorded state of every entry under dir. */
  state(): Map<string, string>;
}

/** A folder outside any repository with a few files and a subfolder in it, their mtimes in the past. */
export function sentinel(files: Record<string, string> = { 'MEMORY.md': '# not yours\n', 'keep.md': 'outside\n', 'sub/deep.md': 'deep\n' }): Sentinel {
  const dir = tempDir('memlint-sentinel-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return { dir, state: () => treeState(dir) };
}

export function treeState(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = rel ? join(dir, rel) : dir;
    const st = lstatSync(abs);
    const head = `${st.mode.toString(8)} ${st.mtimeMs}`;
    if (st.isSymbolicLink()) out.set(rel || '.', `${head} -> ${readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      out.set(rel || '.', `${head} dir`);
      for (const name of readdirSync(abs).sort()) walk(rel ? `${rel}/${name}` : name);
    } else out.set(rel || '.', `${head} ${readFileSync(abs).toString('base64')}`);
  };
  walk('');
  return out;
}
