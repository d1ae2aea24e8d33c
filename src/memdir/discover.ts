// Finding memory directories: a folder holding MEMORY.md. With no path given, every memdir in the
// repository (tracked or untracked, not git-ignored, never under node_modules) plus config memoryDirs.
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError, UsageError } from '../errors.js';
import { walkFiles } from '../fs/walk.js';
import { repository, type GitContext, type Repository } from '../git/repo.js';
import { listFilesTagged } from '../git/status.js';
import { parseIndex } from './memory-index.js';
import { isWithin, realOrResolved, slashRelative, withSlashes } from '../fs/paths.js';
import { INDEX_FILE, isReadmeLike, neverFoundAsMemory } from './kinds.js';
import { agentMemoryScope } from './format.js';
import { isClaudeLocation, SymlinkedMemdirError, symlinkOut, watchedForSymlink } from './symlinked.js';

export interface DiscoveredMemdir {
  /** Absolute path of the folder holding MEMORY.md. */
  dir: string;
  repoRoot: string | null;
  /** When files were named on the command line: only these (absolute paths) are reported. */
  onlyFiles?: Set<string>;
  /** With --staged: the staged Markdown paths of this memdir (absolute), deletions included. */
  changed?: Set<string>;
  /** Why this folder counts as a memdir. */
  reason: 'path' | 'config' | 'claude-location' | 'links';
  /** Not yet judged: lint it only if its index links to a file beside it (decided on the loaded model). */
  confirmLinks?: boolean;
}

export interface DiscoverOptions {
  cwd: string;
  /** The command's environment, which git runs with. */
  env: NodeJS.ProcessEnv;
  paths?: string[];
  /** Config memoryDirs, and the folder they are relative to. */
  memoryDirs?: string[];
  configDir?: string;
  /** The repository holding cwd (null: none) when the caller has asked git already; else discovery asks. */
  repository?: Repository | null;
  /** Config "link" when it names the memory folder (relative to configDir): a symlink there is refused as a Claude location is. */
  link?: boolean | string;
  /**
   * A memory folder discovery would have found that is a symlink leading out of the repository
   * (its repository-relative path): left alone, never read through. Default: refused with a
   * SymlinkedMemdirError (exit 2), as naming it on the command line is; doctor collects them.
   */
  onSymlinked?: (rel: string) => void;
  /**
   * Only the memdirs at or below these folders (absolute), judged as a whole-repository discovery
   * judges them: a hook that knows which folders its commits changed lists just those, not every
   * file of a large repository.
   */
  within?: string[];
  /**
   * A memory folder a sparse checkout leaves out (its MEMORY.md committed but skip-worktree: not on
   * disk): by default not found, and its repository-relative path handed here; `include: true`
   * finds it as the rest of the repository's (install and doctor route every memory folder).
   */
  notCheckedOut?: { include?: boolean; onLeftOut?: (rel: string) => void };
}

export { isClaudeLocation, SymlinkedMemdirError, symlinkedMemdirMessage } from './symlinked.js';

/**
 * A subagent's local-scope memory (.claude/agent-memory-local/<agent>/): Claude Code 2.1.332 keeps
 * it "not checked into version control" and puts it in .git/info/exclude itself. memlint treats it
 * as git-ignored everywhere it looks for memory on its own (discovery, --staged, the hook); a
 * person who names it on the command line gets it linted.
 */
export function isLocalScope(relDir: string): boolean {
  return agentMemoryScope(relDir) === 'local';
}


/** Memdir candidates among repository-relative file paths: folders holding MEMORY.md (not node_modules or templates). */
export function memdirCandidates(files: string[]): string[] {
  const dirs: string[] = [];
  for (const f of files) {
    if (!(f === INDEX_FILE || f.endsWith(`/${INDEX_FILE}`))) continue;
    if (neverFoundAsMemory(f)) continue;
    dirs.push(f === INDEX_FILE ? '' : f.slice(0, -`/${INDEX_FILE}`.length));
  }
  return dirs.sort();
}

