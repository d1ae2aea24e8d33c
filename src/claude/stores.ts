// Claude Code memory stores that belong to this repository but are not the one in use: memory
// stranded under ~/.claude/projects/ by a worktree, a moved folder, or an autoMemoryDirectory that
// now points elsewhere. Found, and read for memlint adopt (readStore; storeFolder for a store named
// on the command line), by reading only: nothing here writes a store.
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StoreFiles } from './adopt.js';
import { sanitizePath, type Resolution } from './auto-memory.js';
import { listMarkdown } from './recall.js';
import { UsageError } from '../errors.js';
import { worktreeList } from '../git/repo.js';
import { listFiles } from '../git/status.js';
import { realOrResolved } from '../fs/paths.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { decodeMemoryText } from '../memdir/model.js';

export type StoreKind = 'worktree' | 'former-path' | 'default';

export interface StrayStore {
  /** The store folder (…/projects/<slug>/memory), without a trailing separator. */
  dir: string;
  slug: string;
  kind: StoreKind;
  /** Why it belongs to this repository, in a few words. */
  reason: string;
  /** `.md` files in it, MEMORY.md included, at any depth. */
  mdFiles: number;
  /** Newest mtime of those files, ISO 8601; null when there are none. */
  newest: string | null;
}

/** A name at the top of a repository that says nothing about which repository it is. */
const GENERIC_NAMES = new Set(['readme.md', 'package.json', 'package-lock.json', 'license', 'license.md', 'changelog.md', '.gitignore', 'claude.md', 'agents.md', 'tsconfig.json', 'makefile', 'dockerfile', '.env', 'index.ts', 'index.js', 'main.py', 'setup.py', 'cargo.toml', 'go.mod', 'pyproject.toml', 'yarn.lock', 'pnpm-lock.yaml']);

const PATH_TOKEN_RE = /[\w.@+-]+(?:\/[\w.@+-]+)*/g;

/**
 * Whether a store's text names this repository's files: at least one tracked file in a
 * subfolder (`src/lint/engine.ts`, also as the tail of an absolute path of the old location), or
 * at least two tracked files at the top whose names are not ones every project has.
 * Returns the files named (at most a few), or null when the evidence falls short.
 */
export function namedRepositoryFiles(texts: string[], tracked: Set<string>): string[] | null {
  const deep = new Set<string>();
  const top = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(PATH_TOKEN_RE)) {
      // A sentence's full stop is not part of the name.
      const parts = m[0].replace(/\.+$/, '').split('/').filter((s) => s !== '' && s !== '.');
      // Every tail of the token: /home/old/proj/src/a.ts names src/a.ts.
      for (let i = 0; i < parts.length; i++) {
        const tail = parts.slice(i).join('/');
        if (!tracked.has(tail)) continue;
        if (tail.includes('/')) deep.add(tail);
        else if (!GENERIC_NAMES.has(tail.toLowerCase())) top.add(tail);
        break;
      }
    }
  }
  if (deep.size >= 1 || top.size >= 2) return [...deep, ...top].slice(0, 3);
  return null;
}

