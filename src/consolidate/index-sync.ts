// Step 2: the index synced with the topic files. Entries added for orphan topics (in the section of
// their type), entries whose topic file git shows as deleted moved to the archive index with the
// reason (an entry whose file never existed in the repository's history is kept and reported: the
// file may live in the agent's own store, never committed), duplicate entries
// merged, over-long entries shortened with the detail moved into the topic. Headings, prose and the
// order of what stays are kept byte for byte.
import { parseEntry, parseIndex, pathKey, TRAILING_SEPARATOR, type IndexLine } from '../memdir/memory-index.js';
import { entryPlacer, headingAt, headingType } from '../memdir/entry-place.js';
import { unsafeTopicName } from '../memdir/names.js';
import { cutAtComment, parseTopic } from '../memdir/topic.js';
import { isMemoryType } from '../memdir/types.js';
import { codePointLength, MAX_ENTRY_CHARS, MAX_INDEX_LINES, MAX_INDEX_UNITS, measureIndex, trailingBlankMeasure, withinRecall } from '../memdir/limits.js';
import type { MemState, StepContext, StepResult } from './types.js';
import { addArchiveLine } from './archive.js';
import { draftOf, finish } from './draft.js';
import { linkedByName, topicMentions } from '../content/index-mentions.js';
import { appendLines, secretIn } from './text.js';
import { topicEntry } from '../memdir/topic-entry.js';
import { cutHook, duplicateDetail, holdsText, moveToTopicEdit, ownText } from '../memdir/hook-text.js';
import { dominantEol } from '../memdir/lines.js';
import { INDEX_FILE, isTopLevelTopic, isUnfilledStub, notAMemory } from '../memdir/kinds.js';
import { visibleLine } from '../content/hidden.js';

export interface IndexReport {
  added: Array<{ target: string; line: string }>;
  /** Entries moved to the archive: their topic file was deleted in a commit. */
  dangling: Array<{ target: string; line: number; reason: string }>;
  /** Entries kept though their file is not here: git never saw it (it may live in the agent's store). */
  missing: Array<{ target: string; line: number; reason: string }>;
  duplicates: Array<{ target: string; line: number; keptLine: number }>;
  /** Second entries for a topic with words of their own: left for a person (lint suggests the merge). */
  differing: Array<{ target: string; line: number; keptLine: number }>;
  shortened: Array<{ target: string; line: number }>;
  /** Over-long entries not shortened, and why (a long title, no topic file, no cut keeping the links): for the agent or a person. */
  tooLong: Array<{ target: string; line: number; reason: string }>;
  /**
   * Entries left as they are (an over-long one not shortened, a duplicate not merged) because the
   * text to move would take their topic file past what recall shows another session.
   */
  pastRecall: Array<{ target: string; line: number }>;
  /**
   * What this step would have copied or moved but holds a secret no-secrets reports: left where it
   * is (`line`: the index line; null for a topic that would have got an entry from its frontmatter).
   */
  withheld: Array<{ target: string; line: number | null; kind: string }>;
}


export function isLocalTarget(key: string): boolean {
  return key !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(key) && !key.startsWith('/') && !key.startsWith('../') && key !== '..';
}



