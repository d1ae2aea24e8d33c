// Three-way merge of a MEMORY.md index (docs/merge.md, "What the index merge guarantees"). Pure: text in, text out.
//
// Every entry is an identity (its normalised link target; a second entry with the same target on
// one side is a second identity), so the structure is merged with entries as opaque tokens: a
// line diff3 over "entry K" and the non-entry lines places everything, while what each entry
// reads is decided per identity, independently of where it sits. A few repairs after the diff3
// make the entry set exact: an entry kept by a delete-vs-edit comes back, an entry moved on both
// sides appears once (at ours' place), an entry deleted cleanly is gone.
import { entryIdentity, parseEntry, parseIndex, type IndexEntry } from '../memdir/memory-index.js';
import { blockModel } from '../memdir/blocks.js';
import { Chain, type Link } from './chain.js';
import { diff3Regions, sameLines } from './lines.js';
import { conflictBlock, fromOurs, fromTheirs, pushAll, render, styleOf, type Conflict, type DeletedEdited, type Line, type MergeResult, type OutLine } from './text.js';

export interface MergeOptions {
  /** Conflict marker size (git's %L). */
  markerSize?: number;
  /** Keys of entries that were in conflict inside the merge base (a criss-cross's virtual base). */
  conflictedInBase?: ReadonlySet<string>;
  /**
   * Theirs' additions go after ours' last entry (or at the end when ours has none), in theirs'
   * order, not next to their neighbours: memlint adopt, where theirs is a store brought in and
   * "the memory folder's entries first, the store's others after them".
   */
  theirsAfterOurs?: boolean;
  /**
   * For an entry deleted on one side and edited on the other (by key): whether the merge deletes
   * its topic file (the editing side holds it, the deleting side deleted it: true) or not (false).
   * Absent: not known.
   */
  topicGone?: ReadonlyMap<string, boolean>;
}

type Side = 'a' | 'b';

/** A line of one side: its own text and ending, and the entry it holds. */
export interface SideLine extends Line {
  entry?: IndexEntry;
}

interface Item {
  token: string;
  /** The entry's identity: its key, plus "#n" for the n-th repeat of that key on this side. */
  id?: string;
  line: SideLine;
}

type Decision =
  | { kind: 'keep'; text: string; side: Side }
  | { kind: 'drop' }
  /** a or b undefined: that side deleted the entry (and its topic file), the other edited it. */
  | { kind: 'conflict'; a: string | undefined; b: string | undefined; reason: string };

type Slot =
  | { t: 'entry'; id: string; side: Side }
  | { t: 'line'; out: OutLine; side: Side }
  | { t: 'block'; lines: OutLine[] };

/**
 * The three sides as items, each read by the shared index parser on its block model (a line scan
 * for a plain index; remark, loaded then, for one with fences, HTML or other constructs). The
 * sides share most lines: each distinct entry line is parsed once for all three.
 */
export function sideLines(texts: string[]): SideLine[][] {
  const entryOf = new Map<string, IndexEntry | undefined>();
  const parse = (line: string) => {
    if (!entryOf.has(line)) entryOf.set(line, parseEntry(line));
    return entryOf.get(line);
  };
  return texts.map((t) => parseIndex(t, blockModel(t), parse).lines.map((l) => ({ text: l.text, eol: l.eol, entry: l.entry })));
}

function itemsOfAll(texts: string[]): Item[][] {
  return sideLines(texts).map(toItems);
}

function toItems(lines: SideLine[]): Item[] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    if (!line.entry) return { token: `L${line.text}`, line };
    const key = entryIdentity(line.entry);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const id = n === 0 ? key : `${key}\u0000${n}`;
    return { token: `E${id}`, id, line };
  });
}

function byId(items: readonly Item[]): Map<string, Item> {
  const m = new Map<string, Item>();
  for (const it of items) if (it.id !== undefined) m.set(it.id, it);
  return m;
}

function targetOf(id: string, ...sides: Array<Map<string, Item>>): string {
  for (const s of sides) {
    const it = s.get(id);
    if (it?.line.entry) return it.line.entry.target;
  }
  return id.split('\u0000')[0]!;
}

function decide(o: string | undefined, a: string | undefined, b: string | undefined): Decision {
  if (a === undefined && b === undefined) return { kind: 'drop' };
  if (o === undefined) {
    if (a !== undefined && b !== undefined) {
      return a === b ? { kind: 'keep', text: a, side: 'a' } : { kind: 'conflict', a, b, reason: 'added on both sides with different text' };
    }
    return a !== undefined ? { kind: 'keep', text: a, side: 'a' } : { kind: 'keep', text: b!, side: 'b' };
  }
  if (a === undefined) return b === o ? { kind: 'drop' } : { kind: 'keep', text: b!, side: 'b' };
  if (b === undefined) return a === o ? { kind: 'drop' } : { kind: 'keep', text: a, side: 'a' };
  if (a === b || b === o) return { kind: 'keep', text: a, side: 'a' };
  if (a === o) return { kind: 'keep', text: b, side: 'b' };
  return { kind: 'conflict', a, b, reason: 'edited on both sides' };
}

