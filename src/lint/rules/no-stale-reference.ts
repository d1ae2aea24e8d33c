import { bodyStart, descriptionSpan, lineOf } from '../content-scan.js';
import { codeLineSet } from '../../memdir/blocks.js';
import { commitReferences, namedAsFormer, pathReferences, rewritten, stalePathMessage, toldAsHistory, type PathFate, type PathReference } from '../stale.js';
import type { Fix, RepoFacts, Rule, RuleContext, Suggestion } from '../types.js';
import type { MemdirModel } from '../../memdir/types.js';
import { linkTargets, wikiLinks } from '../../memdir/links.js';
import { staleLinkMessage } from '../stale-links.js';
import { isShallowDate, type LineDate } from '../../git/line-dates.js';

/**
 * no-stale-reference: a memory that points to a file, a folder or a commit the repository held
 * and no longer holds at the revision checked (the working tree; the staged tree with --staged;
 * a pull request's head in CI). Claude Code tells its agent to treat memories "as past snapshots
 * to verify against current sources"; this says which snapshot went out of date, when the code
 * moved. A path renamed in history: the message names the new path and the commit, and --fix
 * writes the new path in place of the old (a rename is certain, and not between two names that
 * differ only in a content hash; nothing else is fixed). A path
 * deleted: the message names the deleting commit. A path the repository never held (a plan,
 * another repository, a URL) is not stale, and neither is a path inside fenced code, a link
 * destination (relative to the memory file) or a daily log (a record of what happened), nor a
 * deleted path the line tells as history ("left", "was", a **Why:** line) or a history file names. A commit
 * id is stale when the object is still in the repository but no branch, tag or remote ref reaches
 * it (a rebase, a squash, a deleted branch); an id git never had is not reported.
 *
 * A `[[name]]` link to a memory that a commit renamed (its `name:` changed, or its file moved with
 * a new name) or removed (deleted, or moved out of the folder by consolidation) is reported the
 * same way: the new name (fixed when a memory holds it now) or the removing commit. A link that
 * never matched a memory is not: Claude Code 2.1.332 tells the agent such a link "marks something
 * worth writing later, not an error".
 *
 * With --staged, a memory file the staged change does not touch is read when it names a path the
 * change renames or deletes, and only what that change does is reported on it.
 *
 * Certainty: high for paths (git's own rename and deletion records), medium for commit ids; a
 * warning all the same: the memory may describe the past on purpose.
 */
export const noStaleReference: Rule = {
  id: 'no-stale-reference',
  description: 'No path, commit or [[memory]] the repository held and no longer holds',
  defaultSeverity: 'warn',
  fixable: true,
  appliesTo: ['index', 'topic'],
  certainty: 'high',
  docs: {
    ok: {
      files: {
        'MEMORY.md': '- [Ledger rounding](project_rounding.md) — rounding is half-to-even\n',
        'project_rounding.md': '---\nname: Ledger rounding\ndescription: Rounding is half-to-even, by finance\'s request\ntype: project\n---\nRounding is half-to-even (see src/money/round.ts): finance reconciles against the bank that way.\nThe planned src/money/currency.ts will hold the currency table.\n',
      },
      moves: { 'src/ledger/round.ts': 'src/money/round.ts' },
    },
    notOk: {
      files: {
        'MEMORY.md': '- [Ledger rounding](project_rounding.md) — rounding is half-to-even\n',
        'project_rounding.md': '---\nname: Ledger rounding\ndescription: Rounding is half-to-even, by finance\'s request\ntype: project\n---\nRounding is half-to-even (see src/ledger/round.ts): finance reconciles against the bank that way.\n',
      },
      moves: { 'src/ledger/round.ts': 'src/money/round.ts' },
    },
    notOkOutput: 'project_rounding.md:6:31: src/ledger/round.ts was renamed to src/money/round.ts in {commit} ({date}): the memory points to a path that no longer exists',
  },
  check(ctx) {
    const repo = ctx.repo;
    if (!repo) return;
    const text = ctx.file.text;
    if (!ctx.changeOnly) staleLinks(ctx, repo);
    if (!text.includes('/') && !/[0-9a-f]{7}/.test(text)) return;
    const lines = ctx.lines();
    const offsets = ctx.lineOffsets();
    const body = bodyStart(text);
    const bodyLine = lineOf(offsets, body);
    // The frontmatter's description too: Claude Code's recall picks memories by it.
    const desc = descriptionSpan(text, body);
    const descLine = desc ? lineOf(offsets, desc[0]) : bodyLine;
    const code = codeLineSet(ctx.blocks());
    const inCode = (l: number) => code.has(l) || (l < bodyLine && l !== descLine);
    const from = Math.min(descLine, bodyLine);
    const refs = pathReferences(lines, from, inCode);
    if (refs.length > 0) {
      const fates = repo.lostPaths(refs);
      for (const ref of refs) {
        const fate = fates.get(ref.folder ? `${ref.path}/` : ref.path);
        if (!fate || (ctx.changeOnly && fate.commit !== null)) continue;
        if (namedAsFormer(lines[ref.line - 1]!, ref.column, ref.written)) continue;
        if (fate.kind === 'deleted' && toldAsHistory(lines[ref.line - 1]!, ctx.file.rel)) continue;
        if (fate.kind === 'renamed' && namedFromNewRoot(ref, fate, text, () => repo.lineDates(ctx.file)[ref.line])) continue;
        // A line that names where the path went knows of the move ("the new X overrides the old Y").
        if (fate.kind === 'renamed' && namesPath(lines[ref.line - 1]!, fate.to)) continue;
        const start = offsets[ref.line]! + ref.column - 1;
        ctx.report({
          message: stalePathMessage(ref, fate, repo.uncommitted),
          line: ref.line,
          column: ref.column,
          ...(fate.kind === 'renamed' ? renameFix(ref.path, fate, { edits: [{ start, end: start + ref.written.length, text: rewritten(ref, fate.to) }] }) : {}),
        });
      }
    }
    if (ctx.changeOnly) return;
    const commits = commitReferences(lines, from, inCode);
    if (commits.length === 0) return;
    const lost = repo.lostCommits([...new Set(commits.map((c) => c.hex))]);
    for (const c of commits) {
      if (!lost.has(c.hex)) continue;
      ctx.report({ message: `commit ${c.hex} is in no branch or tag any more (history rewritten, or its branch deleted): the memory cites a commit the history no longer holds`, line: c.line, column: c.column });
    }
  },
};

