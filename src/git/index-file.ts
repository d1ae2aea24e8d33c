// Git's index file read in this process (gitformat-index(5)), for one question --staged asks
// before the program loads: which tracked Markdown files are the same in the working tree as in
// the index, so that their text can be read from disk instead of from git. A second git process
// costs the pre-commit hook as much again as the first in a large repository; reading the index
// costs a read of one file and a walk over its entries.
//
// Only what git itself trusts is trusted: a file whose lstat matches the index entry's stat data
// (and is not "racily clean") has the entry's content, as `git diff` and `git status` take it.
// Anything this reader does not know for certain (index version 4, a split or sparse index, a
// SHA-256 repository, unmerged entries, core.worktree, an include in the config, GIT_DIR or
// GIT_WORK_TREE set by hand) makes it answer null, and the caller asks git.
import { closeSync, existsSync, fstatSync, lstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { walkIndex } from './index-walk.js';

/** The stat data of an index entry, as git stored it (32-bit fields, truncated as git truncates). */
export interface IndexStat {
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  ino: number;
  size: number;
}

/** A stage-0 index entry of a Markdown file (path ending in `.md`). */
export interface MarkdownEntry {
  /** Repository-relative, '/' separators. */
  path: string;
  /** 0o100644 or 0o100755 for a file; 0o120000 a symlink; 0o160000 a submodule. */
  mode: number;
  stat: IndexStat;
  /** assume-unchanged, skip-worktree or intent-to-add: git does not compare the worktree file with it. */
  notCompared: boolean;
}

const SHA1_BYTES = 20;
const FIXED = 40 + SHA1_BYTES + 2; // stat data, object id, flags
const EXTENDED = 0x4000;
const ASSUME_VALID = 0x8000;

/**
 * The Markdown entries of an index file open as `fd` (`size` bytes), in index order (sorted by
 * path); null when the index is in a form read here with no certainty: not version 2 or 3, an
 * entry in conflict (stage 1-3), a directory entry or the `sdir` extension (a sparse index), a
 * split index (`link`), or anything that does not add up.
 */
export function readIndexMarkdown(fd: number, size: number): MarkdownEntry[] | null {
  const head = Buffer.alloc(12);
  if (size < 12 + SHA1_BYTES || readSync(fd, head, 0, 12, 0) !== 12 || head.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = head.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const end = size - SHA1_BYTES;
  const out: MarkdownEntry[] = [];
  let off = walkIndex(fd, head.readUInt32BE(8), version, (buf, at, stop) => {
    const flags = buf.readUInt16BE(at + 60);
    const start = at + FIXED + (flags & EXTENDED ? 2 : 0);
    if (stop - start < 3) return;
    out.push({
      path: buf.toString('utf8', start, stop),
      mode: buf.readUInt32BE(at + 24),
      stat: {
        ctimeSec: buf.readUInt32BE(at),
        ctimeNsec: buf.readUInt32BE(at + 4),
        mtimeSec: buf.readUInt32BE(at + 8),
        mtimeNsec: buf.readUInt32BE(at + 12),
        ino: buf.readUInt32BE(at + 20),
        size: buf.readUInt32BE(at + 36),
      },
      // assume-unchanged; in an extended entry, skip-worktree (0x4000) and intent-to-add (0x2000)
      notCompared: (flags & ASSUME_VALID) !== 0 || ((flags & EXTENDED) !== 0 && (buf[at + 62]! & 0x60) !== 0),
    });
  });
  if (off === null || off > end) return null;
  // Extensions: a 4-byte signature and a 32-bit size each, then the checksum.
  const ext = Buffer.alloc(8);
  while (off < end) {
    if (off + 8 > end || readSync(fd, ext, 0, 8, off) !== 8) return null;
    const sig = ext.toString('latin1', 0, 4);
    if (sig === 'link' || sig === 'sdir') return null;
    off += 8 + ext.readUInt32BE(4);
  }
  return off === end ? out : null;
}

/** Where the working tree's top and its index file are, or null when that is not certain here. */
export function locateIndex(cwd: string, env: NodeJS.ProcessEnv): { top: string; file: string } | null {
  // git exports GIT_DIR to hooks in a linked worktree, and then takes the folder it runs in for the
  // top unless core.worktree says otherwise: read here only when the folder holds that git dir.
  if (env.GIT_WORK_TREE || env.GIT_COMMON_DIR || env.GIT_OBJECT_DIRECTORY) return null;
  let top = resolve(cwd);
  while (!existsSync(join(top, '.git'))) {
    const up = dirname(top);
    if (up === top) return null;
    top = up;
  }
  let gitDir = join(top, '.git');
  let st;
  try {
    st = lstatSync(gitDir);
  } catch {
    return null;
  }
  if (st.isFile()) {
    const m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(gitDir, 'utf8'));
    if (!m) return null;
    gitDir = resolve(top, m[1]!);
  } else if (!st.isDirectory()) return null;
  if (env.GIT_DIR && (resolve(cwd, env.GIT_DIR) !== gitDir || resolve(cwd) !== top)) return null;
  // The config that could move the top or change the entries' layout (core.worktree,
  // extensions.objectFormat), or bring in another file that could (include, includeIf).
  let commonDir = gitDir;
  try {
    commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    // not a linked worktree
  }
  for (const config of new Set([join(commonDir, 'config'), join(gitDir, 'config.worktree')])) {
    let text = '';
    try {
      text = readFileSync(config, 'utf8');
    } catch {
      continue;
    }
    if (/worktree|objectformat|include/i.test(text)) return null;
  }
  const file = env.GIT_INDEX_FILE ? resolve(cwd, env.GIT_INDEX_FILE) : join(gitDir, 'index');
  return { top, file };
}

/**
 * The Markdown entries of the index memlint would read with git from `cwd` (GIT_INDEX_FILE
 * included), the top of the working tree, and when the index file was written; null when
 * locateIndex or parseIndexMarkdown cannot say for certain, or the file cannot be read.
 */
export function indexMarkdown(cwd: string, env: NodeJS.ProcessEnv): { top: string; entries: MarkdownEntry[]; written: Stats } | null {
  const where = locateIndex(cwd, env);
  if (!where) return null;
  let fd: number;
  try {
    fd = openSync(where.file, 'r');
  } catch {
    return null;
  }
  try {
    const written = fstatSync(fd);
    if (!written.isFile()) return null;
    const entries = readIndexMarkdown(fd, written.size);
    return entries && { top: where.top, entries, written };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the file at `st` is, for git, the one the entry records: a regular file whose stat data
 * matches (times, inode, size) and that is not racily clean (changed in the second the index was
 * written, when equal stat data proves nothing). git itself then takes the worktree file for the
 * entry's content without reading it. Times are compared to the microsecond (Node's plain stat
 * gives them as milliseconds in a double, exact to a quarter of a microsecond; BigInt stats cost
 * the hook more than the rest of this check): a file written again within a microsecond of its
 * recorded time, to the same size, inode and change time, is taken for unchanged, where git would
 * look. Linux stamps files from a clock that moves in ticks of a millisecond or more.
 */
export function unchangedSince(entry: MarkdownEntry, st: Stats, written: Stats): boolean {
  const s = entry.stat;
  if (entry.notCompared || (entry.mode !== 0o100644 && entry.mode !== 0o100755) || !st.isFile()) return false;
  if (s.size !== st.size % 2 ** 32 || s.ino !== st.ino % 2 ** 32) return false;
  if (!sameTime(s.mtimeSec, s.mtimeNsec, st.mtimeMs) || !sameTime(s.ctimeSec, s.ctimeNsec, st.ctimeMs)) return false;
  // git: racy when the index was written in the file's second or before it. Here also within the
  // millisecond after that second, which git would not count: a double's rounding stays on the safe side.
  return (s.mtimeSec + 1) * 1000 < written.mtimeMs - 1;
}

function sameTime(sec: number, nsec: number, ms: number): boolean {
  return Math.abs((ms - sec * 1000) * 1e6 - nsec) < 1000 && ms >= 0 && ms < 2 ** 32 * 1000;
}
