// Step 3: duplicate topics merged. Two topic files whose content says they are the same memory
// (the same type, and nearly the same body, or the same `name` with the same description or a body
// line in common; never a name alone, nor one YAML cut at ` #`) become one: the older file receives every line of the newer (list items
// united, frontmatter merged, `modified` the later); the newer moves to the archive with its entry.
import { cutAtComment, findFrontmatter, parseTopic } from '../memdir/topic.js';
import { parseIndex, pathKey } from '../memdir/memory-index.js';
import type { MemState, StepContext, StepResult } from './types.js';
import { addArchiveLine, archiveEntryLine, moveRecorded, moveToArchive } from './archive.js';
import { draftIndex, draftOf, finish, flushIndex, type Draft } from './draft.js';
import { isListItem, normalizeContent } from './text.js';
import { dominantEol, splitLines } from '../memdir/lines.js';
import { blockModel } from '../memdir/blocks.js';
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

function topLevelKeys(yaml: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of yaml.split('\n')) {
    const m = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
    if (m) {
      current = [line];
      if (!blocks.has(m[1]!)) blocks.set(m[1]!, current);
    } else if (current) current.push(line);
  }
  return blocks;
}

/**
 * The keys directly under a `metadata:` block (its lines as topLevelKeys gives them), each with its
 * lines, unindented: `type: feedback`, or `claudeCodeItem:` with the lines below it.
 */
function metadataKeys(block: string[] | undefined): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  if (!block) return keys;
  const children = block.slice(1);
  const indent = children.find((l) => l.trim() !== '' && !/^\s*#/.test(l))?.match(/^[ \t]*/)?.[0] ?? '';
  if (indent === '') return keys;
  let current: string[] | null = null;
  for (const line of children) {
    const m = line.startsWith(indent) && !/^[ \t]/.test(line.slice(indent.length)) ? /^([A-Za-z_][\w-]*)\s*:/.exec(line.slice(indent.length)) : null;
    if (m) {
      current = [line.slice(indent.length)];
      if (!keys.has(m[1]!)) keys.set(m[1]!, current);
    } else if (current) current.push(line.startsWith(indent) ? line.slice(indent.length) : line);
  }
  return keys;
}

/** The YAML with these metadata keys (unindented lines) added: at the end of its `metadata:` block, or in a new one. */
function withMetadataLines(yaml: string, hasBlock: boolean, added: string[][]): string {
  if (!hasBlock) return `${yaml}${yaml ? '\n' : ''}metadata:\n${added.flat().map((l) => (l.trim() === '' ? l : `  ${l}`)).join('\n')}`;
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => /^metadata\s*:/.test(l));
  let end = start + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || /^[ \t]/.test(lines[end]!))) end++;
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  const indent = lines.slice(start + 1, end).find((l) => l.trim() !== '')?.match(/^[ \t]*/)?.[0] || '  ';
  const block = added.flat().map((l) => (l.trim() === '' ? l : indent + l));
  return [...lines.slice(0, end), ...block, ...lines.slice(end)].join('\n');
}

/** A topic others are merged into, read once: merging a group of duplicates reads it between merges only where its text could read back otherwise. */
interface MergeTarget {
  bom: string;
  eol: string;
  /** Whether it has a closed frontmatter block, and its YAML. */
  closed: boolean;
  yaml: string;
  modified: string | undefined;
  /** The newlines that start its body. */
  bodyStart: string;
  lines: string[];
  /** Its body's lines outside fenced code, as compared (normalizeContent). */
  have: Set<string>;
  /** Its fenced code blocks at the left margin, each as compared (fenceKey). */
  fences: Set<string>;
  /** Whether a merge added a fenced block: reading the text back is then left to readTarget. */
  addedFence?: boolean;
  /** How many of its lines could be a fence (hold ``` or ~~~): with none, no merge parses it for fences. */
  fenceMarks: number;
  /** The last line of its last list item (the item and the indented lines after it), -1 for none; undefined until a merge looks. */
  itemsEnd?: number;
}

function readTarget(older: string): MergeTarget {
  const a = parseTopic(older);
  const fa = findFrontmatter(older);
  const lines = splitLines(a.body).map((l) => l.text);
  const fenced = marginFences(a.body).closed;
  const inFence = new Set([...fenced].flatMap(([start, end]) => Array.from({ length: end - start + 1 }, (_, k) => start + k)));
  return {
    bom: a.bom,
    eol: dominantEol(older),
    closed: !!fa && fa.closeLine > 0,
    yaml: fa && fa.closeLine > 0 ? fa.yaml : '',
    modified: a.modified,
    bodyStart: a.body.match(/^(?:\r?\n)*/)?.[0] ?? '',
    lines,
    have: new Set(lines.flatMap((l, i) => (inFence.has(i) ? [] : [normalizeContent(l)])).filter((n) => n !== '')),
    fences: new Set([...fenced].map(([start, end]) => fenceKey(lines.slice(start, end + 1)))),
    fenceMarks: fenceMarks(lines),
  };
}