export function syncIndex(state: MemState, ctx: StepContext): StepResult<IndexReport> {
  const report: IndexReport = { added: [], dangling: [], missing: [], duplicates: [], differing: [], shortened: [], tooLong: [], pastRecall: [], withheld: [] };
  // Text holding a secret is neither copied nor moved (contract §9): it stays, reported.
  const withheld = (text: string, target: string, line: number | null): boolean => {
    const kind = secretIn(text, ctx.secrets);
    if (kind !== undefined) report.withheld.push({ target, line, kind });
    return kind !== undefined;
  };
  const raw = state.files.get(INDEX_FILE);
  if (raw === undefined) return { state, report };
  const index = parseIndex(raw);
  const eol = dominantEol(raw);
  const out: Array<{ text: string; eol: string } | null> = index.lines.map((l) => ({ text: l.text, eol: l.eol }));
  const next = draftOf(state);
  const files = next.files;
  // Text moved out of the index goes into the topic's "## From the index" section, as lint's fixes
  // move hooks: never read as part of the section before it (nor dated by that section's heading).
  // A move that would take the topic past what recall shows is not made (false): the text would
  // leave the index, which every session loads, for lines no session is shown.
  const movedInto = new Map<string, string>();
  const moveDetail = (target: string, detail: string): boolean => {
    const topic = movedInto.get(target) ?? files.get(target);
    if (topic === undefined) return false;
    if (holdsText(topic, detail)) return true;
    const edit = moveToTopicEdit({ path: target, text: topic }, detail);
    if (!edit) return true;
    const after = topic.slice(0, edit.start) + edit.text + topic.slice(edit.end);
    if (!withinRecall(after)) return false;
    movedInto.set(target, after);
    return true;
  };

  // Duplicates: the first entry for a target stays; a later one that says nothing else is dropped,
  // its hook kept as the first's when the first has none. One with words of its own (a hook the
  // first does not hold, a title of its own) is left: it is as often a correction written after
  // the first ("— CORRECTED") as a repeat, and which is current is a person's to choose.
  const first = new Map<string, IndexLine>();
  for (const l of index.lines) {
    if (!l.entry || !isLocalTarget(l.entry.key)) continue;
    const kept = first.get(l.entry.key);
    if (!kept) {
      first.set(l.entry.key, l);
      continue;
    }
    if (withheld(l.text, l.entry.key, l.line)) continue;
    const keptText = out[kept.line - 1]!.text;
    // A first entry without a hook takes the second's when that is all the second says.
    const takesHook = l.entry.hook !== '' && !kept.entry!.hook && keptText === kept.text;
    const keptEntry = parseEntry(keptText) ?? kept.entry!;
    const topicText = files.get(l.entry.key);
    const detail = duplicateDetail(takesHook ? { ...keptEntry, hook: l.entry.hook } : keptEntry, l.entry, topicText && ownText(topicText));
    if (detail) {
      if (files.has(l.entry.key)) {
        report.differing.push({ target: l.entry.key, line: l.line, keptLine: kept.line });
        continue;
      }
      addArchiveLine(next, ctx, `${l.text.trim()} (removed from MEMORY.md on ${ctx.facts.today}: a second entry for a file that does not exist)`);
    }
    if (takesHook) out[kept.line - 1]!.text = keptText.trimEnd() + ' — ' + l.entry.hook;
    out[l.line - 1] = null;
    report.duplicates.push({ target: l.entry.key, line: l.line, keptLine: kept.line });
  }

  // Entries without a file: into the archive index only when git shows the file deleted; one git
  // never saw is kept (its file may be in the agent's own store) and reported.
  // A file on disk that is not one of this memdir's memory files (one of a nested memory folder, as
  // a team store mounted at team/<mount>/ with its own MEMORY.md) is there; one a step of this run
  // moved to the archive is not.
  const moved = new Set(state.moves.map((m) => m.from));
  let dangling = index.lines.filter((l) => l.entry && out[l.line - 1] && isLocalTarget(l.entry.key) && !files.has(l.entry.key) && !(ctx.allPaths.has(l.entry.key) && !moved.has(l.entry.key)));
  // A committed file a sparse checkout leaves out is not missing: its entry stays, nothing is said.
  if (dangling.length > 0) {
    const left = ctx.facts.notCheckedOut(dangling.map((l) => l.entry!.key));
    if (left.size > 0) dangling = dangling.filter((l) => !left.has(l.entry!.key));
  }
  if (dangling.length > 0) {
    const deleted = ctx.facts.deletions(dangling.map((l) => l.entry!.key));
    for (const l of dangling) {
      const d = deleted.get(l.entry!.key);
      if (!d) {
        report.missing.push({ target: l.entry!.key, line: l.line, reason: ctx.facts.inGit ? 'the file was never committed' : 'the file does not exist' });
        continue;
      }
      if (withheld(l.text, l.entry!.key, l.line)) continue;
      const reason = `the file was deleted in commit ${d.commit.slice(0, 12)} (${d.date})`;
      out[l.line - 1] = null;
      report.dangling.push({ target: l.entry!.key, line: l.line, reason });
      addArchiveLine(next, ctx, `${l.text.trim()} (removed from MEMORY.md on ${ctx.facts.today}: ${reason})`);
    }
  }

  // Over-long entries: the hook shortened at a word, its full text kept in the topic file.
  for (const l of index.lines) {
    const o = out[l.line - 1];
    if (!l.entry || !o || codePointLength(o.text) <= MAX_ENTRY_CHARS) continue;
    const e = l.entry;
    const text = o.text.trimEnd();
    const untouched = o.text === l.text;
    const hook = untouched ? e.hook : text.slice(text.indexOf(' — ', text.indexOf('](')) + 3);
    const head = text.slice(0, text.length - hook.length).replace(TRAILING_SEPARATOR, '');
    const sep = untouched && e.separator ? e.separator : ' — ';
    if (withheld(hook, e.key, l.line)) continue;
    // Cut as index-line-length's fix cuts (one cut for both): at a word, after the hook's last link.
    const budget = MAX_ENTRY_CHARS - codePointLength(head + sep);
    const cut = hook !== '' && budget > 0 ? cutHook(hook, budget) : { head: '', tail: hook };
    const reason = hook === '' ? 'the entry has no hook to shorten' : budget <= 0 ? 'the title and link alone take the whole limit' : !files.has(e.key) ? `no topic file ${e.key} here to receive the detail` : cut.head === '' ? "no cut at a word within the limit keeps the hook's links and code spans whole" : null;
    if (reason) {
      report.tooLong.push({ target: e.key, line: l.line, reason });
      continue;
    }
    const shortened = head + sep + cut.head;
    if (!moveDetail(e.key, hook)) {
      report.pastRecall.push({ target: e.key, line: l.line });
      continue;
    }
    o.text = shortened;
    report.shortened.push({ target: e.key, line: l.line });
  }

  // Orphan topics: an entry each, in the section of their type.
  const indexed = new Set(index.lines.filter((l) => l.entry).map((l) => l.entry!.key));
  const unlisted = [...files.keys()].filter((r) => isTopLevelTopic(r) && !indexed.has(pathKey(r))).sort();
  // A topic the index names another way (a table of file names, `x.md`) is known to the agent:
  // a second line for it would repeat it (lint's index-entry-format asks for a real entry).
  // Every top-level topic, indexed or not: a [[name]] names a topic only when no other answers to it.
  const topLevel = [...files.keys()].filter((r) => isTopLevelTopic(r));
  const byKey = new Map(topLevel.map((r) => [pathKey(r), r] as const));
  const nameOf = (key: string) => {
    const name = parseTopic(files.get(byKey.get(key)!)!).name;
    return typeof name === 'string' ? name : undefined;
  };
  const mentioned = topicMentions(index.lines, [...byKey.keys()], ctx.fromRoot, true, nameOf);
  // A name no entry can spell so that it reads back as this file (a newline in it, leading
  // whitespace...) gets none: it would be added again on every run. Lint's index-orphan reports it.
  const orphans = unlisted.filter((r) => !mentioned.has(pathKey(r)) && !unsafeTopicName(r));
  const inserts = new Map<number, string[]>(); // after line index (-1: at the very end)
  const newSections = new Map<string, string[]>();
  if (orphans.length > 0) {
    // Entries this run drops (duplicates, dangling) are no place to write after.
    const live = (l: IndexLine) => out[l.line - 1] !== null;
    const placeFor = entryPlacer(index.lines, live);
    // Never past what Claude Code loads: entries are added while the index stays within its lines
    // and UTF-16 units (a new section counts its heading and blank lines too); the rest stay
    // orphans for lint to report. Measured after this run's own shortening and merging, so the
    // room they make is used in the same run (a second run would otherwise add what this one could).
    const kept = out.filter((o): o is { text: string; eol: string } => o !== null);
    const keptText = index.bom + kept.map((l, i) => l.text + (l.eol || (i < kept.length - 1 ? eol : ''))).join('');
    const measured = measureIndex(keptText);
    let lines = measured.lines;
    let units = measured.units;
    // An entry written after the index's last line that is not blank turns the blank lines after it
    // into lines that count (Claude Code trims before it counts): from the first such entry on.
    const blanks = trailingBlankMeasure(keptText);
    let lastContent = index.lines.length - 1;
    while (lastContent >= 0 && (out[lastContent] === null || index.lines[lastContent]!.kind === 'blank')) lastContent--;
    let endReached = false;
    for (const rel of orphans) {
      const topic = parseTopic(files.get(rel)!);
      // Only what is surely a memory, titled with the words its writer meant (lint's index-orphan
      // reports the rest).
      if (notAMemory(rel, topic.type) || !isMemoryType(topic.type) || isUnfilledStub(topic.body) || cutAtComment(topic.frontmatter, 'name') || cutAtComment(topic.frontmatter, 'description')) continue;
      // A name another memory answers to, which the index links as [[name]]: maybe a superseded draft.
      if (linkedByName(index.lines, typeof topic.name === 'string' ? topic.name : undefined)) continue;
      const name = visibleLine(topic.name);
      const description = visibleLine(topic.description);
      if (!name || !description) continue;
      const line = topicEntry(rel, name, description);
      if (line === null || withheld(line, rel, null)) continue;
      const type = topic.type;
      const place = placeFor(type);
      const extra = place.kind === 'section' && !newSections.has(type) ? 3 : 0;
      const atEnd = !endReached && (place.kind !== 'after' || place.line >= lastContent);
      const blankLines = atEnd ? blanks.lines : 0;
      const blankUnits = atEnd ? blanks.units : 0;
      if (lines + blankLines + 1 + extra > MAX_INDEX_LINES || units + blankUnits + line.length + 1 + extra * 20 > MAX_INDEX_UNITS) continue;
      if (atEnd) endReached = true;
      lines += blankLines + 1 + extra;
      units += blankUnits + line.length + 1 + extra * 20;
      report.added.push({ target: rel, line });
      if (place.kind === 'section') {
        newSections.set(type, [...(newSections.get(type) ?? []), line]);
        continue;
      }
      const after = place.kind === 'after' ? place.line : -1;
      inserts.set(after, [...(inserts.get(after) ?? []), line]);
    }
  }

  const lines: Array<{ text: string; eol: string }> = [];
  out.forEach((o, i) => {
    if (o) lines.push(o);
    for (const l of inserts.get(i) ?? []) lines.push({ text: l, eol });
  });
  // An index that ends without a line ending keeps ending without one (as lint's fix leaves it).
  const last = lines[lines.length - 1];
  if (last && raw !== '' && !/[\r\n]$/.test(raw)) lines[lines.length - 1] = { text: last.text, eol: '' };
  const trailing = [...(inserts.get(-1) ?? [])];
  if (newSections.size > 0) {
    const typedHeading = index.lines.flatMap((l) => headingAt(l) ?? []).find((h) => headingType(h.text));
    const level = '#'.repeat(typedHeading ? typedHeading.level : 2);
    for (const [type, entries] of newSections) trailing.push('', `${level} ${type[0]!.toUpperCase()}${type.slice(1)}`, '', ...entries);
  }
  let text = index.bom + lines.map((l, i) => l.text + (l.eol || (i < lines.length - 1 ? eol : ''))).join('');
  if (trailing.length > 0) text = appendLines(text, trailing[0] === '' ? trailing.slice(1) : trailing, trailing[0] === '');
  // Never inside code: every added line must read back as its entry (an index ending in an
  // unclosed fence gets no entries appended; the orphans stay reported for lint).
  if (report.added.length > 0) {
    const read = new Set(parseIndex(text).lines.flatMap((l) => (l.entry ? [l.text] : [])));
    if (report.added.some((a) => !read.has(a.line))) {
      text = index.bom + out.filter((o): o is { text: string; eol: string } => o !== null).map((l, i, all) => l.text + (l.eol || (i < all.length - 1 ? eol : ''))).join('');
      report.added = [];
    }
  }
  if (text !== raw) files.set(INDEX_FILE, text);
  for (const [target, text] of movedInto) files.set(target, text);
  return { state: finish(next), report };
}
