// What a push sends, linted for the two findings that must never reach the remote: conflict
// markers and secrets. git's sequencer commits `rebase --continue`, cherry-picks and merges without
// the pre-commit hook, and `--no-verify` skips it, so the pre-push hook (consolidate --pre-push)
// reads each memory file as each pushed commit left it, with the same two rules lint runs.
import { join } from 'node:path';
import { readBlobs } from '../git/blobs.js';
import { filesAddedIn, type CommitFile } from '../git/history.js';
import { isWithin, slashRelative } from '../fs/paths.js';
import { fileKind, isMemoryPath } from '../memdir/kinds.js';
import { createModel, decodeMemoryText } from '../memdir/model.js';
import type { MemoryFile } from '../memdir/types.js';
import { fileRun, runRule, type EnabledRule, type LintMessage } from './engine.js';
import { createRepoFacts } from './repo-facts.js';
import type { GitContext } from '../git/repo.js';

/** The rules a push is refused for (each as config sets it; off or a warning refuses nothing). */
export const PUSH_RULES = ['no-conflict-markers', 'no-secrets'];

export interface PushFinding {
  /** Repository-relative path. */
  file: string;
  commit: string;
  message: LintMessage;
}

/**
 * The revisions a push sends, as `git log` takes them: each pushed tip, less what the remote has
 * (a new branch: less what any remote has). Deleted refs send nothing.
 */
export function pushedRevisions(updates: Array<{ localSha: string; remoteSha: string }>): string[] {
  const zero = /^0+$/;
  const tips = updates.filter((u) => !zero.test(u.localSha)).map((u) => u.localSha);
  if (tips.length === 0) return [];
  const known = updates.filter((u) => !zero.test(u.remoteSha)).map((u) => `^${u.remoteSha}`);
  const newRef = updates.some((u) => zero.test(u.remoteSha) && !zero.test(u.localSha));
  return [...tips, ...known, ...(newRef ? ['--not', '--remotes'] : [])];
}

function addedFiles(at: GitContext, updates: Array<{ localSha: string; remoteSha: string }>): CommitFile[] {
  const revisions = pushedRevisions(updates);
  if (revisions.length === 0) return [];
  try {
    return filesAddedIn(at, revisions);
  } catch {
    // A remote commit unknown here (someone force-pushed): what no remote we know of has.
    return filesAddedIn(at, [...revisions.filter((r) => !r.startsWith('^') && r !== '--not' && r !== '--remotes'), '--not', '--remotes']);
  }
}

/**
 * Error findings of `rules` (PUSH_RULES among the enabled ones) in the memory files the pushed
 * commits add or change, inside `memdirs` (absolute): each file version read once, named with the
 * first pushed commit that holds it.
 */
export async function lintPushed(at: GitContext, updates: Array<{ localSha: string; remoteSha: string }>, memdirs: string[], rules: EnabledRule[], today: Date, debug?: (text: string) => void): Promise<PushFinding[]> {
  const root = at.cwd;
  const enabled = rules.filter((r) => PUSH_RULES.includes(r.rule.id) && r.severity === 2);
  if (enabled.length === 0 || memdirs.length === 0) return [];
  const seen = new Set<string>();
  const wanted: Array<CommitFile & { dir: string }> = [];
  for (const f of addedFiles(at, updates)) {
    if (!f.path.endsWith('.md') || f.path.split('/').includes('node_modules')) continue;
    const abs = join(root, f.path);
    // The nearest memdir holding it (a nested memdir's MEMORY.md belongs to that one).
    const dir = memdirs.filter((d) => isWithin(abs, d) && isMemoryPath(slashRelative(d, abs))).sort((a, b) => b.length - a.length)[0];
    if (!dir || seen.has(`${f.blob} ${f.path}`)) continue;
    seen.add(`${f.blob} ${f.path}`);
    wanted.push({ ...f, dir });
  }
  const blobs = readBlobs(at, [...new Set(wanted.map((f) => f.blob))]);
  const findings: PushFinding[] = [];
  const facts = new Map<string, ReturnType<typeof createRepoFacts>>();
  for (const f of wanted) {
    const buf = blobs.get(f.blob);
    if (!buf) continue;
    const decoded = decodeMemoryText(buf);
    if ('problem' in decoded) continue;
    const abs = join(root, f.path);
    const rel = slashRelative(f.dir, abs);
    const file: MemoryFile = { path: abs, rel, text: decoded.text, ...fileKind(rel) };
    const model = createModel(f.dir, [file], new Set([rel]));
    const repo = facts.get(f.dir) ?? facts.set(f.dir, createRepoFacts(at, f.dir)).get(f.dir)!;
    const run = fileRun(model, file, repo, null, today);
    if (debug) run.debug = debug;
    const messages: LintMessage[] = [];
    for (const r of enabled) if (r.rule.appliesTo.includes(file.kind)) await runRule(run, r, messages);
    for (const message of messages) if (message.severity === 2) findings.push({ file: f.path, commit: f.commit, message });
  }
  return findings;
}