/** Whether the line names this path (a folder with or without its trailing slash). */
function namesPath(line: string, path: string): boolean {
  return line.includes(path.replace(/\/$/, ''));
}

/**
 * A monorepo's memory names paths from a package's root: `apps/x.ts` for `platform/apps/x.ts`. A
 * move that put the file under a folder does not make such a path stale when the line was written
 * after the move (its commit is later, or it is not committed yet) and the memory names that
 * folder itself: the writer knew the layout, and meant the file where it is.
 */
function namedFromNewRoot(ref: PathReference, fate: Extract<PathFate, { kind: 'renamed' }>, text: string, writtenOn: () => LineDate | undefined): boolean {
  if (fate.commit === null || !fate.date || !fate.to.endsWith(`/${ref.path}`)) return false;
  const root = fate.to.slice(0, -ref.path.length - 1);
  if (!new RegExp(`(?:^|[\\s\`'"(\\[])${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`, 'm').test(text)) return false;
  const written = writtenOn();
  // Past a shallow clone's boundary the line's day is unknown, not known to be after the move (a
  // move the clone shows came after its boundary, so the line was most likely written before it).
  if (isShallowDate(written)) return false;
  return written === undefined || written > fate.date;
}

/**
 * A certain rename is fixed; a loose one (LossEvent.certain) is a change the person chooses, and so
 * is one between names that each carry a content hash (`build_abd35f4b.html` to
 * `build_5ce1a76c.html`): such a name is one build's, the new file another build, and a line that
 * tells of the old one ("the OLD build, md5 abd35f4b") would be made false.
 */
function renameFix(from: string, fate: { to: string; certain: boolean }, fix: Fix): { fix: Fix } | { suggest: Suggestion[] } {
  return fate.certain && !contentHashNames(from, fate.to) ? { fix } : { suggest: [{ desc: `Point to ${fate.to}`, fix }] };
}

// A run of hex digits long enough for a short hash, with a digit and a letter (not a word, not a year).
const HASH_RUN = /(?<![0-9a-z])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}(?![0-9a-z])/giu;

/** Whether two paths' file names are the same but for the hashes in them, which differ. */
function contentHashNames(from: string, to: string): boolean {
  const a = from.split('/').pop() ?? '';
  const b = to.split('/').pop() ?? '';
  const hashesA = a.match(HASH_RUN);
  const hashesB = b.match(HASH_RUN);
  if (!hashesA || !hashesB) return false;
  return a.replace(HASH_RUN, '#') === b.replace(HASH_RUN, '#') && hashesA.join() !== hashesB.join();
}

const targetsOf = new WeakMap<MemdirModel, Set<string>>();

/**
 * `[[name]]` links to a memory that history renamed or removed. A link that matches no memory and
 * never did is "fine; it marks something worth writing later" (Claude Code 2.1.332): not reported.
 * Git is asked only when a link matches no memory now, once per memdir and run.
 */
function staleLinks(ctx: RuleContext, repo: RepoFacts): void {
  if (!ctx.file.text.includes('[[')) return;
  const links = wikiLinks(ctx.file.text, ctx.blocks());
  if (links.length === 0) return;
  let targets = targetsOf.get(ctx.memdir);
  if (!targets) targetsOf.set(ctx.memdir, (targets = linkTargets(ctx.memdir)));
  const resolves = (name: string) => targets.has(name);
  const dangling = links.filter((l) => !resolves(l.name));
  if (dangling.length === 0) return;
  const fates = repo.lostMemoryNames([...new Set(dangling.map((l) => l.name))], resolves);
  if (fates.size === 0) return;
  const offsets = ctx.lineOffsets();
  for (const l of dangling) {
    const fate = fates.get(l.name);
    if (!fate) continue;
    const start = offsets[l.line]! + l.column - 1;
    ctx.report({
      message: staleLinkMessage(l.name, fate),
      line: l.line,
      column: l.column,
      // The new name is certain when a memory holds it now: the link is pointed there.
      ...(fate.kind === 'renamed' && resolves(fate.to) ? { fix: { edits: [{ start, end: start + l.written.length, text: fate.to }] } } : {}),
    });
  }
}
