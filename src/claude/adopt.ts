// memlint adopt, the plan: stray stores brought into the repository's memdir without loss. A topic
// file the memdir lacks is copied; one it has is merged with an empty base (the merge driver's
// add/add case: both sides kept, a true conflict marked); MEMORY.md entries are merged as sets,
// the store's additions after the memdir's own entries; daily logs as a union. Pure over the
// texts: the command reads the stores (never writes them) and writes the plan's results into the
// memdir.
import { mergeMemoryFile } from '../merge/driver.js';
import { INDEX_FILE } from '../memdir/kinds.js';

export interface StoreFiles {
  /** The store folder. */
  dir: string;
  /** Markdown files by store-relative path ('/'-separated), MEMORY.md included. */
  files: Map<string, string>;
  /** Files that cannot be adopted (symlinks, unreadable, not text), with why. */
  unreadable: Array<{ rel: string; reason: string }>;
}

export interface AdoptOp {
  /** Memdir-relative path written. */
  rel: string;
  /** The store file it comes from. */
  from: string;
  kind: 'copy' | 'merge';
  before: string | null;
  after: string;
  /** Labels of what is left in conflict (merge only). */
  conflicts: string[];
}

export interface AdoptSkip {
  rel: string;
  from: string;
  reason: string;
  /** Needs a person before adopt can take this file (exit 1). */
  blocking: boolean;
}

export interface AdoptPlan {
  ops: AdoptOp[];
  skipped: AdoptSkip[];
}

/** MEMORY.md last in each store, so the entries it adds point at topic files already planned. */
function order(rels: string[]): string[] {
  return [...rels].sort((a, b) => (a === INDEX_FILE ? 1 : b === INDEX_FILE ? -1 : a < b ? -1 : a > b ? 1 : 0));
}

export function planAdopt(stores: StoreFiles[], memdirText: (rel: string) => string | null): AdoptPlan {
  const state = new Map<string, string | null>();
  const current = (rel: string) => (state.has(rel) ? state.get(rel)! : memdirText(rel));
  const ops: AdoptOp[] = [];
  const skipped: AdoptSkip[] = [];
  for (const store of stores) {
    const from = (rel: string) => `${store.dir.replace(/[/\\]+$/, '')}/${rel}`;
    for (const u of store.unreadable) skipped.push({ rel: u.rel, from: from(u.rel), reason: u.reason, blocking: false });
    for (const rel of order([...store.files.keys()])) {
      const theirs = store.files.get(rel)!;
      const ours = current(rel);
      if (ours === theirs) continue;
      if (ours === null) {
        ops.push({ rel, from: from(rel), kind: 'copy', before: null, after: theirs, conflicts: [] });
        state.set(rel, theirs);
        continue;
      }
      const outcome = mergeMemoryFile({ base: Buffer.alloc(0), ours: Buffer.from(ours, 'utf8'), theirs: Buffer.from(theirs, 'utf8'), path: rel, markerSize: 7, theirsAfterOurs: true });
      if ('lineMerge' in outcome) {
        const earlier = /conflict markers/.test(outcome.reason);
        skipped.push({
          rel,
          from: from(rel),
          reason: earlier ? `${outcome.reason}: settle the conflict first (memlint resolve, or by hand), then adopt again` : `${outcome.reason}: not merged, merge it by hand`,
          blocking: true,
        });
        continue;
      }
      if (outcome.output === null) {
        skipped.push({ rel, from: from(rel), reason: 'cannot be merged: merge it by hand', blocking: true });
        continue;
      }
      const after = outcome.output.toString('utf8');
      if (after === ours) continue;
      ops.push({ rel, from: from(rel), kind: 'merge', before: ours, after, conflicts: outcome.conflicts });
      state.set(rel, after);
    }
  }
  // Several ops on one file (two stores): keep the last text, the first "before", all conflicts.
  const byRel = new Map<string, AdoptOp>();
  for (const op of ops) {
    const prev = byRel.get(op.rel);
    if (!prev) byRel.set(op.rel, { ...op });
    else byRel.set(op.rel, { ...prev, from: `${prev.from}, ${op.from}`, after: op.after, kind: prev.kind === 'copy' && op.kind === 'merge' ? 'copy' : prev.kind, conflicts: [...prev.conflicts, ...op.conflicts] });
  }
  return { ops: [...byRel.values()], skipped };
}