function mdStats(dir: string): { mdFiles: number; newest: string | null; files: string[] } {
  const files = listMarkdown(dir, { includeEntrypoint: true });
  let newest = 0;
  for (const f of files) {
    try {
      newest = Math.max(newest, lstatSync(path.join(dir, f)).mtimeMs);
    } catch {
      // vanished meanwhile
    }
  }
  return { mdFiles: files.length, newest: files.length && newest ? new Date(newest).toISOString() : null, files };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory() && !lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

export interface StoreSearch {
  resolution: Resolution;
  /** Paths of the repository's linked worktrees (`git worktree list`), the main one excluded. */
  worktrees: string[];
  /** Tracked files of the repository, asked for only when a slug looks like a former path. */
  trackedFiles: () => Set<string>;
}

/**
 * The stores under <memory base>/projects/ that belong to this repository and are not the one in
 * use, each with its .md count and newest mtime. A store with no .md file holds nothing to adopt
 * and is not listed.
 * - worktree: keyed by the path of a linked worktree that `git worktree list` shows;
 * - former-path: keyed by a path that is no longer this repository's but looks like it (the slug
 *   starts with the repository's slug and a "-", as a removed worktree or a sibling checkout's
 *   does, or ends with "-" and the repository folder's own name, as a moved folder's does), and
 *   whose Markdown names this repository's files (namedRepositoryFiles);
 * - default: the store keyed by the repository itself, when the override or autoMemoryDirectory
 *   sends Claude Code elsewhere.
 */
export function findStrayStores(search: StoreSearch): StrayStore[] {
  const r = search.resolution;
  const projects = path.join(r.memoryBaseDir, 'projects');
  const inUse = realOrResolved(r.resolved.replace(/[/\\]+$/, ''));
  const rootSlug = r.slug;
  const nameSlug = sanitizePath(path.basename(r.canonicalRoot));
  const worktreeSlugs = new Map<string, string>();
  for (const w of search.worktrees) {
    for (const p of new Set([w, realOrResolved(w)])) if (sanitizePath(p) !== rootSlug) worktreeSlugs.set(sanitizePath(p), p);
  }
  let slugs: string[];
  try {
    slugs = readdirSync(projects).sort();
  } catch {
    return [];
  }
  const out: StrayStore[] = [];
  let tracked: Set<string> | null = null;
  for (const slug of slugs) {
    const dir = path.join(projects, slug, 'memory');
    if (!isDir(dir) || realOrResolved(dir) === inUse) continue;
    let kind: StoreKind | null = null;
    let reason = '';
    if (slug === rootSlug) {
      kind = 'default';
      reason = `the default store of this repository; Claude Code uses ${r.resolved} instead (${r.source})`;
    } else if (worktreeSlugs.has(slug)) {
      kind = 'worktree';
      reason = `keyed by the linked worktree ${worktreeSlugs.get(slug)}`;
    } else if (slug.startsWith(`${rootSlug}-`) || (nameSlug !== '' && slug.endsWith(`-${nameSlug}`))) {
      const stats = mdStats(dir);
      if (stats.mdFiles === 0) continue;
      const texts: string[] = [];
      for (const f of stats.files) {
        try {
          texts.push(readFileSync(path.join(dir, f), 'utf8').slice(0, 256 * 1024));
        } catch {
          // unreadable: no evidence from it
        }
      }
      tracked ??= search.trackedFiles();
      const named = namedRepositoryFiles(texts, tracked);
      if (!named) continue;
      kind = 'former-path';
      reason = `keyed by a former path of this repository (its memory names ${named.join(', ')})`;
    }
    if (!kind) continue;
    const { mdFiles, newest } = mdStats(dir);
    if (mdFiles === 0) continue;
    out.push({ dir, slug, kind, reason, mdFiles, newest });
  }
  return out;
}

/** findStrayStores for a resolution, asking git for the worktrees and the tracked files. */
export function strayStoresOf(resolution: Resolution, env: NodeJS.ProcessEnv): StrayStore[] {
  const root = resolution.gitRoot;
  if (!root) return [];
  const canonical = realOrResolved(resolution.canonicalRoot);
  const worktrees = worktreeList({ cwd: root, env })
    .filter((w) => !w.bare && realOrResolved(w.path) !== canonical)
    .map((w) => w.path);
  return findStrayStores({ resolution, worktrees, trackedFiles: () => new Set(listFiles({ cwd: root, env }, { untracked: false })) });
}

const MAX_BYTES = 4 * 1024 * 1024;

/** A store's Markdown, read without following a symlink anywhere below the store folder. */
export async function readStore(dir: string): Promise<StoreFiles> {
  const files = new Map<string, string>();
  const unreadable: Array<{ rel: string; reason: string }> = [];
  for (const rel of listMarkdown(dir, { includeEntrypoint: true })) {
    const abs = path.join(dir, ...rel.split('/'));
    try {
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) {
        unreadable.push({ rel, reason: 'a symlink: not followed' });
        continue;
      }
      if (!st.isFile()) continue;
      if (st.size > MAX_BYTES) {
        unreadable.push({ rel, reason: 'larger than 4 MB: not a memory' });
        continue;
      }
      const decoded = decodeMemoryText(readFileSync(abs));
      if ('problem' in decoded) unreadable.push({ rel, reason: decoded.problem });
      else files.set(rel, decoded.text);
    } catch (err) {
      unreadable.push({ rel, reason: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
    }
  }
  return { dir, files, unreadable };
}

/** The store folder a user names: the folder itself, or its memory/ when it is a project folder. */
export function storeFolder(given: string, cwd: string): string {
  const abs = path.resolve(cwd, given);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new UsageError(`no such store: ${given}`);
  }
  if (!st.isDirectory()) throw new UsageError(`not a folder: ${given} (name the store folder, …/projects/<slug>/memory)`);
  const inner = path.join(abs, 'memory');
  if (!existsSync(path.join(abs, INDEX_FILE)) && existsSync(inner) && statSync(inner).isDirectory()) return inner;
  return abs;
}
