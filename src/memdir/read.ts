// Reading a memory directory into the model (src/memdir/model.ts): from the working tree, or from
// the index (staged blobs, what will be committed). Files memlint cannot read as text are
// reported, not read.
import { lstatSync, readFileSync, realpathSync, type Dirent } from 'node:fs';
import { join, posix, sep } from 'node:path';
import type { MemdirModel, MemoryFile } from './types.js';
import { fileKind, INDEX_FILE, isAppleDoubleFork, isMemoryPath } from './kinds.js';
import { createModel, decodeMemoryText } from './model.js';
import { walkEntries } from '../fs/walk.js';
import { isWithin, slashRelative } from '../fs/paths.js';
import type { StagedSnapshot } from './staged-snapshot.js';

export interface FileProblem {
  /** Absolute path. */
  path: string;
  message: string;
}

export type MemdirSource =
  | { kind: 'worktree' }
  | { kind: 'staged'; snapshot: StagedSnapshot };

/**
 * `join(dir, rel)` for a relative path that is already clean (git's, or built from directory
 * entries): the same result without join's normalising pass, which shows in a 2,000-file memdir.
 */
const under = sep === '/' ? (dir: string, rel: string) => (dir.endsWith('/') ? dir + rel : `${dir}/${rel}`) : join;

/** A read error in a few plain words. */
function ioReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'it vanished while memlint ran';
  if (code === 'EISDIR') return 'it is a folder';
  return code ?? String((err as Error)?.message ?? err).split('\n')[0]!;
}

/**
 * The files of a memdir in the working tree: `paths` to read, `unread` present but never read
 * (a symlink out of the repository), and a problem for each folder or symlink memlint cannot use.
 */
function walkWorktree(dir: string, realRoot: string | null, paths: string[], problems: FileProblem[], unread: string[]): void {
  const skip = (_rel: string, e: Dirent) => e.name === 'node_modules' || e.name === '.git' || (e.isSymbolicLink() && !e.name.endsWith('.md'));
  const onUnreadable = (rel: string, err: unknown) => problems.push({ path: join(dir, rel), message: `cannot read folder (${ioReason(err)}); its files are not linted` });
  for (const { rel: p, entry: e } of walkEntries(dir, { skip, onUnreadable })) {
    if (e.isSymbolicLink()) {
      let target = '';
      try {
        target = realpathSync(join(dir, p));
      } catch {
        problems.push({ path: join(dir, p), message: 'symlink to a missing file; not read' });
        continue;
      }
      const inside = realRoot !== null && isWithin(target, realRoot);
      if (!inside) {
        problems.push({ path: join(dir, p), message: 'symlink pointing outside the repository; memlint does not follow it' });
        // Present (an index entry naming it is not dangling), but never read.
        unread.push(p);
        continue;
      }
      if (lstatSync(target).isFile()) paths.push(p);
    } else if (e.isFile()) paths.push(p);
  }
}

/**
 * Files of a memdir nested in this one (a subfolder with a MEMORY.md of its own, as a team store
 * mounted at team/<store>/ has) belong to that memdir, which is linted with its own index: read
 * here too, they would be reported twice and called orphans of the wrong index. Their paths still
 * count (an entry naming one is not dangling).
 */
function nestedMemdirs(allPaths: Set<string>): (rel: string) => boolean {
  const roots = [...allPaths].filter((p) => p.endsWith(`/${INDEX_FILE}`)).map((p) => p.slice(0, -INDEX_FILE.length));
  if (roots.length === 0) return () => false;
  return (rel) => roots.some((r) => rel.startsWith(r));
}

export interface LoadedMemdir {
  model: MemdirModel;
  problems: FileProblem[];
}

interface ReadOptions {
  repoRoot?: string | null;
  ignore?: (rel: string) => boolean;
  only?: Set<string>;
}

/**
 * Load a memdir. `repoRoot` bounds symlinks (never followed out of it); `ignore` drops files
 * the config says to leave alone (memdir-relative path tested); with `only`, the other files are
 * listed (their paths count) but not read: text ''.
 */
export function loadMemdir(dir: string, opts: ReadOptions & { source?: MemdirSource } = {}): LoadedMemdir {
  const source = opts.source ?? { kind: 'worktree' };
  return source.kind === 'staged' ? readStaged(dir, source, opts) : readWorktree(dir, opts);
}