export function mergeIndex(base: string, ours: string, theirs: string, options: MergeOptions = {}): MergeResult {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: [], notes: [] };
  if (ours === base) return { text: theirs, conflicts: [], notes: [] };
  const markerSize = options.markerSize ?? 7;
  const [O, A, B] = itemsOfAll([base, ours, theirs]) as [Item[], Item[], Item[]];
  const oIds = byId(O);
  const aIds = byId(A);
  const bIds = byId(B);

  const decisions = new Map<string, Decision>();
  const notes: string[] = [];
  const deletedEdited: DeletedEdited[] = [];
  for (const id of new Set([...aIds.keys(), ...bIds.keys(), ...oIds.keys()])) {
    const o = oIds.get(id)?.line.text;
    const a = aIds.get(id)?.line.text;
    const b = bIds.get(id)?.line.text;
    let d = decide(o, a, b);
    if (d.kind === 'conflict' && o === undefined && options.conflictedInBase?.has(id.split('\u0000')[0]!)) {
      d = { ...d, reason: 'different on both sides, already in conflict in the merge base' };
    }
    if (d.kind === 'keep' && o !== undefined && (a === undefined || b === undefined)) {
      // Deleted on one side, edited on the other: kept, so no edit is lost, while its topic file
      // is there. When the deleting side deleted the topic file too, git deletes it (the other
      // side left it as it was), and a kept entry would point at nothing: a conflict of that
      // entry, for a person to settle (git's own modify/delete), and never a silent drop.
      const target = targetOf(id, aIds, bIds, oIds);
      const [gone, kept] = a === undefined ? (['ours', 'theirs'] as const) : (['theirs', 'ours'] as const);
      // The topic file's key (a link to a section names its file).
      const key = (aIds.get(id) ?? bIds.get(id) ?? oIds.get(id))!.line.entry!.key;
      const topicGone = options.topicGone?.get(key);
      deletedEdited.push({ key, target, deletedIn: gone });
      if (topicGone === true) {
        d = { kind: 'conflict', a, b, reason: `deleted with its topic file in ${gone}, edited in ${kept}` };
        notes.push(`${target}: deleted in ${gone} together with its topic file, but edited in ${kept}: left in conflict, since keeping the entry would point at a file the merge deletes ("memlint resolve" settles it)`);
      } else {
        const unknown = topicGone === undefined ? ` (if ${target} itself is gone after the merge, restore it or delete the entry)` : '';
        notes.push(`${target}: deleted in ${gone} but edited in ${kept}; the edited entry is kept${unknown}`);
      }
    }
    decisions.set(id, d);
  }

  const slot = (it: Item, side: Side): Slot =>
    it.id !== undefined ? { t: 'entry', id: it.id, side } : { t: 'line', out: side === 'a' ? fromOurs(it.line) : fromTheirs(it.line), side };

  // 1. Structure: diff3 over tokens.
  const slots: Slot[] = [];
  const tok = (xs: Item[]) => xs.map((x) => x.token);
  for (const r of diff3Regions(tok(A), tok(O), tok(B))) {
    if (r.kind === 'same' || r.kind === 'ours') for (let i = r.a[0]; i < r.a[1]; i++) slots.push(slot(A[i]!, 'a'));
    else if (r.kind === 'theirs') for (let i = r.b[0]; i < r.b[1]; i++) slots.push(slot(B[i]!, 'b'));
    else pushAll(slots, resolveRegion(A.slice(...r.a), O.slice(...r.o), B.slice(...r.b), oIds, slot, markerSize));
  }

  // 2. The entry set: each kept identity once (ours' place first), dropped ones gone.
  const preferred = new Map<string, number>();
  slots.forEach((s, i) => {
    if (s.t !== 'entry') return;
    const prev = preferred.get(s.id);
    if (prev === undefined || (s.side === 'a' && (slots[prev] as { side: Side }).side !== 'a')) preferred.set(s.id, i);
  });
  const kept: Slot[] = slots.filter((s, i) => s.t !== 'entry' || (preferred.get(s.id) === i && decisions.get(s.id)!.kind !== 'drop'));

  // 3. Entries the structure lost (deleted on one side, edited on the other) come back after
  // the line that precedes them on the side that kept them.
  const final = restoreLost(kept, A, B, decisions);

  if (options.theirsAfterOurs) appendTheirs(final, aIds);

  // 4. Render.
  const conflicts: Conflict[] = [];
  const out: OutLine[] = [];
  const entries: Array<{ text: string; target: string }> = [];
  const targetIn = (id: string, text: string) => {
    for (const m of [aIds, bIds]) {
      const it = m.get(id);
      if (it && it.line.text === text) return it.line.entry!.target;
    }
    return targetOf(id, aIds, bIds);
  };
  // An entry a side holds twice with the same text is one entry in a merged result.
  const written = new Set<string>();
  for (const s of final) {
    if (s.t === 'line') out.push(s.out);
    else if (s.t === 'block') {
      pushAll(out, s.lines);
    } else {
      const d = decisions.get(s.id)!;
      const eol = aIds.get(s.id)?.line.eol || null;
      if (d.kind === 'keep') {
        const same = `${s.id.split('\u0000')[0]}\u0000${d.text}`;
        if (written.has(same)) continue;
        written.add(same);
        out.push({ text: d.text, eol });
        entries.push({ text: d.text, target: targetIn(s.id, d.text) });
      } else if (d.kind === 'conflict') {
        const c: Conflict = { label: targetOf(s.id, aIds, bIds), reason: d.reason };
        conflicts.push(c);
        const sides = [d.a, d.b].filter((t) => t !== undefined);
        for (const t of sides) entries.push({ text: t, target: targetIn(s.id, t) });
        pushAll(out, conflictBlock(markerSize, c, d.a !== undefined ? [{ text: d.a, eol }] : [], d.b !== undefined ? [{ text: d.b, eol: null }] : []));
      }
    }
  }
  for (const s of final) if (s.t === 'block') conflicts.push({ label: 'non-entry lines', reason: 'edited on both sides' });
  return { text: render(out, styleOf(ours, theirs)), conflicts, notes, entries, ...(deletedEdited.length ? { deletedEdited } : {}) };
}

