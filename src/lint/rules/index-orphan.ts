import { unsafeTopicName } from '../../memdir/names.js';
import type { Rule, RuleContext } from '../types.js';
import type { ParsedIndex } from '../../memdir/memory-index.js';
import { parseIndex, pathKey } from '../../memdir/memory-index.js';
import { dominantEol } from '../../memdir/lines.js';
import { MAX_ENTRY_CHARS, MAX_INDEX_LINES, MAX_INDEX_UNITS, measureIndex, trailingBlankMeasure } from '../../memdir/limits.js';
import { cutAtComment } from '../../memdir/topic.js';
import { isMemoryType } from '../../memdir/types.js';
import { isPointerStub, isUnfilledStub, notAMemory } from '../../memdir/kinds.js';
import { linkedByName, topicMentions } from '../../content/index-mentions.js';
import { visibleLine } from '../../content/hidden.js';
import { topicEntry } from '../../memdir/topic-entry.js';
import { entryPlacer, type EntryPlace } from '../../memdir/entry-place.js';
import { pathBelowRoot } from '../../fs/paths.js';

/**
 * index-orphan: every topic file has an entry in MEMORY.md. Claude Code's index is how the agent
 * knows a memory exists ("the pointer line is the reachability, not the file"). The fix adds an
 * entry built from the file's name and description where consolidation puts one (entryPlace). A topic the
 * index names another way (a table of file names, a back-ticked name, "see SCHEMA.md") is not an
 * orphan: index-entry-format reports it as mentioned, not an entry; nor is one it names as a
 * `[[stem]]` wiki link, or as a `[[name]]` link by the `name:` of its frontmatter when no other
 * memory answers to it (a draft sharing the name of the memory the index links is an orphan, its
 * entry not certain: reported, not fixed). Files that are not memories (README-like files without a memory type,
 * SKILL.md and skills/, a file without frontmatter in a subfolder, a file in a folder named
 * archive, _archive, .archive or archived: set aside by its writer; a tombstone or redirect stub
 * without frontmatter that names the file now holding its text; an empty file; a template's stub
 * whose body is only HTML comments) are not reported.
 *
 * The fix writes an entry only when it is certain: the file has a memory type, its name and
 * description are what the writer meant (not cut by YAML at ` #`: `Story #12` read as "Story"),
 * and the index keeps within Claude Code's limits (200 lines, 25,000 UTF-16 units) once it is
 * added, the orphans earlier in the memdir's order taking the room first. Otherwise it reports.
 */
const TESTING = '---\nname: Testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** every test under tests/integration.\n';