/** The memdir as the index holds it: staged blobs, what will be committed. */
function readStaged(dir: string, source: Extract<MemdirSource, { kind: 'staged' }>, opts: ReadOptions): LoadedMemdir {
  const problems: FileProblem[] = [];
  const files: MemoryFile[] = [];
  const allPaths = new Set<string>();
  const ignore = opts.ignore ?? (() => false);
  const snapshot = source.snapshot;
  const root = snapshot.root;
  const relDir = slashRelative(root, dir);
  const prefix = relDir === '' ? '' : `${relDir}/`;
  // Submodules are not files; symlinks are staged as their target's path, not its content.
  const listed = snapshot.listing(relDir);
  const indexed = listed.filter((e) => e.path.startsWith(prefix) && e.mode !== '160000');
  for (const e of indexed) allPaths.add(e.path.slice(prefix.length));
  const nested = nestedMemdirs(allPaths);
  const all = indexed.filter((e) => {
    const r = e.path.slice(prefix.length);
    return isMemoryPath(r) && !ignore(r) && !r.split('/').includes('node_modules') && !nested(r);
  });
  // With `only`, the other files are listed (their paths count) but not read: text ''.
  const wanted = (e: { path: string }) => !opts.only || e.path === `${prefix}${INDEX_FILE}` || opts.only.has(under(root, e.path));
  for (const e of all) {
    if (wanted(e)) continue;
    const rel = e.path.slice(prefix.length);
    files.push({ path: under(dir, rel), rel, text: '', unread: true, ...fileKind(rel) });
  }
  const md = all.filter(wanted);
  const blobs = snapshot.contents(md);
  // A staged symlink is followed only to a staged file inside the repository, as in the worktree.
  const linkTarget = new Map<string, string>();
  for (const e of md) {
    if (e.mode !== '120000') continue;
    const target = blobs.get(e.path)?.toString('utf8') ?? '';
    const resolved = posix.normalize(posix.join(posix.dirname(e.path), target));
    if (target === '' || posix.isAbsolute(target) || resolved === '..' || resolved.startsWith('../')) {
      problems.push({ path: join(dir, e.path.slice(prefix.length)), message: 'symlink pointing outside the repository; memlint does not follow it' });
    } else linkTarget.set(e.path, resolved);
  }
  const targets = snapshot.files([...new Set(linkTarget.values())]);
  for (const e of md) {
    const rel = e.path.slice(prefix.length);
    const path = under(dir, rel);
    let buf: Buffer | null | undefined;
    if (e.mode === '120000') {
      const t = linkTarget.get(e.path);
      if (t === undefined) continue;
      buf = targets.get(t);
      if (!buf) {
        problems.push({ path, message: 'symlink to a file that is not staged; not read' });
        continue;
      }
    } else buf = blobs.get(e.path);
    if (!buf) {
      problems.push({ path, message: 'cannot read the staged file; not linted' });
      continue;
    }
    if (isAppleDoubleFork(rel, buf)) continue;
    const decoded = decodeMemoryText(buf);
    if ('problem' in decoded) problems.push({ path, message: decoded.problem });
    else files.push({ path, rel, text: decoded.text, ...fileKind(rel) });
  }
  return { model: createModel(dir, files, allPaths), problems };
}

/** The memdir in the working tree. */
function readWorktree(dir: string, opts: ReadOptions): LoadedMemdir {
  const problems: FileProblem[] = [];
  const files: MemoryFile[] = [];
  const allPaths = new Set<string>();
  const ignore = opts.ignore ?? (() => false);
  let realRoot: string | null = null;
  try {
    realRoot = opts.repoRoot ? realpathSync(opts.repoRoot) : realpathSync(dir);
  } catch {
    realRoot = null;
  }
  const paths: string[] = [];
  const unread: string[] = [];
  walkWorktree(dir, realRoot, paths, problems, unread);
  for (const rel of unread) allPaths.add(rel);
  for (const rel of paths) allPaths.add(rel);
  const nested = nestedMemdirs(allPaths);
  for (const rel of paths) {
    if (!isMemoryPath(rel) || ignore(rel) || nested(rel)) continue;
    const path = under(dir, rel);
    // With `only`, as for staged blobs: the other files are listed, not read.
    if (opts.only && rel !== INDEX_FILE && !opts.only.has(path)) {
      files.push({ path, rel, text: '', unread: true, ...fileKind(rel) });
      continue;
    }
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (err) {
      problems.push({ path, message: `cannot read file (${ioReason(err)}); not linted` });
      continue;
    }
    // macOS's resource fork beside a file is no text at all: neither read nor reported.
    if (isAppleDoubleFork(rel, buf)) continue;
    const decoded = decodeMemoryText(buf);
    if ('problem' in decoded) problems.push({ path, message: decoded.problem });
    else files.push({ path, rel, text: decoded.text, ...fileKind(rel) });
  }
  return { model: createModel(dir, files, allPaths), problems };
}
