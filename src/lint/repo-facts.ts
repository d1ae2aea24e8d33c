// Repository facts for rules, gathered lazily and at most once per run (one git call per kind).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { blameLineDates, conflictMarkerSizes, existingCommits, stringsInTrackedFiles, trackedFiles } from '../git/index.js';
import { isWithin, realOrResolved } from '../fs/paths.js';
import { walkFiles } from '../fs/walk.js';
import type { RepoFacts } from './types.js';
import type { MemoryFile } from '../memdir/types.js';

export function createRepoFacts(root: string, memdir: string): RepoFacts {
  let tracked: Set<string> | undefined;
  const commits = new Map<string, boolean>();
  const blame = new Map<string, Array<string | undefined>>();
  let claudeMd: Array<{ path: string; text: string }> | undefined;
  const inTracked = new Map<string, boolean>();
  const markerSizes = new Map<string, number>();
  const repoRel = (path: string) => relative(root, path).split(sep).join('/');
  return {
    root,
    trackedFiles() {
      tracked ??= new Set(trackedFiles(root));
      return tracked;
    },
    existingCommits(candidates) {
      const unknown = candidates.filter((c) => !commits.has(c));
      if (unknown.length > 0) {
        const found = existingCommits(root, unknown);
        for (const c of unknown) commits.set(c, found.has(c));
      }
      return new Set(candidates.filter((c) => commits.get(c)));
    },
    lineDates(file: MemoryFile) {
      let d = blame.get(file.path);
      if (!d) {
        // A file git does not track has no commit dates: no blame (one `git ls-files` for the run
        // answers for every file, where a blame each would start a process per file for nothing).
        const rel = repoRel(file.path);
        d = this.trackedFiles().has(rel) ? blameLineDates(root, rel, file.text) : [];
        blame.set(file.path, d);
      }
      return d;
    },
    stringsInTrackedFiles(needles) {
      const unknown = [...new Set(needles)].filter((n) => !inTracked.has(n));
      if (unknown.length > 0) {
        const rel = relative(root, memdir).split(sep).join('/');
        const found = stringsInTrackedFiles(root, unknown, rel.startsWith('..') ? '' : rel);
        for (const n of unknown) inTracked.set(n, found.has(n));
      }
      return new Set(needles.filter((n) => inTracked.get(n)));
    },
    claudeMdTexts() {
      claudeMd ??= readClaudeMd(root, memdir);
      return claudeMd;
    },
    conflictMarkerSize(file: MemoryFile) {
      let n = markerSizes.get(file.path);
      if (n === undefined) {
        const rel = repoRel(file.path);
        try {
          n = conflictMarkerSizes(root, [rel]).get(rel) ?? 7;
        } catch {
          n = 7; // git could not say (a path it refuses): its default
        }
        markerSizes.set(file.path, n);
      }
      return n;
    },
  };
}

/** CLAUDE.md files in scope of a folder: from the repository root down to it, as Claude Code loads them. */
function readClaudeMd(root: string, memdir: string): Array<{ path: string; text: string }> {
  const dirs: string[] = [];
  for (let d = memdir; ; d = dirname(d)) {
    dirs.unshift(d);
    if (d === root || dirname(d) === d || !isWithin(d, root)) break;
  }
  const out: Array<{ path: string; text: string }> = [];
  const realRoot = realOrResolved(root);
  // Nothing is read through a symlink that leads out of the repository (README "Security").
  const read = (p: string) => {
    try {
      if (existsSync(p) && isWithin(realOrResolved(p), realRoot)) out.push({ path: p, text: readFileSync(p, 'utf8') });
    } catch {
      // unreadable CLAUDE.md: nothing to compare against
    }
  };
  for (const d of dirs) {
    read(join(d, 'CLAUDE.md'));
    read(join(d, '.claude', 'CLAUDE.md'));
    read(join(d, 'CLAUDE.local.md'));
    const rules = join(d, '.claude', 'rules');
    if (isWithin(realOrResolved(rules), realRoot)) for (const f of walkFiles(rules, { withSymlinks: true })) if (f.endsWith('.md')) read(join(rules, f));
  }
  return out;
}