/**
 * The repository's root, a `.claude` folder, and the folders that hold agents' memory folders
 * (`.claude/agent-memory/`, `-local/`, `-snapshots/`): a MEMORY.md there is often a project's own
 * notes or a hand-kept index of the memory below, not where Claude Code keeps memory
 * (`.claude/memory/`, `.claude/agent-memory/<agentType>/`, `projects/<slug>/memory/`: Claude Code
 * 2.1.332 keeps none in `.claude/agent-memory/` itself). Only links to memory files directly beside
 * it make it a memdir.
 */
export function isRootLike(relDir: string): boolean {
  return relDir === '' || relDir === '.' || /(?:^|\/)\.claude(?:\/agent-memory(?:-local|-snapshots)?)?$/.test(relDir);
}

/**
 * Whether an index links to at least one file that exists beside it (a real memory index). For a
 * root-like folder (isRootLike) a link into a subfolder does not count, nor one to a README-like
 * file: the whole repository is not a memory folder because its MEMORY.md links into one.
 */
export function linksBeside(indexText: string, relDir: string, fileSet: Set<string>, rootLike = isRootLike(relDir)): boolean {
  const prefix = relDir === '' || relDir === '.' ? '' : `${relDir}/`;
  for (const line of parseIndex(indexText).lines) {
    if (!line.entry) continue;
    const key = line.entry.key;
    if (key.startsWith('../') || key === '' || /^[a-z][a-z0-9+.-]*:/i.test(key)) continue;
    if (rootLike && (key.includes('/') || !key.endsWith('.md') || isReadmeLike(key) || key === INDEX_FILE)) continue;
    if (fileSet.has(prefix + key)) return true;
  }
  return false;
}

/**
 * The files of a repository (or of a folder outside git), or of one folder of it (`folder`,
 * root-relative), and those of them a sparse checkout leaves out (skip-worktree: committed, not on disk).
 */
function repoFiles(root: string, inGit: boolean, env: NodeJS.ProcessEnv, folder: string | null): { files: string[]; notCheckedOut: Set<string> } {
  if (!inGit) {
    return { files: walkFiles(root, { skip: (_rel, e) => e.name === 'node_modules' || e.name === '.git' }), notCheckedOut: new Set() };
  }
  return folder === null || folder.startsWith('..') ? listFilesTagged({ cwd: root, env }) : listFilesTagged({ cwd: root, env }, { folder });
}

/** Whether a path missing from disk is committed but left out by a sparse checkout (skip-worktree). */
function leftOutBySparseCheckout(from: GitContext, known: Repository | null, abs: string): boolean {
  const root = known?.root;
  if (!root || !isWithin(abs, root)) return false;
  try {
    const rel = slashRelative(root, abs);
    const tagged = listFilesTagged({ cwd: root, env: from.env }, { untracked: false, ...(rel === '' ? {} : { folder: rel }) });
    return tagged.notCheckedOut.size > 0;
  } catch {
    return false;
  }
}

// Discovery reads the working tree: --staged judges a staged MEMORY.md on the staged snapshot
// (src/commands/lint.ts, confirmLinks).
function readIndexText(root: string, relDir: string): string {
  const rel = relDir === '' ? INDEX_FILE : `${relDir}/${INDEX_FILE}`;
  try {
    return readFileSync(join(root, rel), 'utf8');
  } catch {
    return '';
  }
}

