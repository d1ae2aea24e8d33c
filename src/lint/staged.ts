// Which memdirs a staged change touches: for each staged Markdown path, the nearest folder above
// it whose MEMORY.md is in the index (one git call for all candidates). The launcher asks the same
// question before loading the program, and hands its answer over.
import { join } from 'node:path';
import { git } from '../git/index.js';

export interface StagedHandover {
  /** Staged paths, repository-relative (git diff --cached --name-only). */
  paths: string[];
  /** MEMORY.md paths in the index above staged Markdown files, repository-relative. */
  indexes: string[];
}

/** What the launcher (dist/cli.js) already learned about the staged change, if it ran. */
export function stagedHandover(): StagedHandover | undefined {
  return (globalThis as { __memlintStaged?: StagedHandover }).__memlintStaged;
}

function candidateIndexes(stagedMd: string[]): string[] {
  const candidates = new Set<string>();
  for (const p of stagedMd) {
    if (p.split('/').includes('node_modules')) continue;
    const parts = p.split('/');
    for (let i = parts.length - 1; i >= 0; i--) candidates.add(parts.slice(0, i).concat('MEMORY.md').join('/'));
  }
  return [...candidates];
}

/** MEMORY.md files in the index that could own the staged Markdown paths (one git call, from any folder). */
export function memoryIndexesFor(cwd: string, stagedMd: string[]): string[] {
  const candidates = candidateIndexes(stagedMd);
  if (candidates.length === 0) return [];
  const out = git(['ls-files', '--full-name', '-z', '--', ...candidates.map((c) => `:(top,literal)${c}`)], { cwd });
  return out.split('\0').filter(Boolean);
}

export function stagedMemdirsFor(root: string, stagedMd: string[], indexes?: string[]): Array<{ dir: string; repoRoot: string; onlyFiles: Set<string> }> {
  const present = new Set(indexes ?? memoryIndexesFor(root, stagedMd));
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
