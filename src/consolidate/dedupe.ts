// Step 3: duplicate topics merged. Two topic files whose content says they are the same memory
// (the same type, and nearly the same body, or the same `name` with the same description or a body
// line in common; never a name alone, nor one YAML cut at ` #`) become one: the older file receives
// the newer's text (topic-merge.ts); the newer moves to the archive with its entry, and [[links]]
// to it are renamed to the older (linked-files.ts).
import { cutAtComment, parseTopic } from '../memdir/topic.js';
import { parseIndex, pathKey } from '../memdir/memory-index.js';
import type { MemState, StepContext, StepResult } from './types.js';
import { addArchiveLine, archiveEntryLine, moveRecorded, moveToArchive } from './archive.js';
import { draftIndex, draftOf, finish, flushIndex, type Draft } from './draft.js';
import { normalizeContent } from './text.js';
import { splitLines } from '../memdir/lines.js';
import { mergeTopicGroup, mergeTopicTexts } from './topic-merge.js';
import { fileKind, INDEX_FILE, isTopLevelTopic, notAMemory } from '../memdir/kinds.js';
import { LinkedFiles } from './linked-files.js';
import { FROM_INDEX_RE } from '../memdir/hook-text.js';

export interface DedupeReport {
  merged: Array<{ into: string; from: string; why: 'name' | 'body'; archivedAs: string }>;
}

/** Similarity of two bodies: shared distinct lines over all distinct lines (Jaccard). */
export function bodySimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

export const NEAR_DUPLICATE = 0.8;

