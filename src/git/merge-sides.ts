// The commits behind the merge driver's OURS and THEIRS, and which files their trees hold: what
// the driver asks when an index entry deleted on one side was edited on the other, since the
// entry can only stay if its topic file does (git deletes a topic file deleted on one side and
// unchanged on the other). Only asked in that case: the driver loads this module lazily.
//
// OURS is HEAD (a merge, rebase, cherry-pick). THEIRS is known for a merge (`git merge`, `git
// pull`: git exports GITHEAD_<commit> to the driver) and for a rebase of the merge backend (the
// commit being picked is the last line of <git dir>/rebase-merge/done); otherwise it is unknown.
// Each side's commit counts only when its MEMORY.md is the very text the driver was handed, so a
// virtual base of a criss-cross merge or a renamed index is never read as HEAD's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBlobs } from './blobs.js';
import { repository, type GitContext } from './repo.js';

export type MergeSide = 'ours' | 'theirs';

const GITHEAD = /^GITHEAD_([0-9a-f]{40}|[0-9a-f]{64})$/;
// rebase-merge/done: "pick <id> subject", also the short forms and fixup -C/-c.
const PICKED = /^(?:pick|p|reword|r|edit|e|squash|s|fixup|f)\s+(?:-[cC]\s+)?([0-9a-f]{4,64})\b/;

/** THEIRS' commit, when git tells it; null when it does not (a cherry-pick, an octopus, am). */
export function theirsCommit(at: GitContext): string | null {
  const heads = Object.keys(at.env).flatMap((k) => {
    const m = GITHEAD.exec(k);
    return m ? [m[1]!] : [];
  });
  if (heads.length === 1) return heads[0]!;
  if (heads.length > 1) return null;
  const repo = repository(at);
  if (!repo) return null;
  let done: string;
  try {
    done = readFileSync(path.join(repo.gitDir, 'rebase-merge', 'done'), 'utf8');
  } catch {
    return null;
  }
  const last = done.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).pop();
  return last ? (PICKED.exec(last.trim())?.[1] ?? null) : null;
}

export interface SideFiles {
  /** The index's repository path (git's %P). */
  indexPath: string;
  ours: Buffer;
  theirs: Buffer;
}

/**
 * Whether each side's tree holds each of these repository paths: `holds(side, path)` is true or
 * false, or undefined when that side's commit is unknown or its index is not the text the driver
 * was handed.
 */
export function sidesHoldFiles(at: GitContext, sides: SideFiles, paths: string[]): (side: MergeSide, path: string) => boolean | undefined {
  const none = () => undefined;
  if (paths.length === 0) return none;
  const commits: Record<MergeSide, string | null> = { ours: 'HEAD', theirs: theirsCommit(at) };
  const specs: string[] = [];
  for (const side of ['ours', 'theirs'] as const) {
    const c = commits[side];
    if (c !== null) specs.push(`${c}:${sides.indexPath}`, ...paths.map((p) => `${c}:${p}`));
  }
  let blobs: Map<string, Buffer | null>;
  try {
    blobs = readBlobs(at, specs);
  } catch {
    return none;
  }
  const trusted = (side: MergeSide) => {
    const c = commits[side];
    const index = c === null ? null : blobs.get(`${c}:${sides.indexPath}`);
    return !!index && index.equals(sides[side]);
  };
  const ok = { ours: trusted('ours'), theirs: trusted('theirs') };
  return (side, p) => (ok[side] ? blobs.get(`${commits[side]}:${p}`) != null : undefined);
}
