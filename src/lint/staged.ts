// Which memdirs a staged change touches: for each staged Markdown path, the nearest folder above
// it whose MEMORY.md is in the index (one git call for all candidates).
import { join } from 'node:path';
import { listFiles } from '../git/index.js';

export function stagedMemdirsFor(root: string, stagedMd: string[]): Array<{ dir: string; repoRoot: string; onlyFiles: Set<string> }> {
  const candidates = new Set<string>();
  for (const p of stagedMd) {
    const parts = p.split('/');
    for (let i = parts.length - 1; i >= 0; i--) candidates.add(parts.slice(0, i).concat('MEMORY.md').join('/'));
  }
  const present = new Set(listFiles(root, { untracked: false, pathspec: [...candidates].map((c) => `:(literal)${c}`) }));
  const byDir = new Map<string, Set<string>>();
  for (const p of stagedMd) {
    if (p.split('/').includes('node_modules')) continue;
    const parts = p.split('/');
    for (let i = parts.length - 1; i >= 0; i--) {
      const rel = parts.slice(0, i).join('/');
      if (!present.has(rel === '' ? 'MEMORY.md' : `${rel}/MEMORY.md`)) continue;
      const dir = rel === '' ? root : join(root, rel);
      const only = byDir.get(dir) ?? new Set([join(dir, 'MEMORY.md')]);
      only.add(join(root, p));
      byDir.set(dir, only);
      break;
    }
  }
  return [...byDir].map(([dir, onlyFiles]) => ({ dir, repoRoot: root, onlyFiles }));
}
