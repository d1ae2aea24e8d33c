// Merging one topic's text into another's, as consolidation merges duplicates (dedupe.ts): the
// older file receives every line of the newer that it lacks (list items united, after its list; a
// fenced code block whole; the rest after its body), frontmatter keys it lacks, the later
// `modified`, and a differing description as a body line. Nothing of either is lost. Pure.
import { findFrontmatter, parseTopic } from '../memdir/topic.js';
import { blockModel } from '../memdir/blocks.js';
import { dominantEol, splitLines } from '../memdir/lines.js';
import { isListItem, normalizeContent } from './text.js';

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