/** Theirs' additions (entries ours lacks) moved, in their order, to just after ours' last entry, else to the end. */
function appendTheirs(final: Slot[], ours: ReadonlyMap<string, Item>): void {
  const added = final.filter((s) => s.t === 'entry' && !ours.has(s.id));
  if (added.length === 0) return;
  const rest = final.filter((s) => !(s.t === 'entry' && !ours.has(s.id)));
  let at = rest.length;
  for (let i = rest.length - 1; i >= 0; i--) {
    if (rest[i]!.t === 'entry') {
      at = i + 1;
      break;
    }
  }
  final.length = 0;
  pushAll(final, rest.slice(0, at));
  pushAll(final, added);
  pushAll(final, rest.slice(at));
}

/**
 * The result with the entries it lacks that a side kept (deleted on one side, edited on the
 * other) put back, ours' then theirs': each after the nearest item before it on its side that the
 * result holds (an entry, or the first line of the same text, not a blank one), else before the
 * nearest such entry after it, else at the end.
 */
function restoreLost(kept: readonly Slot[], A: readonly Item[], B: readonly Item[], decisions: ReadonlyMap<string, Decision>): Slot[] {
  const chain = new Chain<Slot>();
  const entryAt = new Map<string, Link<Slot>>();
  const firstLineAt = new Map<string, Link<Slot>>();
  for (const s of kept) {
    const link = chain.push(s);
    if (s.t === 'entry') entryAt.set(s.id, link);
    else if (s.t === 'line' && !firstLineAt.has(s.out.text)) firstLineAt.set(s.out.text, link);
  }
  for (const [side, items] of [['a', A], ['b', B]] as const) {
    // An item's id is unique on its side, so which later entries the result holds does not change
    // before the pass reaches them: the nearest one after each item, as the pass starts.
    const nextHeld = new Array<Link<Slot> | undefined>(items.length);
    let held: Link<Slot> | undefined;
    for (let k = items.length - 1; k >= 0; k--) {
      nextHeld[k] = held;
      const id = items[k]!.id;
      if (id !== undefined) held = entryAt.get(id) ?? held;
    }
    let after: Link<Slot> | null = null;
    items.forEach((it, idx) => {
      if (it.id === undefined) {
        if (it.line.text.trim() !== '') after = firstLineAt.get(it.line.text) ?? after;
        return;
      }
      let at = entryAt.get(it.id);
      const d = decisions.get(it.id)!;
      if (!at && !(d.kind === 'drop' || (d.kind === 'keep' && d.side !== side))) {
        const s: Slot = { t: 'entry', id: it.id, side };
        at = after ? chain.insertAfter(after, s) : chain.insertBefore(nextHeld[idx] ?? null, s);
        entryAt.set(it.id, at);
      }
      after = at ?? after;
    });
  }
  return chain.values();
}