function bodyLineSet(body: string): Set<string> {
  const set = new Set<string>();
  for (const l of splitLines(body)) {
    // memlint's own heading for hooks moved out of the index is in every topic that received one:
    // it says nothing about what the memory is.
    if (FROM_INDEX_RE.test(l.text)) continue;
    const n = normalizeContent(l.text);
    if (n !== '' && !/^#+$/.test(n)) set.add(n);
  }
  return set;
}

export interface TopicInfo {
  rel: string;
  /** The name, lower-cased; undefined when YAML cut it at ` #` (`Story #12 …` read as "Story"). */
  name: string | undefined;
  type: string | undefined;
  description: string | undefined;
  lines: Set<string>;
}

/**
 * Whether the content of two topics says they are the same memory: nearly the same body (shared
 * lines over all lines at least NEAR_DUPLICATE), or the same name and type with the same
 * description or at least one body line in common. A name alone is not enough: two memories
 * named alike may be about different things.
 */
function sameMemory(a: TopicInfo, b: TopicInfo): boolean {
  if (a.type !== b.type) return false;
  if (a.lines.size >= 2 && b.lines.size >= 2) {
    const small = Math.min(a.lines.size, b.lines.size);
    const large = Math.max(a.lines.size, b.lines.size);
    if (small / large >= NEAR_DUPLICATE && bodySimilarity(a.lines, b.lines) >= NEAR_DUPLICATE) return true;
  }
  if (a.name === undefined || a.name !== b.name) return false;
  if (a.description !== undefined && a.description === b.description) return true;
  for (const x of a.lines) if (b.lines.has(x)) return true;
  return false;
}

/**
 * The topics `sameMemory` may join, found without comparing every topic with every other (46,000
 * topics: a billion comparisons).
 * - `alike`: groups whose every pair is one memory by name: the same name and type, and the same
 *   description or one body line in common (a name thousands of topics share was millions of
 *   comparisons; these need none).
 * - `compare`: groups to compare pair by pair for nearly the same body: those sharing a line among
 *   the first of each body's lines, rarest first, that two bodies this alike must share. Two bodies
 *   whose Jaccard similarity is at least NEAR_DUPLICATE share o >= ceil(NEAR_DUPLICATE * |lines|)
 *   of each one's lines; the first shared line in the order (count, then text) has at most
 *   |lines| - o lines before it in either body, so it is among each one's first
 *   |lines| - ceil(NEAR_DUPLICATE * |lines|) + 1 (prefix filtering, as in Bayardo et al.'s
 *   all-pairs similarity search). One more than that, kept against rounding before, put a line
 *   every body shares in the prefix of every two-line body: thousands compared pair by pair.
 */
function candidateBuckets(infos: readonly TopicInfo[]): { alike: number[][]; compare: Candidate[][] } {
  const count = new Map<string, number>();
  for (const t of infos) for (const l of t.lines) count.set(l, (count.get(l) ?? 0) + 1);
  const alike = new Map<string, number[]>();
  const compare = new Map<string, Candidate[]>();
  const add = <T>(buckets: Map<string, T[]>, key: string, entry: T) => {
    const bucket = buckets.get(key);
    if (bucket) bucket.push(entry);
    else buckets.set(key, [entry]);
  };
  infos.forEach((t, i) => {
    if (t.name !== undefined) {
      if (t.description !== undefined) add(alike, JSON.stringify([t.name, t.type ?? null, 'description', t.description]), i);
      for (const l of t.lines) add(alike, JSON.stringify([t.name, t.type ?? null, 'line', l]), i);
    }
    if (t.lines.size < 2) return;
    const rarest = [...t.lines].sort((x, y) => count.get(x)! - count.get(y)! || (x < y ? -1 : x > y ? 1 : 0));
    const prefix = Math.min(rarest.length, rarest.length - Math.ceil(NEAR_DUPLICATE * rarest.length - 1e-9) + 1);
    rarest.slice(0, prefix).forEach((l, at) => add(compare, l, { i, at }));
  });
  const groups = <T>(buckets: Map<string, T[]>) => [...buckets.values()].filter((b) => b.length > 1);
  return { alike: groups(alike), compare: groups(compare) };
}

/** A topic in a bucket of a body line: its index, and where the line stands in its rarest-first lines. */
interface Candidate {
  i: number;
  at: number;
}

/**
 * Whether two bodies of these sizes, sharing a line at these places of their rarest-first lines,
 * can still be nearly the same (positional filtering, Xiao et al.'s PPJoin): where this line is the
 * first they share, each shares at most the lines from it on. Where it is not the first, the pair
 * is judged in the bucket of the first, which every such pair shares (candidateBuckets): a line
 * every body holds, late in each, no longer sends thousands of pairs to be compared.
 */
function roomFor(sizeA: number, atA: number, sizeB: number, atB: number): boolean {
  if (Math.min(sizeA, sizeB) / Math.max(sizeA, sizeB) < NEAR_DUPLICATE) return false;
  const most = 1 + Math.min(sizeA - atA - 1, sizeB - atB - 1);
  // Shared over all lines, most / (sizeA + sizeB - most), at least NEAR_DUPLICATE.
  return most * (1 + NEAR_DUPLICATE) >= NEAR_DUPLICATE * (sizeA + sizeB) - 1e-9;
}

/**
 * The groups of topics (indexes into `infos`, ascending) that are one memory: the connected
 * pairs `sameMemory` holds for, among those `candidateBuckets` brings together (every pair with
 * `everyPair`, which the candidates are held to).
 */
export function duplicateGroups(infos: readonly TopicInfo[], everyPair = false): number[][] {
  const parent = infos.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (i: number, j: number) => {
    const [ri, rj] = [find(i), find(j)];
    if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
  };
  const { alike, compare } = everyPair ? { alike: [], compare: [infos.map((_, i) => ({ i, at: 0 }))] } : candidateBuckets(infos);
  for (const b of alike) for (const i of b) union(b[0]!, i);
  for (const b of compare) {
    // Once the bucket's topics are all one group, no pair of it joins anything more (a body line a
    // thousand duplicates share was a million comparisons of groups already joined).
    let groupsLeft = new Set(b.map((c) => find(c.i))).size;
    for (let x = 0; x < b.length && groupsLeft > 1; x++) {
      for (let y = x + 1; y < b.length && groupsLeft > 1; y++) {
        const [p, q] = [b[x]!, b[y]!];
        if (find(p.i) === find(q.i) || (!everyPair && !roomFor(infos[p.i]!.lines.size, p.at, infos[q.i]!.lines.size, q.at))) continue;
        if (sameMemory(infos[p.i]!, infos[q.i]!)) {
          union(p.i, q.i);
          groupsLeft--;
        }
      }
    }
  }
  const groups = new Map<number, number[]>();
  infos.forEach((_, i) => {
    const r = find(i);
    const group = groups.get(r);
    if (group) group.push(i);
    else groups.set(r, [i]);
  });
  return [...groups.values()].filter((g) => g.length > 1);
}

export function dedupeTopics(state: MemState, ctx: StepContext): StepResult<DedupeReport> {
  const report: DedupeReport = { merged: [] };
  const infos: TopicInfo[] = [];
  for (const [rel, text] of state.files) {
    if (!isTopLevelTopic(rel)) continue;
    const t = parseTopic(text);
    // Not a memory (README.md, a skill file): never merged into, never merged away.
    if (notAMemory(rel, t.type)) continue;
    const cut = cutAtComment(t.frontmatter, 'name');
    const description = cutAtComment(t.frontmatter, 'description') ? undefined : t.description?.trim().replace(/\s+/g, ' ').toLowerCase() || undefined;
    infos.push({ rel, name: cut ? undefined : t.name?.trim().toLowerCase() || undefined, type: typeof t.type === 'string' ? t.type : undefined, description, lines: bodyLineSet(t.body) });
  }
  infos.sort((x, y) => (x.rel < y.rel ? -1 : 1));
  const dupGroups = duplicateGroups(infos);
  if (dupGroups.length === 0) return { state, report };

  const infoOf = new Map(infos.map((t) => [t.rel, t]));
  const born = ctx.facts.firstCommitTimes();
  const age = (rel: string) => born.get(rel) ?? Number.POSITIVE_INFINITY;
  const draft = draftOf(state);
  const files = new LinkedFiles(draft.files);
  draft.files = files;
  for (const g of dupGroups) {
    const members = g.map((i) => infos[i]!.rel).sort((x, y) => age(x) - age(y) || (x < y ? -1 : x > y ? 1 : 0));
    const into = members[0]!;
    const froms = members.slice(1);
    const nameOf = (rel: string) => parseTopic(state.files.get(rel) ?? '').name?.trim();
    const intoName = nameOf(into);
    const renames = (from: string) => {
      const fromName = nameOf(from);
      return fromName && intoName && fromName !== intoName ? fromName : null;
    };
    // Where no merge renames links (the memories share a name), nothing but the merges changes the
    // kept topic between them: the group is merged in one pass.
    const inOnePass = !froms.some(renames);
    if (inOnePass) draft.files.set(into, mergeTopicGroup(draft.files.get(into)!, froms.map((from) => draft.files.get(from)!)));
    for (const from of froms) {
      if (!inOnePass) draft.files.set(into, mergeTopicTexts(draft.files.get(into)!, draft.files.get(from)!));
      const archivedAs = moveToArchive(draft, ctx, from);
      const keyOf = (rel: string) => infoOf.get(rel)!.name;
      const w = keyOf(from) !== undefined && keyOf(from) === keyOf(into) ? 'name' : 'body';
      report.merged.push({ into, from, why: w, archivedAs });
      // [[name]] links to the merged-away memory now reach the one that holds its text (logs,
      // append-only, are left as written).
      const fromName = renames(from);
      if (fromName && intoName) {
        if (draft.index?.holds(`[[${fromName}`)) flushIndex(draft);
        files.renameLinks(fromName, intoName, (rel) => fileKind(rel).kind === 'log' || (rel === INDEX_FILE && draft.index !== null));
      }
      removeEntry(draft, ctx, from, archivedAs, `merged into ${into}`);
    }
  }
  draft.files = new Map(files);
  return { state: finish(draft), report };
}

/** Take a moved file's entries out of the index and record each, pointing at the archived copy, in ARCHIVE.md (in the draft). */
export function removeEntry(draft: Draft, ctx: StepContext, rel: string, archivedAs: string, note: string): void {
  const stamp = `archived on ${ctx.facts.today}: ${note}`;
  const index = draftIndex(draft);
  const key = pathKey(rel);
  let hits = index ? index.hits(key) : [];
  if (index && hits.length > 0 && !index.tryDrop(hits)) {
    // A removal that may change how another line reads: the text is parsed again without it.
    const parsed = parseIndex(index.text());
    hits = parsed.lines.filter((l) => l.entry && l.entry.key === key);
    const drop = new Set(hits.map((h) => h.line));
    draft.files.set(INDEX_FILE, parsed.bom + parsed.lines.filter((l) => !drop.has(l.line)).map((l) => l.text + l.eol).join(''));
    draft.index = null;
  }
  // A run killed after rewriting MEMORY.md and before removing the moved file recorded the move
  // in ARCHIVE.md already, with the entry's title and hook; the run that resumes it may find no
  // entry, or one the orphan step made from the file's own description: a second line would record
  // the move twice.
  if (moveRecorded(draft, archivedAs, stamp)) return;
  if (hits.length === 0) addArchiveLine(draft, ctx, archiveEntryLine(rel.replace(/\.md$/, ''), archivedAs, '', stamp));
  for (const h of hits) addArchiveLine(draft, ctx, archiveEntryLine(h.entry!.title, archivedAs, h.entry!.hook, stamp));
}