export const indexOrphan: Rule = {
  id: 'index-orphan',
  description: 'Every topic file has an entry in MEMORY.md',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: { files: { 'MEMORY.md': '## Feedback\n- [Testing](feedback_testing.md) — integration tests hit a real database\n', 'feedback_testing.md': TESTING } },
    notOk: { files: { 'MEMORY.md': '## Feedback\n', 'feedback_testing.md': TESTING } },
    notOkOutput: 'feedback_testing.md:1:1: feedback_testing.md has no entry in MEMORY.md: the agent does not know this memory exists',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    // A generated index (config generatedIndex) lists every memory by itself: nothing is orphaned.
    if (!index || !ctx.memdir.index || ctx.format.reads('generated-index')) return;
    // Keys are NFC; a file name written NFD (macOS) is the same file.
    const rel = pathKey(ctx.file.rel);
    // A name no entry can spell reliably: reported (whether or not an entry tries), never fixed.
    const unsafe = unsafeTopicName(ctx.file.rel);
    if (unsafe) {
      ctx.report({ message: `topic file name ${JSON.stringify(ctx.file.rel)} ${unsafe}: rename the file; an index entry cannot name it reliably, so none is added`, line: 1, column: 1 });
      return;
    }
    // An entry written from the repository root names this file too: index-link-target asks for
    // it to be rewritten; adding a second entry would leave a duplicate once it is.
    const memdirRel = memdirFromRoot(ctx);
    const fromRoot = memdirRel === undefined ? null : `${memdirRel}/${rel}`;
    const keys = entryKeys(index);
    if (keys.has(rel) || (fromRoot !== null && keys.has(fromRoot))) return;
    const topic = ctx.memdir.parsedTopic(ctx.file);
    // Not a memory: a README-like file (frontmatter-yaml tells it to leave the folder) unless it
    // carries a memory type, a skill's files (SKILL.md and what lies beside it), a file without
    // frontmatter in a subfolder.
    if (notAMemory(ctx.file.rel, topic.type, topic.frontmatter !== null)) return;
    // A tombstone or redirect left where a memory was ("Merged into MEMORY.md."), or an empty file
    // (an agents' mailbox waiting for its first line): no memory itself.
    if (topic.frontmatter === null && (ctx.file.text.trim() === '' || isPointerStub(ctx.file.text))) return;
    // A template's stub with frontmatter and nothing written under it yet: no memory to point at.
    if (topic.frontmatter !== null && isUnfilledStub(topic.body)) return;
    // Named in the index another way (a table of files, `SCHEMA.md`, "see x.md"): the agent knows
    // it; index-entry-format asks for a real entry, and no second one is appended here.
    if (mentionsIn(index, () => ctx.memdir.topics.map((t) => pathKey(t.rel)), memdirRel, topicNames(ctx)).has(rel)) return;
    const message = `${ctx.file.rel} has no entry in MEMORY.md: the agent does not know this memory exists`;
    // No hidden character is copied into the index (no-hidden-unicode would report it there, in a
    // file this fix wrote): the entry reads as the topic does once that rule's fix is made.
    const name = visibleLine(topic.name);
    const description = visibleLine(topic.description);
    // An entry is added only for what is surely a memory, with the words its writer meant: a
    // memory type, and a name and description YAML did not cut at a ` #`.
    const certain = isMemoryType(topic.type) && !cutAtComment(topic.frontmatter, 'name') && !cutAtComment(topic.frontmatter, 'description');
    // Why no entry is added, said in the message: a person then knows what to write.
    const notFixed = topic.frontmatter === null
      ? 'it has no frontmatter (name, description, type) to write the entry from'
      : topic.frontmatter.error
      ? 'its frontmatter is not valid YAML'
      : !name || !description
        ? `its frontmatter gives no ${!name && !description ? 'name and description' : !name ? 'name' : 'description'} to write the entry from`
        : !isMemoryType(topic.type)
          ? 'its frontmatter gives no memory type (user, feedback, project, reference), so it may not be a memory'
          : !certain
            ? "YAML cut its name or description at ' #'"
            : linkedByName(index.lines, name)
              ? `the index links [[${name}]], a name another memory answers to: a second entry under it may be for a superseded draft`
              : null;
    if (notFixed) {
      ctx.report({ message: `${message} (not fixed: ${notFixed})`, line: 1, column: 1 });
      return;
    }
    // Never a fix that takes the index past what Claude Code loads: the orphans fixed in one run
    // are the first ones (in the memdir's order) that still fit in its lines and UTF-16 units.
    if (!fitsInIndex(ctx, rel)) {
      ctx.report({ message: `${message}; no entry is added: the index has no room left within Claude Code's limits (${MAX_INDEX_LINES} lines, ${MAX_INDEX_UNITS.toLocaleString('en-US')} UTF-16 units)`, line: 1, column: 1 });
      return;
    }
    const line = topicEntry(rel, name, description);
    // An entry that would not read back as an entry for this file would be added again on every
    // run (--fix must settle): report without a fix instead.
    if (!line) {
      ctx.report({ message: `${message} (not fixed: no entry built from its name and description reads back as one)`, line: 1, column: 1 });
      return;
    }
    const indexText = ctx.memdir.index.text;
    const eol = dominantEol(indexText);
    const at = insertionPoint(index, indexText, isMemoryType(topic.type) ? topic.type : null);
    // At the end of an index without a final newline the line ending goes before the entry, so
    // the file keeps ending without one, and two entries added in one run stay adjacent.
    const text = at.atEnd ? eol + line : line + eol;
    // The added line must read as this topic's entry where it lands (never as code, as in an
    // index that ends inside an unclosed fence): else report without a fix.
    const after = parseIndex(indexText.slice(0, at.offset) + text + indexText.slice(at.offset));
    if (!after.lines.some((l) => l.entry?.key === rel && l.text === line)) {
      ctx.report({ message: `${message} (not fixed: an entry added where it belongs would not read as one there)`, line: 1, column: 1 });
      return;
    }
    ctx.report({ message, line: 1, column: 1, fix: { edits: [{ path: ctx.memdir.index.path, start: at.offset, end: at.offset, text }] } });
  },
};


// The places of one index, by type: asked by every orphan's check and by the room count.
const placers = new WeakMap<ParsedIndex, (type: string | null) => EntryPlace>();
function placeIn(index: ParsedIndex, type: string | null): EntryPlace {
  let placer = placers.get(index);
  if (!placer) placers.set(index, (placer = entryPlacer(index.lines)));
  return placer(type);
}

/**
 * Where the entry goes, as consolidation places it (entryPlace): after the last entry of the
 * section of its type, right under that heading, after the index's last entry, or at the end. An
 * index organised by type with no section for this one gets the entry at the end here, where
 * consolidation opens the section: a fix is one finding's edit, and several orphans' edits cannot
 * open one section between them. `atEnd`: the entry goes after the file's last character, which
 * ends no line (it needs a line ending before it).
 */
