// What a range of commits changes in one memory folder, read semantically (for `memlint diff`):
// topics added, edited (name, description, type, body), removed, archived or renamed; index
// entries added, edited (title, hook) or removed; daily logs; the index budget at both ends.
// Pure: the caller hands in the texts of both ends.
import { entries, entryIdentity, parseIndex } from './memory-index.js';
import { loadIndex } from './limits.js';
import { ARCHIVE_INDEX, fileKind } from './kinds.js';
import { parseTopic } from './topic.js';

export interface MemdirSide {
  /** MEMORY.md's text, or null when the folder has no index at this end. */
  index: string | null;
  /** Topic files and daily logs: memdir-relative path -> text. */
  files: Map<string, string>;
  /** Files of the archive folder: repository-relative path -> text. */
  archive: Map<string, string>;
}

export interface TopicFacts {
  name?: string;
  description?: string;
  type?: string;
}

export type TopicChange =
  | ({ verb: 'added'; path: string } & TopicFacts)
  | { verb: 'edited'; path: string; before: TopicFacts; after: TopicFacts; body: boolean }
  | ({ verb: 'removed'; path: string } & TopicFacts)
  | ({ verb: 'archived'; path: string; to: string } & TopicFacts)
  | { verb: 'renamed'; path: string; to: string; before: TopicFacts; after: TopicFacts; body: boolean };

export interface EntrySide {
  title: string;
  hook: string;
}

export type EntryChange =
  | ({ verb: 'added'; target: string } & EntrySide)
  | { verb: 'edited'; target: string; before: EntrySide; after: EntrySide }
  | ({ verb: 'removed'; target: string } & EntrySide);

export interface Budget {
  lines: number;
  units: number;
}

export interface MemdirChanges {
  topics: TopicChange[];
  entries: EntryChange[];
  logs: { added: string[]; changed: string[]; removed: string[] };
  budget: { before: Budget | null; after: Budget | null };
}

/** A daily log, by its memdir-relative path, as the memdir model classifies it. */
const isDailyLog = (rel: string) => fileKind(rel).kind === 'log';

/** Name, description and type as recall reads them (type top level or under metadata). */
export function topicFacts(text: string): TopicFacts {
  const t = parseTopic(text);
  const facts: TopicFacts = {};
  if (t.name !== undefined) facts.name = t.name;
  if (t.description !== undefined) facts.description = t.description;
  if (typeof t.type === 'string') facts.type = t.type;
  return facts;
}

/** The index budget exactly as `memlint show --budget` measures it. */
export function indexBudget(text: string, strip: boolean): Budget {
  const { lines, units } = loadIndex(text, { strip }).measure;
  return { lines, units };
}

/** Each entry by its identity, with its link target as written (a URL keeps its `//`, which the identity's path normalisation folds). */
function entryMap(text: string | null): Map<string, { side: EntrySide; written: string }> {
  const out = new Map<string, { side: EntrySide; written: string }>();
  if (text === null) return out;
  for (const l of entries(parseIndex(text))) {
    const id = entryIdentity(l.entry);
    if (!out.has(id)) out.set(id, { side: { title: l.entry.title, hook: l.entry.hook }, written: l.entry.target.trim() });
  }
  return out;
}

const bodyOf = (text: string) => parseTopic(text).body;

/** Where an archived topic went: a file new in the archive with its name (or name-2.md…), or its text. */
function archivedTo(rel: string, text: string, before: MemdirSide, after: MemdirSide): string | null {
  const base = rel.split('/').pop()!.replace(/\.md$/i, '');
  const fresh = [...after.archive].filter(([p]) => !before.archive.has(p) && p.split('/').pop() !== ARCHIVE_INDEX);
  const byName = fresh.find(([p]) => new RegExp(`(^|/)${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-\\d+)?\\.md$`, 'i').test(p));
  if (byName) return byName[0];
  return fresh.find(([, t]) => t === text)?.[0] ?? null;
}

/**
 * The changes between two ends of one memdir. `renames`: memdir-relative old path -> new path
 * (git's rename detection), for topics moved inside the folder.
 */
export function memdirChanges(before: MemdirSide, after: MemdirSide, opts: { strip: boolean; renames?: Map<string, string> }): MemdirChanges {
  const topics: TopicChange[] = [];
  const logs = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
  const renames = opts.renames ?? new Map<string, string>();
  const renamedTo = new Set<string>();
  for (const [from, to] of renames) if (before.files.has(from) && !after.files.has(from) && after.files.has(to) && !before.files.has(to)) renamedTo.add(to);

  for (const [rel, text] of before.files) {
    const now = after.files.get(rel);
    if (isDailyLog(rel)) {
      if (now === undefined) logs.removed.push(rel);
      else if (now !== text) logs.changed.push(rel);
      continue;
    }
    if (now !== undefined) {
      if (now === text) continue;
      const [b, a] = [topicFacts(text), topicFacts(now)];
      topics.push({ verb: 'edited', path: rel, before: b, after: a, body: bodyOf(text) !== bodyOf(now) });
      continue;
    }
    const to = renames.get(rel);
    if (to !== undefined && renamedTo.has(to)) {
      const moved = after.files.get(to)!;
      topics.push({ verb: 'renamed', path: rel, to, before: topicFacts(text), after: topicFacts(moved), body: bodyOf(text) !== bodyOf(moved) });
      continue;
    }
    const archive = archivedTo(rel, text, before, after);
    if (archive !== null) topics.push({ verb: 'archived', path: rel, to: archive, ...topicFacts(text) });
    else topics.push({ verb: 'removed', path: rel, ...topicFacts(text) });
  }
  for (const [rel, text] of after.files) {
    if (before.files.has(rel) || renamedTo.has(rel)) continue;
    if (isDailyLog(rel)) logs.added.push(rel);
    else topics.push({ verb: 'added', path: rel, ...topicFacts(text) });
  }
  const order = { added: 0, edited: 1, renamed: 2, archived: 3, removed: 4 };
  topics.sort((a, b) => order[a.verb] - order[b.verb] || a.path.localeCompare(b.path));
  for (const list of Object.values(logs)) list.sort();

  const was = entryMap(before.index);
  const is = entryMap(after.index);
  const entryChanges: EntryChange[] = [];
  for (const [id, { side: a, written }] of is) {
    const b = was.get(id)?.side;
    if (!b) entryChanges.push({ verb: 'added', target: written, ...a });
    else if (b.title !== a.title || b.hook !== a.hook) entryChanges.push({ verb: 'edited', target: written, before: b, after: a });
  }
  for (const [id, { side: b, written }] of was) if (!is.has(id)) entryChanges.push({ verb: 'removed', target: written, ...b });
  entryChanges.sort((a, b) => order[a.verb] - order[b.verb] || a.target.localeCompare(b.target));

  return {
    topics,
    entries: entryChanges,
    logs,
    budget: {
      before: before.index === null ? null : indexBudget(before.index, opts.strip),
      after: after.index === null ? null : indexBudget(after.index, opts.strip),
    },
  };
}

export function isEmpty(c: MemdirChanges): boolean {
  const sameBudget = c.budget.before?.lines === c.budget.after?.lines && c.budget.before?.units === c.budget.after?.units;
  return c.topics.length === 0 && c.entries.length === 0 && c.logs.added.length + c.logs.changed.length + c.logs.removed.length === 0 && sameBudget && (c.budget.before === null) === (c.budget.after === null);
}
