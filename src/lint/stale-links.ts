// What became of the memory a `[[name]]` link names, when no memory holds that name now: renamed
// (its `name:` changed, or its file moved with its name) or removed, by which commit. Read from
// the `name:` changes of history (src/git/lost-paths.ts memoryNameChanges). Pure.
import type { CommitLines, NameChange } from '../git/lost-paths.js';
import { renameLinks, wikiLinks } from '../memdir/links.js';

export type NameFate = { kind: 'renamed'; to: string; commit: string; date: string; merged?: true } | { kind: 'removed'; commit: string; date: string };

/** Where each name stood after the last commit that touched it: a memory at HEAD holds it, or it left. */
export type NameHistory = Map<string, 'held' | { to: string | null; commit: string; date: string }>;

/** A memory's file name as a link target: memdir-relative, without `.md`. */
const stemOf = (repoPath: string, memdirRel: string): string | null => {
  const prefix = memdirRel === '' ? '' : `${memdirRel}/`;
  if (!repoPath.startsWith(prefix) || !/\.md$/i.test(repoPath)) return null;
  return repoPath.slice(prefix.length).replace(/\.md$/i, '');
};

/**
 * The history of names, commit by commit (oldest first): a name a commit wrote is held; one it
 * took out, and no file of that commit wrote again, left it (renamed when the same file got a new
 * name, else removed). A file moved or deleted moves or removes its file name the same way.
 */
export function nameHistory(changes: NameChange[], memdirRel: string): NameHistory {
  const history: NameHistory = new Map();
  let i = 0;
  while (i < changes.length) {
    const commit = changes[i]!.commit;
    const date = changes[i]!.date;
    const arrived = new Set<string>();
    const left = new Map<string, string | null>();
    for (; i < changes.length && changes[i]!.commit === commit; i++) {
      const c = changes[i]!;
      const fromStem = c.from === null ? null : stemOf(c.from, memdirRel);
      const toStem = c.to === null ? null : stemOf(c.to, memdirRel);
      const newName = c.added[0] ?? null;
      for (const n of c.removed) if (!left.has(n) || left.get(n) === null) left.set(n, c.to === null ? null : newName ?? null);
      for (const n of c.added) arrived.add(n);
      if (fromStem !== null && fromStem !== toStem) left.set(fromStem, toStem);
      if (toStem !== null) arrived.add(toStem);
    }
    for (const n of arrived) history.set(n, 'held');
    for (const [n, to] of left) if (!arrived.has(n)) history.set(n, { to, commit, date });
  }
  return history;
}

/**
 * The fate of a name no memory holds now (`resolves` says which names do), or null when history
 * never saw it leave (a link to something worth writing later) or a memory at HEAD still holds it.
 * A name renamed again follows to its last name.
 */
export function nameFate(name: string, history: NameHistory, resolves: (name: string) => boolean): NameFate | null {
  let h = history.get(name);
  if (h === undefined || h === 'held') return null;
  const seen = new Set([name]);
  for (;;) {
    if (h.to === null) return { kind: 'removed', commit: h.commit, date: h.date };
    const next = history.get(h.to);
    if (resolves(h.to) || next === undefined || next === 'held' || seen.has(h.to)) return { kind: 'renamed', to: h.to, commit: h.commit, date: h.date };
    seen.add(h.to);
    h = next;
  }
}

/**
 * A removed memory that its commit merged into another: the commit also rewrote a line's
 * `[[name]]` into `[[other]]`, all else on the line kept (as consolidation does when it merges a
 * duplicate). Then the fate is that other name; otherwise it stays removed.
 */
export function mergedFate(name: string, fate: NameFate, changes: CommitLines[]): NameFate {
  if (fate.kind !== 'removed') return fate;
  for (const c of changes) {
    if (c.commit !== fate.commit) continue;
    for (const before of c.removed) {
      if (!before.includes(`[[${name}`) && !before.includes(`[[ ${name}`)) continue;
      for (const after of c.added) {
        for (const l of wikiLinks(after)) {
          if (l.name !== name && renameLinks(before, name, l.name) === after) return { kind: 'renamed', to: l.name, commit: fate.commit, date: fate.date, merged: true };
        }
      }
    }
  }
  return fate;
}

/** The message for a link to a memory that history renamed or removed. */
export function staleLinkMessage(name: string, fate: NameFate): string {
  const when = `in ${fate.commit.slice(0, 7)}${fate.date ? ` (${fate.date})` : ''}`;
  if (fate.kind === 'renamed' && fate.merged) return `[[${name}]] links to a memory merged into [[${fate.to}]] ${when}: the link names a memory that no longer exists`;
  return fate.kind === 'renamed'
    ? `[[${name}]] links to a memory renamed to [[${fate.to}]] ${when}: the link names a memory that no longer exists`
    : `[[${name}]] links to a memory removed ${when}: the link names a memory that no longer exists`;
}
