// What files hold: blobs by any object name (`readBlobs`, one `git cat-file --batch`), the files of
// a commit's tree, and which strings occur in the tracked files. Every function takes the folder
// it works in and the environment git runs with (a GitContext). The launcher (dist/cli.js) reads --staged's blobs with it.
import { commonFolder, parseCatFileBatch, splitZ } from './parse.js';
import { git, gitAsync, gitSync, orNull } from './run.js';
import type { GitContext } from './repo.js';

const NULL_ID = '0'.repeat(40);
const revParseArgs = (spec: string) => ['rev-parse', '-q', '--verify', spec];
const batchArgs = ['cat-file', '--batch'];
const batchInput = (names: string[]) => names.join('\n') + '\n';
const bySpec = (specs: string[], names: string[], stdout: Buffer) => {
  const byName = parseCatFileBatch(stdout, names);
  return new Map(specs.map((spec, i) => [spec, byName.get(names[i]!) ?? null]));
};

/**
 * Read many objects in one `git cat-file --batch` call. Specs are object names: an object id,
 * ":path" (the staged blob) or "HEAD:path". Missing objects come back as null. cat-file reads one
 * name a line: a spec with a line break in it is named by its object id instead, which rev-parse
 * finds from it (the null id, which git reports missing, when there is none).
 */
export function readBlobs(at: GitContext, specs: string[]): Map<string, Buffer | null> {
  if (specs.length === 0) return new Map();
  const names = byBlobIds(
    at,
    specs.map((spec) => (spec.includes('\n') ? (orNull(() => git(revParseArgs(spec), at).trim()) ?? NULL_ID) : spec)),
  );
  return bySpec(specs, names, gitSync(batchArgs, { cwd: at.cwd, env: at.env, input: batchInput(names) }).stdout);
}

// A `<rev>:<path>` name makes git find the path from the tree's root, reading each folder on the
// way entry by entry: many names in one large folder read it once per name (46,000 topics changed
// by one commit: minutes). Where many names share a revision, they are named by their blob ids
// instead, from one listing of the folder that holds them all.
const MANY_NAMES = 64;
const REV_PATH_RE = /^([^:\n]+):(?!\.{0,2}\/)([^\n]+)$/;

function byBlobIds(at: GitContext, names: string[]): string[] {
  const out = [...names];
  for (const listing of listingsFor(names)) {
    const listed = orNull(() => gitSync(listing.args, { cwd: at.cwd, env: at.env }).stdout.toString('utf8'));
    if (listed !== null) nameByIds(out, listing, listed);
  }
  return out;
}

/** byBlobIds, without blocking: the launcher's read of --staged's blobs. */
async function byBlobIdsAsync(at: GitContext, names: string[]): Promise<string[]> {
  const out = [...names];
  const listings = listingsFor(names);
  const listed = await Promise.all(listings.map((l) => gitAsync(l.args, { cwd: at.cwd, env: at.env }).then((r) => r.stdout.toString('utf8'), () => null)));
  listings.forEach((l, k) => listed[k] !== null && nameByIds(out, l, listed[k]!));
  return out;
}

interface Listing {
  /** The `git ls-tree` that lists the folder holding them. */
  args: string[];
  /** Where the names are in the list, and their paths. */
  indexes: number[];
  paths: string[];
}

/** The revisions many names share, each with the listing that names their blobs. */
function listingsFor(names: string[]): Listing[] {
  const byRev = new Map<string, number[]>();
  names.forEach((name, i) => {
    const m = REV_PATH_RE.exec(name);
    if (!m) return;
    const same = byRev.get(m[1]!);
    if (same) same.push(i);
    else byRev.set(m[1]!, [i]);
  });
  const listings: Listing[] = [];
  for (const [rev, indexes] of byRev) {
    if (indexes.length < MANY_NAMES) continue;
    const paths = indexes.map((i) => REV_PATH_RE.exec(names[i]!)![2]!);
    const folder = commonFolder(paths);
    listings.push({ args: ['--literal-pathspecs', 'ls-tree', '-r', '-t', '-z', '--full-tree', rev, ...(folder ? ['--', folder] : [])], indexes, paths });
  }
  return listings;
}

/** Name each of a listing's paths by its blob id in `out`. */
function nameByIds(out: string[], { indexes, paths }: Listing, listed: string): void {
  const ids = new Map<string, string>();
  const others = new Set<string>();
  for (const entry of splitZ(listed)) {
    const tab = entry.indexOf('\t');
    const [, type, id] = entry.slice(0, tab).split(' ');
    if (type === 'blob') ids.set(entry.slice(tab + 1), id!);
    else others.add(entry.slice(tab + 1));
  }
  // A path the listing holds as a folder or a submodule keeps its name (git says what it is);
  // one it does not hold is missing at that revision (asked by name, git would search for it).
  indexes.forEach((i, k) => (out[i] = ids.get(paths[k]!) ?? (others.has(paths[k]!) ? out[i]! : NULL_ID)));
}