/** The nearest folder above `file` (up to `stopAt`, which counts) that holds MEMORY.md, or null. */
export function nearestMemdir(file: string, stopAt: string): string | null {
  let dir = dirname(file);
  for (;;) {
    if (existsSync(join(dir, INDEX_FILE))) return dir;
    if (dir === stopAt) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The repository holding dir: `known` (the working folder's) when dir lies inside its working tree
 * with no nested repository (a `.git` entry) in between, else git's answer. Saves a git call per path.
 */
export function repositoryHolding(from: GitContext, dir: string, known: Repository | null): Repository | null {
  if (known && isWithin(dir, known.root)) {
    let nested = false;
    for (let d = dir; d !== known.root && dirname(d) !== d; d = dirname(d)) {
      if (existsSync(join(d, '.git'))) {
        nested = true;
        break;
      }
    }
    if (!nested) return known;
  }
  return repository(from, dir);
}

export function discoverMemdirs(opts: DiscoverOptions): DiscoveredMemdir[] {
  const cwd = resolve(opts.cwd);
  const from: GitContext = { cwd, env: opts.env };
  const cwdRepository = opts.repository === undefined ? repository(from) : opts.repository;
  const gitRoot = cwdRepository?.root ?? null;
  const found = new Map<string, DiscoveredMemdir>();
  const add = (d: DiscoveredMemdir) => {
    const prev = found.get(d.dir);
    if (!prev) found.set(d.dir, d);
    else if (prev.onlyFiles && d.onlyFiles) for (const f of d.onlyFiles) prev.onlyFiles.add(f);
    else if (!d.onlyFiles) delete prev.onlyFiles;
  };

  // Whether a folder is a memdir depends on its own files only (its MEMORY.md and what lies beside
  // it), so a scan under one folder lists that folder alone.
  const symlinked = new Set<string>();
  const refuseSymlinked = (root: string, rel: string) => {
    if (symlinked.has(rel) || !symlinkOut(root, rel)) return;
    symlinked.add(rel);
    if (opts.onSymlinked) opts.onSymlinked(rel);
    else throw new SymlinkedMemdirError(rel);
  };
  const scan = (root: string, inGit: boolean, under: string | null) => {
    const listed = repoFiles(root, inGit, opts.env, under === null ? null : slashRelative(root, under));
    // What a sparse checkout leaves out is committed but not here: a memory folder outside it is
    // not in this checkout to lint (its MEMORY.md is not on disk), and is only named.
    const include = opts.notCheckedOut?.include === true || listed.notCheckedOut.size === 0;
    const files = include ? listed.files : listed.files.filter((f) => !listed.notCheckedOut.has(f));
    if (!include && opts.notCheckedOut?.onLeftOut) {
      for (const relDir of memdirCandidates([...listed.notCheckedOut])) {
        const abs = relDir === '' ? root : join(root, relDir);
        if ((under === null || isWithin(abs, under)) && !isLocalScope(relDir) && !isRootLike(relDir)) opts.notCheckedOut.onLeftOut(relDir);
      }
    }
    const fileSet = new Set(files);
    // git lists a symlink as a file: a memory folder (or the .claude folder above one) that is a
    // symlink out of the repository would otherwise be skipped without a word.
    if (inGit) {
      for (const f of files) {
        if (f.split('/').includes('node_modules') || isLocalScope(f)) continue;
        if (watchedForSymlink(f)) refuseSymlinked(root, f);
      }
    }
    for (const relDir of memdirCandidates(files)) {
      const abs = relDir === '' ? root : join(root, relDir);
      if (under !== null && !isWithin(abs, under)) continue;
      if (isLocalScope(relDir)) continue;
      if (isClaudeLocation(relDir)) add({ dir: abs, repoRoot: inGit ? root : null, reason: 'claude-location' });
      else if (linksBeside(readIndexText(root, relDir), relDir, fileSet)) {
        add({ dir: abs, repoRoot: inGit ? root : null, reason: 'links' });
      }
    }
  };

  const configured = configuredDirs(opts.memoryDirs ?? [], opts.configDir ?? cwd, gitRoot);
  if (opts.paths && opts.paths.length > 0) {
    for (const p of opts.paths) {
      const abs = resolve(cwd, p);
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        throw new UsageError(leftOutBySparseCheckout(from, cwdRepository, abs) ? `${p} is outside this sparse checkout (committed, not on disk): memlint lints what is checked out; "git sparse-checkout add" brings it in` : `no such file or folder: ${p}`);
      }
      if (st.isSymbolicLink()) {
        const real = realpathSync(abs);
        if (gitRoot && !isWithin(real, realpathSync(gitRoot))) throw new UsageError(`${p} is a symlink out of the repository; memlint does not follow it`);
        st = statSync(abs);
      }
      const root = repositoryHolding(from, st.isDirectory() ? abs : dirname(abs), cwdRepository)?.root ?? null;
      // A symlinked folder on the way (.claude, .claude/memory) must not lead out of the repository
      // either: nothing is read through it (and writers refuse any symlink: src/fs/inside.ts).
      if (root && !isWithin(realpathSync(abs), realpathSync(root))) throw new UsageError(`${p} leads out of the repository through a symlink; memlint does not follow it`);
      if (st.isDirectory()) {
        if (existsSync(join(abs, INDEX_FILE))) {
          add({ dir: abs, repoRoot: root, reason: 'path' });
          continue;
        }
        const before = found.size;
        scan(root ?? abs, root !== null, abs);
        if (found.size === before) throw new UsageError(`no memory folder (a folder with MEMORY.md) in ${p}`);
      } else {
        const dir = nearestMemdir(abs, root ?? dirname(abs));
        if (!dir) throw new UsageError(`${p} is not inside a memory folder (no MEMORY.md beside it or above it)`);
        add({ dir, repoRoot: root, onlyFiles: new Set([abs]), reason: 'path' });
      }
    }
    return [...found.values()];
  }

  if (opts.within) for (const dir of opts.within) scan(gitRoot ?? cwd, gitRoot !== null, dir);
  else scan(gitRoot ?? cwd, gitRoot !== null, null);
  // The team's memory folder (config "link"), wherever it is: a symlink there is not the team's memory.
  if (gitRoot !== null && !opts.within && opts.link !== undefined && opts.link !== false) {
    const abs = typeof opts.link === 'string' ? resolve(opts.configDir ?? cwd, opts.link) : join(gitRoot, '.claude', 'memory');
    const rel = slashRelative(gitRoot, abs);
    if (rel !== '' && !rel.startsWith('..')) refuseSymlinked(gitRoot, rel);
  }
  for (const abs of configured) {
    // A memdir is a folder holding MEMORY.md: a folder without one gets nothing written (no fix,
    // no lock), since nothing says it is memory.
    if (!isFile(join(abs, INDEX_FILE))) continue;
    add({ dir: abs, repoRoot: repository(from, abs)?.root ?? null, reason: 'config' });
  }
  return [...found.values()].sort((a, b) => a.dir.localeCompare(b.dir));
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Config memoryDirs as absolute folders. Config comes from the repository, which is untrusted
 * (docs/security.md): a folder outside it (an absolute path elsewhere, `../` out of it, a symlink that
 * leads out) is refused with one line, before anything is read or written.
 */
export function configuredDirs(memoryDirs: string[], configDir: string, gitRoot: string | null): string[] {
  const bound = gitRoot ?? configDir;
  const realBound = realOrResolved(bound);
  return memoryDirs.map((d) => {
    const abs = resolve(configDir, d);
    const refuse = (leads = '') => new ConfigError(`config memoryDirs: ${JSON.stringify(d)} names ${abs}${leads}, outside the repository; memlint does not read or write there`);
    if (!isWithin(abs, bound) && !isWithin(abs, realBound)) throw refuse();
    if (existsSync(abs)) {
      const real = realOrResolved(abs);
      if (!isWithin(real, realBound)) throw refuse(whereLinkLeads(abs, isWithin(abs, bound) ? bound : realBound, real));
    }
    return abs;
  });
}

/**
 * How a path inside the repository leads out of it: through itself, a symlink (", a symlink to
 * <target>"), or through the first folder above it that is one (the real path, and that link).
 */
function whereLinkLeads(abs: string, top: string, real: string): string {
  const parts = relative(top, abs).split(/[\\/]/).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const p = join(top, ...parts.slice(0, i));
    let link = false;
    try {
      link = lstatSync(p).isSymbolicLink();
    } catch {
      break;
    }
    if (!link) continue;
    if (p === abs) return `, a symlink to ${real}`;
    return `, which leads to ${real} (${p} is a symlink to ${realOrResolved(p)})`;
  }
  return `, which leads to ${real}`;
}

export function relDirOf(d: DiscoveredMemdir): string {
  return d.repoRoot ? withSlashes(relative(d.repoRoot, d.dir)) || '.' : d.dir;
}