/**
 * A region both sides changed. The non-entry lines decide whose layout leads (the side that
 * changed them, or ours); the other side's entries are woven in after what precedes them there.
 * Non-entry lines changed differently on both sides are the only line conflict.
 */
function resolveRegion(
  a: Item[],
  o: Item[],
  b: Item[],
  baseIds: Map<string, Item>,
  slot: (it: Item, side: Side) => Slot,
  markerSize: number,
): Slot[] {
  const skeleton = (xs: Item[]) => xs.filter((x) => x.id === undefined).map((x) => x.token);
  const aSk = skeleton(a);
  const oSk = skeleton(o);
  const bSk = skeleton(b);
  let lead: Side;
  if (sameLines(aSk, bSk) || sameLines(bSk, oSk)) lead = 'a';
  else if (sameLines(aSk, oSk)) lead = 'b';
  else return conflictedRegion(a, o, b, slot, markerSize);

  const [primary, secondary] = lead === 'a' ? [a, b] : [b, a];
  const sameSkeleton = sameLines(aSk, bSk);
  const other: Side = lead === 'a' ? 'b' : 'a';
  // Each secondary entry goes after what precedes it on its side, past the entries the leading
  // side added right there (ours' appends, then theirs').
  const out = new Chain<Slot>((s) => s.t === 'entry' && !baseIds.has(s.id));
  const entryAt = new Map<string, Link<Slot>>();
  const lineAt: Array<Link<Slot>> = [];
  const firstLineAt = new Map<string, Link<Slot>>();
  for (const it of primary) {
    const link = out.push(slot(it, lead));
    if (it.id !== undefined) entryAt.set(it.id, link);
    else {
      lineAt.push(link);
      if (!firstLineAt.has(it.line.text)) firstLineAt.set(it.line.text, link);
    }
  }
  // The nearest secondary item seen so far that has a place in the result (null: none, the start).
  let after: Link<Slot> | null = null;
  let lines = 0;
  for (const it of secondary) {
    if (it.id === undefined) {
      const at = sameSkeleton ? lineAt[lines] : firstLineAt.get(it.line.text);
      lines++;
      if (at) after = at;
      continue;
    }
    let at = entryAt.get(it.id);
    if (!at) {
      at = out.insertAfter(after, slot(it, other));
      entryAt.set(it.id, at);
    }
    after = at;
  }
  return out.values();
}

function conflictedRegion(a: Item[], o: Item[], b: Item[], slot: (it: Item, side: Side) => Slot, markerSize: number): Slot[] {
  const lines = (xs: Item[]) => xs.filter((x) => x.id === undefined);
  const aL = lines(a);
  const oL = lines(o);
  const bL = lines(b);
  const merged: Slot[] = [];
  const tok = (xs: Item[]) => xs.map((x) => x.token);
  for (const r of diff3Regions(tok(aL), tok(oL), tok(bL))) {
    if (r.kind === 'same' || r.kind === 'ours') for (let i = r.a[0]; i < r.a[1]; i++) merged.push(slot(aL[i]!, 'a'));
    else if (r.kind === 'theirs') for (let i = r.b[0]; i < r.b[1]; i++) merged.push(slot(bL[i]!, 'b'));
    else {
      const ax = aL.slice(...r.a);
      const bx = bL.slice(...r.b);
      if (sameLines(tok(ax), tok(bx))) ax.forEach((x) => merged.push(slot(x, 'a')));
      else
        merged.push({
          t: 'block',
          lines: conflictBlock(markerSize, { label: 'non-entry lines', reason: 'edited on both sides' }, ax.map((x) => fromOurs(x.line)), bx.map((x) => fromTheirs(x.line))),
        });
    }
  }
  // Entries keep their side of the first non-entry line; theirs' additions follow ours'.
  const firstLine = a.findIndex((x) => x.id === undefined);
  const aIds = new Set(a.flatMap((x) => (x.id !== undefined ? [x.id] : [])));
  const before = a.slice(0, firstLine < 0 ? a.length : firstLine).filter((x) => x.id !== undefined);
  const after = a.slice(firstLine < 0 ? a.length : firstLine).filter((x) => x.id !== undefined);
  const theirs = b.filter((x) => x.id !== undefined && !aIds.has(x.id));
  return [...before.map((x) => slot(x, 'a')), ...merged, ...after.map((x) => slot(x, 'a')), ...theirs.map((x) => slot(x, 'b'))];
}
