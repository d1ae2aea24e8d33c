// The memory a range of commits changes (memlint diff, docs/diff.md): the range as
// written resolved to two commits, the memdirs at either end, their files read from git's object
// store (never the working tree), and what changed in each (src/memdir/changes.ts).
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { readBlobs, treeFiles } from '../git/blobs.js';
import { changedPaths } from '../git/history.js';
import { defaultRemote, mergeBasesAsync, remoteDefaultBranch, resolveRefAsync } from '../git/refs.js';
import { isEmpty, memdirChanges, type MemdirChanges, type MemdirSide } from './changes.js';
import { isClaudeLocation, linksBeside, memdirCandidates } from './discover.js';
import { INDEX_FILE } from './kinds.js';
import { isAgentMemdir } from './limits.js';
import type { GitContext } from '../git/repo.js';

export interface DiffRange {
  base: string;
  baseCommit: string;
  head: string;
  headCommit: string;
}

/** A range as written (`A..B`, `A...B`, `A`, none) resolved to two commits. */
export async function resolveRange(at: GitContext, spec: string | undefined): Promise<DiffRange> {
  const commit = async (name: string, what: string) => {
    if (name.startsWith('-')) throw new UsageError(`${what} "${name}" is not a branch or commit`);
    const c = (await resolveRefAsync(at, name))?.commit ?? null;
    if (!c) throw new UsageError(`${what} ${name}: no such branch or commit here (fetch it first)`);
    return c;
  };
  const fromMergeBase = async (base: string, head: string): Promise<DiffRange> => {
    const [b, h] = await Promise.all([commit(base, 'BASE'), commit(head, 'HEAD')]);
    const mb = (await mergeBasesAsync(at, b, h))[0];
    if (!mb) throw new UsageError(`${base} and ${head} share no history (a shallow clone? fetch with full history)`);
    return { base: `merge base of ${base} and ${head}`, baseCommit: mb, head, headCommit: h };
  };
  if (spec === undefined) {
    const remote = await defaultRemote(at);
    const def = await remoteDefaultBranch(at, remote);
    if (!def) throw new UsageError(`${remote}/HEAD is not set, so the default branch is unknown: give a range (memlint diff ${remote}/main...HEAD), or run "git remote set-head ${remote} --auto"`);
    return fromMergeBase(def, 'HEAD');
  }
  const three = /^(.*?)\.\.\.(.*)$/.exec(spec);
  if (three) return fromMergeBase(three[1] || 'HEAD', three[2] || 'HEAD');
  const two = /^(.*?)\.\.(.*)$/.exec(spec);
  const [base, head] = two ? [two[1] || 'HEAD', two[2] || 'HEAD'] : [spec, 'HEAD'];
  const [baseCommit, headCommit] = await Promise.all([commit(base, 'BASE'), commit(head, 'HEAD')]);
  return { base, baseCommit, head, headCommit };
}

export interface MemdirDiff {
  path: string;
  changes: MemdirChanges;
}

/** Memdirs at one end: folders holding MEMORY.md at Claude Code's locations, or whose index links a file beside it. */
export function memdirsAt(at: GitContext, commit: string, files: string[]): string[] {
  const fileSet = new Set(files);
  const candidates = memdirCandidates(files);
  const other = candidates.filter((d) => !isClaudeLocation(d));
  const texts = readBlobs(at, other.map((d) => `${commit}:${d === '' ? '' : `${d}/`}${INDEX_FILE}`));
  return candidates.filter((d) => isClaudeLocation(d) || linksBeside(texts.get(`${commit}:${d === '' ? '' : `${d}/`}${INDEX_FILE}`)?.toString('utf8') ?? '', d, fileSet));
}

/**
 * The memory changes of a range, one entry per memdir that changed. `archiveOf` gives a memdir's
 * archive folder (repository-relative, with a final slash; null for none). `read`, when given, receives
 * every file text and path read, so that the caller can mask the secrets no-secrets finds in them.
 */
export async function diffRange(at: GitContext, range: DiffRange, archiveOf: (memdir: string) => string | null, read?: string[]): Promise<MemdirDiff[]> {
  const root = at.cwd;
  const [before, after] = await Promise.all([treeFiles(at, range.baseCommit), treeFiles(at, range.headCommit)]);
  const files = { before, after };
  const dirs = [...new Set([...memdirsAt(at, range.baseCommit, files.before), ...memdirsAt(at, range.headCommit, files.after)])].sort();
  const prefix = (d: string) => (d === '' ? '' : `${d}/`);
  // A file belongs to the deepest memdir holding it.
  const owner = (p: string) => dirs.filter((d) => p.startsWith(prefix(d))).sort((a, b) => b.length - a.length)[0];
  const pick = (list: string[], d: string) => ({
    files: list.filter((p) => p.endsWith('.md') && p !== `${prefix(d)}${INDEX_FILE}` && owner(p) === d),
    archive: list.filter((p) => archiveOf(d) !== null && p.startsWith(archiveOf(d)!) && p.endsWith('.md')),
  });
  const specs: string[] = [];
  const plan = dirs.map((d) => {
    const before = pick(files.before, d);
    const after = pick(files.after, d);
    for (const [commit, side, list] of [[range.baseCommit, before, files.before], [range.headCommit, after, files.after]] as const) {
      for (const p of [...side.files, ...side.archive]) specs.push(`${commit}:${p}`);
      if (list.includes(`${prefix(d)}${INDEX_FILE}`)) specs.push(`${commit}:${prefix(d)}${INDEX_FILE}`);
    }
    return { d, before, after };
  });
  const blobs = readBlobs(at, specs);
  if (read) for (const [spec, blob] of blobs) read.push(spec, blob?.toString('utf8') ?? '');
  const text = (commit: string, p: string) => blobs.get(`${commit}:${p}`)?.toString('utf8') ?? null;
  const renamesAll = dirs.length ? (await changedPaths(at, range.baseCommit, range.headCommit, { renames: true, pathspec: dirs.map((d) => (d === '' ? '.' : d)) })).filter((c) => c.status === 'R') : [];
  const out: MemdirDiff[] = [];
  for (const { d, before, after } of plan) {
    const side = (commit: string, s: { files: string[]; archive: string[] }): MemdirSide => ({
      index: text(commit, `${prefix(d)}${INDEX_FILE}`),
      files: new Map(s.files.map((p) => [p.slice(prefix(d).length), text(commit, p) ?? ''])),
      archive: new Map(s.archive.map((p) => [p, text(commit, p) ?? ''])),
    });
    const renames = new Map(renamesAll.filter((r) => owner(r.from!) === d && owner(r.path) === d).map((r) => [r.from!.slice(prefix(d).length), r.path.slice(prefix(d).length)]));
    const changes = memdirChanges(side(range.baseCommit, before), side(range.headCommit, after), { strip: !isAgentMemdir(join(root, d)), renames });
    if (!isEmpty(changes)) out.push({ path: d === '' ? '.' : d, changes });
  }
  return out;
}