function fenceMarks(lines: readonly string[]): number {
  let n = 0;
  for (const l of lines) if (l.includes('```') || l.includes('~~~')) n++;
  return n;
}

/**
 * The fenced code blocks of a body that stand at the left margin (in no list item or quote):
 * `closed`, by their first line's index (0-based) to their last's; `open`, the one a body leaves
 * open to its end, with the line that would close it. A merge takes each closed block whole or
 * not at all: line by line, a block's code joined the prose, or a fence line both blocks share was
 * taken once and left a block open to the end of the file.
 */
function marginFences(body: string): { closed: Map<number, number>; open: { start: number; closing: string } | null } {
  const closed = new Map<number, number>();
  let open: { start: number; closing: string } | null = null;
  if (!body.includes('```') && !body.includes('~~~')) return { closed, open };
  const model = blockModel(body);
  const lines = splitLines(body);
  for (const c of model.codeBlocks) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[c.startLine - 1]?.text ?? '')?.[1];
    if (!c.fenced || !fence || model.lines[c.startLine - 1]?.quote !== 0) continue;
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    if (c.endLine > c.startLine && closing.test(lines[c.endLine - 1]?.text ?? '')) closed.set(c.startLine - 1, c.endLine - 1);
    else open = { start: c.startLine - 1, closing: fence };
  }
  return { closed, open };
}

function fenceKey(lines: readonly string[]): string {
  return lines.map((l) => normalizeContent(l)).join('\n');
}

