// Parsers of git's output, pure: shared by the synchronous and the asynchronous git calls that
// read the same kind of answer, and by the launcher (dist/cli.js), which loads no more than this
// and src/git/run.ts to read the staged change.

export function splitZ(s: string): string[] {
  return s.split('\0').filter((x) => x !== '');
}

/** An entry of git's index, the staging area (memlint's "index" alone is MEMORY.md: src/memdir). */
export interface GitIndexEntry {
  /** '100644', '100755', '120000' (symlink) or '160000' (submodule). */
  mode: string;
  object: string;
  /** Repository-relative with --full-name, else relative to the folder git ran in. */
  path: string;
}

/** Parse `git ls-files -s -z` output, keeping stage 0 (merged) entries. */
export function parseStageEntries(out: string): GitIndexEntry[] {
  const entries: GitIndexEntry[] = [];
  for (const rec of splitZ(out)) {
    const tab = rec.indexOf('\t');
    const [mode, object, stage] = rec.slice(0, tab).split(' ');
    if (stage !== '0') continue;
    entries.push({ mode: mode!, object: object!, path: rec.slice(tab + 1) });
  }
  return entries;
}

/** Split `git cat-file --batch` output into the objects asked for, in order. */
export function parseCatFileBatch(stdout: Buffer, specs: string[]): Map<string, Buffer | null> {
  const result = new Map<string, Buffer | null>();
  let pos = 0;
  for (const spec of specs) {
    const nl = stdout.indexOf(10, pos);
    if (nl < 0) {
      result.set(spec, null);
      continue;
    }
    const header = stdout.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(spec, null);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    result.set(spec, stdout.subarray(pos, pos + size));
    pos += size + 1;
  }
  return result;
}

/** `git diff --cached --name-status -z --no-renames` output: each staged path with its status letter. */
export function parseNameStatus(out: string): Map<string, string> {
  const parts = out.split('\0');
  const status = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] && parts[i + 1]) status.set(parts[i + 1]!, parts[i]![0]!);
  return status;
}

/** Paths `git ls-tree -z` lists as files (blobs or symlinks), not folders or submodules. */
export function filesInTree(out: string): Set<string> {
  const files = new Set<string>();
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab > 0 && rec.slice(0, tab).split(' ')[1] === 'blob') files.add(rec.slice(tab + 1));
  }
  return files;
}

/** `git config --get` as an answer: the value (its newline taken off), or null when the key is unset. */
export function parseConfigGet(r: { code: number; stdout: Buffer }): string | null {
  return r.code === 0 ? r.stdout.toString('utf8').replace(/\n$/, '') : null;
}

/**
 * A config key as `git config --list` names it: section and variable name lowercased, a
 * subsection as written (`core.hooksPath` -> `core.hookspath`, `merge.Memlint.driver` keeps `Memlint`).
 */
export function configKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}.${key.slice(last + 1).toLowerCase()}`;
}

/**
 * `git config -z --list` output: each key (as configKey names it) and its last value, as
 * `git config --get` gives it; a key written with no value (a bare boolean) reads ''.
 */
export function parseConfigList(out: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const entry of splitZ(out)) {
    const nl = entry.indexOf('\n');
    values.set(nl === -1 ? entry : entry.slice(0, nl), nl === -1 ? '' : entry.slice(nl + 1));
  }
  return values;
}

/** `git status --porcelain=v1 -z --no-renames` output: the path of each entry. */
export function parseStatusPaths(out: string): string[] {
  return splitZ(out)
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3));
}

/** `git check-attr -z` output for one attribute: each path's value ('unspecified', 'unset', 'set' or the value). */
export function parseCheckAttr(out: string): Map<string, string> {
  const parts = out.split('\0');
  const values = new Map<string, string>();
  for (let i = 0; i + 2 < parts.length; i += 3) values.set(parts[i]!, parts[i + 2]!);
  return values;
}

/**
 * `git log --format=%x01<fields> --name-only -z` output, with -c too: each commit's fields and the
 * paths it lists, newest first. A record is "\x01<fields>\0" and then its paths, each ended by
 * "\0", the first after a "\n" (a combined diff of a merge has a second "\0" there instead).
 */
export function parseLogRecords(out: string): Array<{ fields: string; paths: string[] }> {
  const records: Array<{ fields: string; paths: string[] }> = [];
  for (const part of out.split('\x01')) {
    if (part === '') continue;
    const end = part.indexOf('\0');
    const fields = end < 0 ? part : part.slice(0, end);
    const rest = end < 0 ? '' : part.slice(end + 1);
    records.push({ fields, paths: splitZ(rest.replace(/^[\n\0]/, '')) });
  }
  return records;
}

/** The deepest folder holding every repository path ('' for the top). */
export function commonFolder(paths: string[]): string {
  let parts = paths[0]!.split('/').slice(0, -1);
  for (const p of paths) {
    const q = p.split('/');
    let k = 0;
    while (k < parts.length && k < q.length - 1 && parts[k] === q[k]) k++;
    parts = parts.slice(0, k);
  }
  return parts.join('/');
}