export function insertionPoint(index: ParsedIndex, text: string, type: string | null): { offset: number; atEnd: boolean } {
  const place = placeIn(index, type);
  if (place.kind === 'after') {
    const l = index.lines[place.line]!;
    if (l.eol !== '') return { offset: l.offset + l.text.length + l.eol.length, atEnd: false };
  }
  return { offset: text.length, atEnd: text !== '' && !/[\r\n]$/.test(text) };
}

// The rule runs once per topic file: the index is searched once for every topic it names, not
// once per orphan (thousands of orphans over a long index made lint quadratic).
const mentionCache = new WeakMap<object, Map<string, number>>();
/** The memdir's path from the repository root, when it is inside one. */
function memdirFromRoot(ctx: RuleContext): string | undefined {
  return pathBelowRoot(ctx.repo?.root, ctx.memdir.dir);
}

function mentionsIn(index: { lines: Parameters<typeof topicMentions>[0] }, topics: () => string[], fromRoot: string | undefined, nameOf: (topic: string) => string | undefined): Map<string, number> {
  let m = mentionCache.get(index);
  if (!m) mentionCache.set(index, (m = topicMentions(index.lines, topics(), fromRoot, true, nameOf)));
  return m;
}

/** Each topic's frontmatter name, by its key (a `[[name]]` in the index names it). */
function topicNames(ctx: RuleContext): (topic: string) => string | undefined {
  // Built on the first question only: the mentions are worked out once per index (mentionsIn).
  let byKey: Map<string, (typeof ctx.memdir.topics)[number]> | undefined;
  return (key) => {
    byKey ??= new Map(ctx.memdir.topics.map((t) => [pathKey(t.rel), t] as const));
    const t = byKey.get(key);
    const name = t ? ctx.memdir.parsedTopic(t).name : undefined;
    return typeof name === 'string' ? name : undefined;
  };
}

// The keys of an index's entries, once per parsed index (each topic asked for its key: a search
// of the index per topic was quadratic with tens of thousands of both).
const keysCache = new WeakMap<ParsedIndex, Set<string>>();
function entryKeys(index: ParsedIndex): Set<string> {
  let keys = keysCache.get(index);
  if (!keys) keysCache.set(index, (keys = new Set(index.lines.flatMap((l) => (l.entry ? [l.entry.key] : [])))));
  return keys;
}

/**
 * Whether this orphan's entry still fits in the index within Claude Code's limits, the orphans
 * before it (in the memdir's order) taking their room first. Each entry is counted at the most it
 * can take (a line of MAX_ENTRY_CHARS code points, two UTF-16 units each, and its line ending).
 */
const roomCache = new WeakMap<object, Set<string>>();
function fitsInIndex(ctx: RuleContext, rel: string): boolean {
  const index = ctx.memdir.parsedIndex()!;
  let fits = roomCache.get(index);
  if (!fits) {
    fits = new Set();
    // Claude Code trims the index before it counts, but an entry appended at the end turns the
    // trailing blank lines it trimmed into lines that count: from the first orphan placed at the
    // end on, measure as if something followed them.
    const text = ctx.memdir.index!.text;
    const trimmed = measureIndex(text);
    const { lines: blankLines, units: blankUnits } = trailingBlankMeasure(text);
    let lines = trimmed.lines;
    let units = trimmed.units;
    let endReached = false;
    // An entry placed after the index's last line that is not blank (under a last heading with no
    // entry yet, past the blank line after it) reaches the end as one appended does.
    let lastContent = index.lines.length - 1;
    while (lastContent >= 0 && index.lines[lastContent]!.kind === 'blank') lastContent--;
    const reachesEnd = (place: EntryPlace) => place.kind !== 'after' || place.line >= lastContent;
    const mentioned = mentionsIn(index, () => ctx.memdir.topics.map((t) => pathKey(t.rel)), memdirFromRoot(ctx), topicNames(ctx));
    const keys = entryKeys(index);
    for (const t of ctx.memdir.topics) {
      const r = pathKey(t.rel);
      if (keys.has(r) || mentioned.has(r) || unsafeTopicName(t.rel)) continue;
      const p = ctx.memdir.parsedTopic(t);
      if (notAMemory(t.rel, p.type) || !isMemoryType(p.type)) continue;
      if (!endReached && reachesEnd(placeIn(index, p.type))) {
        endReached = true;
        lines += blankLines;
        units += blankUnits;
      }
      if (lines + 1 > MAX_INDEX_LINES || units + 2 * MAX_ENTRY_CHARS + 2 > MAX_INDEX_UNITS) break;
      lines++;
      units += 2 * MAX_ENTRY_CHARS + 2;
      fits.add(r);
    }
    roomCache.set(index, fits);
  }
  return fits.has(rel);
}