/** Merge `newer` into the target: every line of the newer that the target does not hold added. */
function mergeInto(t: MergeTarget, newer: string): void {
  const b = parseTopic(newer);
  const fb = findFrontmatter(newer);
  let yaml = t.yaml;
  const extraBody: string[] = [];
  if (fb && fb.closeLine > 0) {
    const aKeys = topLevelKeys(yaml);
    // Claude Code 2.1.139 on keeps type, modified and originSessionId under `metadata:`; older
    // memories at the top level. A key the older file holds in either shape is not added in the other.
    const aNested = metadataKeys(aKeys.get('metadata'));
    const held = (key: string) => aKeys.has(key) || aNested.has(key);
    for (const [key, block] of topLevelKeys(fb.yaml)) {
      if (key === 'metadata') {
        const added = [...metadataKeys(block)].filter(([k]) => !held(k)).map(([, lines]) => lines);
        if (added.length > 0) yaml = withMetadataLines(yaml, aKeys.has('metadata'), added);
        continue;
      }
      if (!aKeys.has(key) && aNested.has(key)) continue;
      if (key === 'modified') {
        if (!aKeys.has(key)) yaml += (yaml ? '\n' : '') + block.join('\n');
        continue;
      }
      if (!aKeys.has(key)) yaml += (yaml ? '\n' : '') + block.join('\n');
      else if (aKeys.get(key)!.join('\n').replace(/^[^:]*:\s*/, '').trim() !== block.join('\n').replace(/^[^:]*:\s*/, '').trim() && key !== 'name' && key !== 'type') {
        // A differing value (a second description): kept as a body line, so nothing is lost.
        const value = block.join(' ').replace(/^[^:]*:\s*/, '').replace(/\s+/g, ' ').replace(/^(['"])(.*)\1$/, '$2').trim();
        if (value) extraBody.push(`- ${value}`);
      }
    }
    const ma = t.modified;
    const mb = b.modified;
    const rawB = /^\s*modified\s*:[ \t]*(.*)$/m.exec(fb.yaml)?.[1];
    if (ma && mb && rawB !== undefined && Date.parse(mb) > Date.parse(ma)) {
      yaml = yaml.replace(/^(\s*modified\s*:[ \t]*).*$/m, (_all, prefix: string) => prefix + rawB);
    }
  }
  if (t.closed) t.yaml = yaml;
  const have = t.have;
  const addItems: string[] = [];
  const addOther: string[] = [];
  const take = (line: string) => {
    const n = normalizeContent(line);
    if (n === '' || have.has(n)) return;
    have.add(n);
    (isListItem(line) || /^\s+\S/.test(line) ? addItems : addOther).push(line);
  };
  for (const line of extraBody) take(line);
  const newerLines = splitLines(b.body).map((l) => l.text);
  const fenced = marginFences(b.body).closed;
  for (let i = 0; i < newerLines.length; i++) {
    const end = fenced.get(i);
    if (end === undefined) {
      take(newerLines[i]!);
      continue;
    }
    const block = newerLines.slice(i, end + 1);
    const key = fenceKey(block);
    if (!t.fences.has(key)) {
      t.fences.add(key);
      t.addedFence = true;
      for (const l of block) addOther.push(l);
    }
    i = end;
  }
  const bodyLines = t.lines;
  while (bodyLines.length > 0 && bodyLines[bodyLines.length - 1]!.trim() === '') bodyLines.pop();
  let fences: ReturnType<typeof marginFences> | undefined;
  // Parsed only where a line could be a fence: a group of thousands of duplicates, each adding a
  // line, joined and read the growing body for each.
  const fencesNow = () => (fences ??= t.fenceMarks === 0 ? { closed: new Map<number, number>(), open: null } : marginFences(bodyLines.join('\n')));
  // A body ending in a fenced block left open would take what is added after it as code: the
  // block is closed first, which changes nothing in how it reads (it ran to the end anyway).
  const closeOpenFence = () => {
    const open = fencesNow().open;
    if (!open) return;
    bodyLines.push(open.closing);
    t.fenceMarks++;
    fences = { closed: new Map([...fencesNow().closed, [open.start, bodyLines.length - 1]]), open: null };
    t.addedFence = true;
  };
  if (addItems.length > 0) {
    let end = t.itemsEnd;
    if (end === undefined) {
      // The list the items join is prose: a line in a fenced block is code, whatever it looks like.
      const code = new Set<number>();
      const { closed, open } = fencesNow();
      for (const [start, last] of closed) for (let k = start; k <= last; k++) code.add(k);
      if (open) for (let k = open.start; k < bodyLines.length; k++) code.add(k);
      end = bodyLines.length - 1;
      while (end >= 0 && (code.has(end) || !isListItem(bodyLines[end]!))) end--;
      while (end >= 0 && end + 1 < bodyLines.length && !code.has(end + 1) && /^\s+\S/.test(bodyLines[end + 1]!)) end++;
    }
    if (end >= 0) {
      // (Not splice(…, ...addItems): an input-sized array spread as arguments overflows the stack.)
      const after = bodyLines.splice(end + 1);
      for (const l of addItems) bodyLines.push(l);
      for (const l of after) bodyLines.push(l);
      // The items added (and their indented lines) end the list now; what followed it does not go on it.
      end += addItems.length;
    } else {
      closeOpenFence();
      if (bodyLines.length) bodyLines.push('');
      for (const l of addItems) bodyLines.push(l);
      end = addItems.some((l) => isListItem(l)) ? bodyLines.length - 1 : -1;
    }
    t.itemsEnd = end;
    t.fenceMarks += fenceMarks(addItems);
  }
  if (addOther.length > 0) {
    closeOpenFence();
    t.fenceMarks += fenceMarks(addOther);
    if (bodyLines.length) bodyLines.push('');
    for (const l of addOther) bodyLines.push(l);
  }
}

function renderTarget(t: MergeTarget): string {
  const eol = t.eol;
  const head = t.closed ? `---${eol}${t.yaml.split('\n').join(eol)}${eol}---${eol}` : '';
  return t.bom + head + (head ? t.bodyStart.replace(/\r?\n/g, eol) : '') + t.lines.join(eol).replace(/^(?:\r?\n)+/, '') + eol;
}

/** Merge `newer` into `older`: the older file's text with every line of the newer added. Pure. */
export function mergeTopicTexts(older: string, newer: string): string {
  const t = readTarget(older);
  mergeInto(t, newer);
  return renderTarget(t);
}

/**
 * Merge each of `newers` in turn into `older`: what merging them one at a time gives
 * (mergeTopicTexts of each result and the next), the target read once rather than again for
 * each (a group of thousands of duplicates read the growing text thousands of times).
 */
export function mergeTopicGroup(older: string, newers: readonly string[]): string {
  let t = readTarget(older);
  let yaml = t.yaml;
  newers.forEach((newer, i) => {
    // What the next merge reads is the text the last one wrote.
    if (i > 0) t = asReadBack(t, yaml);
    yaml = t.yaml;
    mergeInto(t, newer);
  });
  return renderTarget(t);
}

/** The target as reading its text back would give it: the same, but where the text changes what is read. */
function asReadBack(t: MergeTarget, yamlBefore: string): MergeTarget {
  // Where the body would read back otherwise than it stands (no non-blank line; a lone CR's line
  // ends, which the body's leading blank lines are not cut at; a fenced block added, whose fences
  // the text around it may read otherwise), the text is read again.
  if (t.eol === '\r' || t.addedFence || !t.lines.some((l) => l !== '')) return readTarget(renderTarget(t));
  // The body's leading empty lines are written as its start's line breaks (and none without a
  // frontmatter block): read back, they are as many.
  const breaks = t.closed ? (t.bodyStart.match(/\n/g)?.length ?? 0) : 0;
  let empty = 0;
  while (t.lines[empty] === '') empty++;
  if (empty !== breaks) {
    t.lines.splice(0, empty, ...new Array<string>(breaks).fill(''));
    if (t.itemsEnd !== undefined && t.itemsEnd >= 0) t.itemsEnd += breaks - empty;
  }
  if (!t.closed) t.bodyStart = '';
  if (t.yaml !== yamlBefore) t.modified = parseTopic(`---\n${t.yaml}\n---\n`).modified;
  return t;
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
