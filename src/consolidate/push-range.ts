// What a push sends: git's pre-push stdin, and the files the pushed commits change. On its own so
// that the launcher's fast path (no Markdown in the push) loads nothing else. Whichever side reads
// the push first (the launcher, dist/cli.js, before the program loads; the program itself when
// started without it) makes the one PushSource, and the launcher passes it down
// (src/commands/given.ts).
import { filesChangedBetween, filesChangedIn, filesOfCommit } from '../git/history.js';
import { repository, type GitContext, type Repository } from '../git/repo.js';

export interface PushUpdate {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

/** A push with memory in it: what git said it sends, the repository, the files its commits change. */
export interface PushSource {
  updates: PushUpdate[];
  repo: Repository;
  /** Repository-relative paths the pushed commits change; at least one is Markdown. */
  changed: string[];
}

export const NO_PUSHED_MEMORY = 'no pushed memory';

/**
 * The push git's pre-push `stdin` describes, run from `cwd`: NO_PUSHED_MEMORY when it sends no
 * commits, outside a repository, or when its commits change no Markdown file (or git cannot say
 * which files they change). Two git calls.
 */
export function pushSource(from: GitContext, stdin: string): PushSource | typeof NO_PUSHED_MEMORY {
  const updates = parsePushInput(stdin);
  if (updates.length === 0) return NO_PUSHED_MEMORY;
  const repo = repository(from);
  if (repo === null) return NO_PUSHED_MEMORY;
  const changed = changedInPush({ cwd: repo.root, env: from.env }, updates);
  return changed === null || !changed.some((p) => p.endsWith('.md')) ? NO_PUSHED_MEMORY : { updates, repo, changed };
}

export function parsePushInput(text: string): PushUpdate[] {
  const updates: PushUpdate[] = [];
  for (const line of text.split('\n')) {
    const [localRef, localSha, remoteRef, remoteSha] = line.trim().split(/\s+/);
    if (localRef && localSha && remoteRef && remoteSha) updates.push({ localRef, localSha, remoteRef, remoteSha });
  }
  return updates;
}

/** Files changed by the commits being pushed (`<local> ^<remote>` for each ref; new refs: not on any remote). */
export function changedInPush(at: GitContext, updates: Array<{ localSha: string; remoteSha: string }>): string[] | null {
  const zero = /^0+$/;
  const positives = updates.filter((u) => !zero.test(u.localSha)).map((u) => u.localSha);
  if (positives.length === 0) return [];
  const negatives = updates.filter((u) => !zero.test(u.remoteSha)).map((u) => `^${u.remoteSha}`);
  const newRef = updates.some((u) => zero.test(u.remoteSha) && !zero.test(u.localSha));
  if (positives.length === 1 && negatives.length === 1 && !newRef) {
    // The usual push, one branch moving forward: what its tree changed (two trees compared, no walk).
    try {
      return filesChangedBetween(at, negatives[0]!.slice(1), positives[0]!);
    } catch {
      // the remote commit is unknown here (a force-push elsewhere): fall through to the walk
    }
  }
  try {
    return filesChangedIn(at, [...positives, ...negatives, ...(newRef ? ['--not', '--remotes'] : [])]);
  } catch {
    try {
      // A remote commit we do not have (someone force-pushed): compare with what we know of remotes.
      return filesChangedIn(at, [...positives, '--not', '--remotes']);
    } catch {
      return null;
    }
  }
}

/** The files HEAD's commit (the one a post-commit hook follows) changes; null when git cannot say. One git call. */
export function headCommitFiles(at: GitContext): string[] | null {
  try {
    return filesOfCommit(at, 'HEAD');
  } catch {
    return null;
  }
}
