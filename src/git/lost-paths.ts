// What became of paths the repository no longer holds, for no-stale-reference and `memlint diff`:
// the renames and deletions of history (one `git log`, renames and deletions only: its output
// grows with what history took away, not with every file it ever added), of the change not
// committed yet (one `git diff`), which commits no ref reaches any more (one `git rev-list`),
// and, only for the loose renames a memory's path leads through, what their
// commits added (one `git show`). Name-status output only: no textconv, no external diff runs
// (contract §14).
import { git, GitError } from './run.js';
import type { GitContext } from './repo.js';

/** One rename or deletion: `from` left the tree, `to` is where a rename took it. */
export interface LossEvent {
  from: string;
  status: 'D' | 'R';
  to?: string;
  /**
   * A rename only: whether git's pairing is beyond doubt (RENAME_CERTAIN). git pairs a deleted
   * file with the most similar added one from 50% similarity on, so a package's package.json
   * can be paired with another package's that the same commit added. Undefined on a rename of
   * history that only its commit's additions can settle (settleRenames): loose until then.
   */
  certain?: boolean;
  /** The commit that made it, or null for the change not committed yet. */
  commit: string | null;
  /** Its committer date, YYYY-MM-DD (commits only). */
  date?: string;
}

const NO_CONVERSION = ['--no-textconv', '--no-ext-diff'];

/** The similarity (git's percentage) from which a rename is certain, unless it is ambiguous. */
export const RENAME_CERTAIN = 75;

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Parses `--name-status -z` records (status, path[, new path]) of one commit into its renames and
 * deletions. A rename is certain when git found the file unchanged, or at least RENAME_CERTAIN
 * similar with no other file of the new name arriving in the same commit (else git's choice
 * between them may be the wrong one). With `additions` the records list the commit's additions
 * too (which are not events) and every rename is judged; without, a rename the additions alone
 * can judge is left unsettled (certain undefined).
 */
function parseNameStatusZ(parts: string[], commit: string | null, date: string | undefined, out: LossEvent[], additions: boolean): void {
  const arrived = new Map<string, number>();
  const renames: Array<{ event: LossEvent; score: number }> = [];
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]!.replace(/^\n+/, '');
    if (status === '') continue;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = parts[i++]!;
      const to = parts[i++]!;
      arrived.set(baseName(to), (arrived.get(baseName(to)) ?? 0) + 1);
      if (status.startsWith('R')) {
        const event: LossEvent = { from, status: 'R', to, commit, ...(date ? { date } : {}) };
        renames.push({ event, score: Number(status.slice(1)) || 0 });
        out.push(event);
      }
    } else {
      const path = parts[i++]!;
      if (status === 'D') out.push({ from: path, status: 'D', commit, ...(date ? { date } : {}) });
      else if (status === 'A') arrived.set(baseName(path), (arrived.get(baseName(path)) ?? 0) + 1);
    }
  }
  for (const { event, score } of renames) {
    const alone = arrived.get(baseName(event.to!)) === 1;
    if (score === 100 || score < RENAME_CERTAIN || !alone || additions) event.certain = score === 100 || (score >= RENAME_CERTAIN && alone);
  }
}

/**
 * Renames and deletions of the commits `revs` names (default HEAD's history), newest first, with
 * rename detection. A merge commit shows none of its own (its parents' commits do). [] when git
 * cannot say (no commit yet). A rename git found 75-99% similar comes unsettled: settleRenames
 * judges the ones a caller needs.
 */