/** readBlobs, without blocking: the launcher reads the staged blobs while the program loads. */
export async function readBlobsAsync(at: GitContext, specs: string[]): Promise<Map<string, Buffer | null>> {
  if (specs.length === 0) return new Map();
  const names = await byBlobIdsAsync(
    at,
    await Promise.all(specs.map((spec) => (spec.includes('\n') ? gitAsync(revParseArgs(spec), at).then((r) => r.stdout.toString('utf8').trim(), () => NULL_ID) : spec))),
  );
  return bySpec(specs, names, (await gitAsync(batchArgs, { cwd: at.cwd, env: at.env, input: batchInput(names) })).stdout);
}

/** Every file of a commit's tree, repository-relative. */
export async function treeFiles(at: GitContext, commit: string): Promise<string[]> {
  return splitZ((await gitAsync(['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit], at)).stdout.toString('utf8'));
}


// git grep tries each string on each line: past a few strings, every line is read here once instead.
const FEW_STRINGS = 16;

/**
 * Which of these strings occur in a tracked file of the working tree outside `excludeDir`
 * (repository-relative; '' for none): one `git grep`, which prints the lines holding any of a
 * few strings (or every line, for more), searched here for each string. (`git grep -o` printed
 * one match where strings overlapped, so a string's answer depended on the others asked with it.)
 */
export function stringsInTrackedFiles(at: GitContext, needles: string[], excludeDir = ''): Set<string> {
  const unique = [...new Set(needles.filter((n) => n !== '' && !n.includes('\n')))];
  if (unique.length === 0) return new Set();
  const grep = (few: boolean): Buffer | null => {
    const args = ['grep', '-h', '-I', '--no-color', ...(few ? ['-F', '-f', '-'] : ['-e', '']), '--', '.'];
    if (excludeDir) args.push(`:(exclude)${excludeDir}`);
    try {
      return gitSync(args, { cwd: at.cwd, env: at.env, ...(few ? { input: unique.join('\n') + '\n' } : {}), okCodes: [0, 1] }).stdout;
    } catch {
      return null;
    }
  };
  // Every line of a repository too large to hold (past the runner's 1 GiB): the lines holding the strings only.
  const out = (unique.length > FEW_STRINGS ? grep(false) : null) ?? grep(true);
  return out === null ? new Set() : stringsInText(unique, out);
}

const WINDOW = 8;
const BASE = 257;
// BASE to the power WINDOW - 1, for rolling a window on by one byte.
const TOP = Array.from({ length: WINDOW - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);

/** The hash of each WINDOW-byte window of `b` from `from` to `to` (window starts). */
function windowHashes(b: Buffer, from: number, to: number, each: (start: number, hash: number) => boolean | void): void {
  if (to < from) return;
  let h = 0;
  for (let j = 0; j < WINDOW; j++) h = (Math.imul(h, BASE) + b[from + j]!) | 0;
  for (let i = from; ; i++) {
    if (each(i, h) === false || i === to) return;
    h = (Math.imul(h - Math.imul(b[i]!, TOP), BASE) + b[i + WINDOW]!) | 0;
  }
}

/**
 * Which of these strings (none empty) occur in a text, compared as UTF-8 bytes. Each string is
 * filed under the hash of one of its 8-byte windows, the one fewest strings share (lines of code
 * start alike: `const v`), and the text's windows are looked up by a rolling hash: the text is read
 * once, however many strings there are. Strings under 8 bytes are searched for one by one.
 */
export function stringsInText(needles: string[], text: Buffer): Set<string> {
  const found = new Set<string>();
  const long: Array<{ n: string; bytes: Buffer; offset: number }> = [];
  for (const n of new Set(needles)) {
    const bytes = Buffer.from(n, 'utf8');
    if (bytes.length >= WINDOW) long.push({ n, bytes, offset: 0 });
    else if (text.includes(bytes)) found.add(n);
  }
  const byHash = new Map<number, typeof long>();
  // Which low 16 bits some string's hash has: most places are passed over on one array read.
  const maybe = new Uint8Array(1 << 16);
  for (const w of long) {
    let best = { count: Infinity, hash: 0, offset: 0 };
    windowHashes(w.bytes, 0, w.bytes.length - WINDOW, (offset, hash) => {
      const count = byHash.get(hash)?.length ?? 0;
      if (count < best.count) best = { count, hash, offset };
      return count > 0;
    });
    w.offset = best.offset;
    const same = byHash.get(best.hash);
    if (same) same.push(w);
    else byHash.set(best.hash, [w]);
    maybe[best.hash & 0xffff] = 1;
  }
  let left = long.length;
  windowHashes(text, 0, text.length - WINDOW, (i, hash) => {
    if (maybe[hash & 0xffff] === 0) return;
    const candidates = byHash.get(hash);
    if (!candidates) return;
    for (let c = 0; c < candidates.length; c++) {
      const { n, bytes, offset } = candidates[c]!;
      const start = i - offset;
      if (start < 0 || start + bytes.length > text.length) continue;
      let j = 0;
      while (j < bytes.length && text[start + j] === bytes[j]) j++;
      if (j < bytes.length) continue;
      // Found once is enough: it leaves its list, so a string found again costs nothing.
      found.add(n);
      candidates[c--] = candidates[candidates.length - 1]!;
      candidates.pop();
      left--;
    }
    return left > 0;
  });
  return found;
}
