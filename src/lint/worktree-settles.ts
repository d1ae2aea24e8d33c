// What `git add` would settle, for --staged's stylish report: the staged lint run again on the
// index as it would be with the working-tree versions of the files it found problems in.
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { checkInsideRepo } from '../fs/inside.js';
import { lintMemdirs, type EnabledRule, type LintRunOptions } from './engine.js';
import type { StagedSnapshot } from '../memdir/staged-snapshot.js';
import { slashRelative } from '../fs/paths.js';

/**
 * With --staged, the files whose problems `git add FILE` would settle: the staged lint run again on
 * the index as it would be with those files' working-tree versions staged. Only the index counts:
 * a file on disk that it lacks (left untracked by `git rm --cached`, or never added) settles
 * nothing, so staging another file is not advised for it. Run only when the staged lint found something.
 */
export async function settledByWorkingTree(
  staged: Array<{ filePath: string; messages: Array<{ ruleId: string | null }> }>,
  memdirs: LintRunOptions['memdirs'],
  rules: EnabledRule[],
  today: Date,
  ignore: ((abs: string) => boolean) | undefined,
  snapshot: StagedSnapshot,
  env: NodeJS.ProcessEnv,
): Promise<Set<string>> {
  // no-memory-loss judges the staged change itself: no file's working-tree version settles it.
  const judged = (ruleId: string | null) => ruleId !== null && ruleId !== 'no-memory-loss';
  const candidates = new Set(staged.filter((r) => r.messages.length > 0 && r.messages.every((m) => judged(m.ruleId))).map((r) => r.filePath));
  if (candidates.size === 0) return candidates;
  const root = snapshot.root;
  const entries = memdirs.flatMap((d) => snapshot.listing(slashRelative(root, d.dir)));
  // A symlink, or a path through one, is left as staged: nothing is read through it.
  const wanted = entries.filter((e) => candidates.has(resolvePath(root, e.path)) && e.mode !== '120000' && checkInsideRepo(root, resolvePath(root, e.path)).ok);
  const stagedBytes = snapshot.contents(wanted);
  const files = new Map<string, Buffer>();
  for (const e of wanted) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(resolvePath(root, e.path));
    } catch {
      continue; // gone from the working tree: staging it deletes it, which settles nothing here
    }
    // The same bytes as staged: staging it changes nothing.
    if (!stagedBytes.get(e.path)?.equals(bytes)) files.set(e.path, bytes);
  }
  // The index as it is: the staged lint's own findings again, so nothing is settled.
  if (files.size === 0) return new Set();
  const added = await lintMemdirs({ memdirs, env, rules, fix: false, source: 'staged', ignore, today, staged: snapshot.withFiles(files) });
  const settled = new Map(added.results.map((r) => [r.filePath, r.messages.every((m) => m.ruleId === 'no-memory-loss')]));
  return new Set([...candidates].filter((p) => settled.get(p) === true));
}