export function historyLosses(at: GitContext, revs: string[] = ['HEAD']): LossEvent[] {
  let out: string;
  try {
    out = git(['log', '-M', '--diff-filter=DR', '--name-status', '-z', '--format=%x01%H %cs', ...NO_CONVERSION, ...revs, '--'], at);
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  const events: LossEvent[] = [];
  for (const record of out.split('\x01')) {
    if (record === '') continue;
    const parts = record.split('\0');
    const [commit, date] = parts[0]!.trim().split(' ');
    parseNameStatusZ(parts.slice(1), commit!, date, events, false);
  }
  return events;
}

/**
 * Settles the unsettled renames among `events` (historyLosses): certain when no other file of
 * the new name arrived in the rename's commit. One `git show` of those commits' additions,
 * without rename detection, so a file renamed in (the rename's own target among them) counts as
 * arriving as `git log -M` counts it. Left loose when git cannot say.
 */
export function settleRenames(at: GitContext, events: LossEvent[]): void {
  const open = events.filter((e) => e.status === 'R' && e.certain === undefined && e.commit !== null);
  if (open.length === 0) return;
  const commits = [...new Set(open.map((e) => e.commit!))];
  const arrived = new Map<string, Map<string, number>>();
  try {
    const out = git(['show', '--no-renames', '--diff-filter=A', '--name-only', '-z', '--no-show-signature', '--format=%x01%H', ...NO_CONVERSION, ...commits, '--'], at);
    for (const record of out.split('\x01')) {
      if (record === '') continue;
      const parts = record.split('\0');
      const counts = new Map<string, number>();
      for (const p of parts.slice(1)) {
        const path = p.replace(/^\n+/, '');
        if (path !== '') counts.set(baseName(path), (counts.get(baseName(path)) ?? 0) + 1);
      }
      arrived.set(parts[0]!.trim(), counts);
    }
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
  }
  for (const e of open) e.certain = arrived.get(e.commit!)?.get(baseName(e.to!)) === 1;
}

/**
 * Renames and deletions the change not committed yet makes: the staged change against HEAD
 * (`staged`), or the working tree's tracked files against HEAD. [] without a HEAD.
 */
export function uncommittedLosses(at: GitContext, which: 'staged' | 'worktree'): LossEvent[] {
  const args = ['diff', ...(which === 'staged' ? ['--cached'] : []), '-M', '--diff-filter=ADR', '--name-status', '-z', ...NO_CONVERSION, 'HEAD', '--'];
  let out: string;
  try {
    out = git(args, at);
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  const events: LossEvent[] = [];
  parseNameStatusZ(out.split('\0'), null, undefined, events, true);
  return events;
}

/**
 * Of these commits (full ids), those no ref reaches: no branch, tag, remote branch or other ref
 * under refs/ (HEAD alone does not count, as `git name-rev` counts none). One
 * `git rev-list --stdin --not --glob=refs/*`: what the ids reach that no ref does; the ids are
 * given on its input, however many.
 */
export function unreachableCommits(at: GitContext, ids: string[]): Set<string> {
  const gone = new Set<string>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return gone;
  let out: string;
  try {
    out = git(['rev-list', '--stdin', '--not', '--glob=refs/*'], { ...at, input: unique.join('\n') + '\n' });
  } catch (err) {
    if (err instanceof GitError) return gone;
    throw err;
  }
  const wanted = new Set(unique);
  for (const id of out.split('\n')) if (wanted.has(id)) gone.add(id);
  return gone;
}

/** One memory file's `name:` lines a commit changed (no-stale-reference's `[[name]]` links). */
export interface NameChange {
  commit: string;
  /** Committer date, YYYY-MM-DD. */
  date: string;
  /** Repository-relative path before the commit; null when the commit added the file. */
  from: string | null;
  /** After it; null when the commit deleted the file. */
  to: string | null;
  /** `name:` values the commit took out of the frontmatter, and those it wrote. */
  removed: string[];
  added: string[];
}

// The frontmatter's `name:` line: at the top of a file, so only the first lines count.
const NAME_LINE = /^\s*name\s*:\s*(.*?)\s*$/;
const FRONTMATTER_LINES = 30;

function nameValue(raw: string): string {
  const v = raw.replace(/\s+#.*$/, '').trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1).trim() : v;
}

function unquotePath(p: string): string {
  if (!p.startsWith('"')) return p;
  try {
    return JSON.parse(p) as string;
  } catch {
    return p.slice(1, -1);
  }
}

/** Parses `git log -p -U0 --format=%x01%H %cs` output into the `name:` changes of each file diff (pure). */
export function parseNameChanges(out: string): NameChange[] {
  const changes: NameChange[] = [];
  for (const record of out.split('\x01')) {
    if (record.trim() === '') continue;
    const lines = record.split('\n');
    const [commit, date] = lines[0]!.trim().split(' ');
    let cur: NameChange | null = null;
    let oldLine = 0;
    let newLine = 0;
    let inHunks = false;
    const flush = () => {
      if (cur && (cur.removed.length > 0 || cur.added.length > 0 || cur.from !== cur.to)) changes.push(cur);
    };
    for (const line of lines.slice(1)) {
      if (line.startsWith('diff --git ')) {
        flush();
        cur = { commit: commit!, date: date ?? '', from: null, to: null, removed: [], added: [] };
        inHunks = false;
        continue;
      }
      if (!cur) continue;
      if (!inHunks) {
        if (line.startsWith('--- ')) cur.from = line === '--- /dev/null' ? null : unquotePath(line.slice(4).replace(/\t$/, '')).replace(/^a\//, '');
        else if (line.startsWith('+++ ')) cur.to = line === '+++ /dev/null' ? null : unquotePath(line.slice(4).replace(/\t$/, '')).replace(/^b\//, '');
        else if (line.startsWith('rename from ')) cur.from = unquotePath(line.slice(12));
        else if (line.startsWith('rename to ')) cur.to = unquotePath(line.slice(10));
      }
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk) {
        inHunks = true;
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        // An empty side (`-0,0` / `+0,0`) starts before line 1.
        if (/^@@ -\d+,0 /.test(line)) oldLine++;
        if (/ \+\d+,0 @@/.test(line)) newLine++;
        continue;
      }
      if (!inHunks) continue;
      if (line.startsWith('-')) {
        const m = oldLine <= FRONTMATTER_LINES ? NAME_LINE.exec(line.slice(1)) : null;
        if (m && nameValue(m[1]!)) cur.removed.push(nameValue(m[1]!));
        oldLine++;
      } else if (line.startsWith('+')) {
        const m = newLine <= FRONTMATTER_LINES ? NAME_LINE.exec(line.slice(1)) : null;
        if (m && nameValue(m[1]!)) cur.added.push(nameValue(m[1]!));
        newLine++;
      }
    }
    flush();
  }
  return changes;
}

/**
 * How far back `[[name]]` links are followed: the newest this many commits that touched the
 * memory folder. The `git log -G` below diffs every commit it walks, so without a bound the cost
 * of a run with one dangling link (the PostToolUse hook's, the language server's) would grow with
 * the folder's whole history. A memory renamed or removed further back is not followed: a link to
 * it reads as one to a memory not written yet, which is not reported.
 */
export const NAME_HISTORY_COMMITS = 500;

/**
 * Every commit among the newest `limit` (NAME_HISTORY_COMMITS) of HEAD's history that touched the
 * memory folder `memdirRel` (repository-relative) and changed a `name:` line of a memory in it,
 * oldest first: one `git rev-list` bounds the walk, one `git log -G` of those commits, its
 * patches cut to the changed lines. A memory moved out of the folder (to the archive) reads as
 * deleted. [] when git cannot say.
 */
export function memoryNameChanges(at: GitContext, memdirRel: string, limit = NAME_HISTORY_COMMITS): NameChange[] {
  const spec = `:(literal)${memdirRel === '' ? '.' : memdirRel}`;
  let out: string;
  try {
    const commits = git(['rev-list', `--max-count=${limit}`, 'HEAD', '--', spec], at);
    if (commits.trim() === '') return [];
    out = git(['log', '--stdin', '--no-walk=unsorted', '--reverse', '-M', '-p', '-U0', '--no-color', '--src-prefix=a/', '--dst-prefix=b/', '--no-show-signature', '-G', '^[[:space:]]*name[[:space:]]*:', '--format=%x01%H %cs', ...NO_CONVERSION, '--', spec], { ...at, input: commits });
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  return parseNameChanges(out);
}

/** The lines one commit took out of and wrote into one file (a `-U0` patch, headers aside). */
export interface CommitLines {
  commit: string;
  removed: string[];
  added: string[];
}

/** Parses `git show -U0 --format=%x01%H` output into each file diff's removed and added lines (pure). */
export function parseCommitLines(out: string): CommitLines[] {
  const diffs: CommitLines[] = [];
  for (const record of out.split('\x01')) {
    if (record.trim() === '') continue;
    const lines = record.split('\n');
    const commit = lines[0]!.trim();
    let cur: CommitLines | null = null;
    let inHunks = false;
    for (const line of lines.slice(1)) {
      if (line.startsWith('diff --git ')) {
        cur = { commit, removed: [], added: [] };
        diffs.push(cur);
        inHunks = false;
      } else if (cur && line.startsWith('@@ ')) inHunks = true;
      else if (cur && inHunks && line.startsWith('-')) cur.removed.push(line.slice(1));
      else if (cur && inHunks && line.startsWith('+')) cur.added.push(line.slice(1));
    }
  }
  return diffs;
}

/**
 * The lines holding `[[` links that these commits changed in the memory folder (one `git show`),
 * for telling a memory merged into another (its links rewritten in the same commit) from one
 * removed. [] when git cannot say.
 */
export function linkLineChanges(at: GitContext, commits: string[], memdirRel: string): CommitLines[] {
  if (commits.length === 0) return [];
  let out: string;
  try {
    out = git(['show', '-U0', '--no-color', '--src-prefix=a/', '--dst-prefix=b/', '--no-show-signature', '-G', '\\[\\[', '--format=%x01%H', ...NO_CONVERSION, ...commits, '--', `:(literal)${memdirRel === '' ? '.' : memdirRel}`], at);
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  return parseCommitLines(out);
}
