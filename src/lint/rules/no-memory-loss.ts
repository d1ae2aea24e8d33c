import type { MemdirHistory, Rule } from '../types.js';
import { blockModel } from '../../memdir/blocks.js';
import { entries, parseIndex } from '../../memdir/memory-index.js';
import { splitLines, withoutBom } from '../../memdir/lines.js';
import { parseTopic } from '../../memdir/topic.js';
import { fileKind, INDEX_FILE } from '../../memdir/kinds.js';
import { unsafeTopicName } from '../../memdir/names.js';
import { stringsInText } from '../../git/blobs.js';

/**
 * no-memory-loss (--staged only): the staged change must not quietly drop memory. Topic files,
 * index entries and daily-log entries that HEAD has, the commit removes, and whose text the memdir
 * and its archive keep nowhere else are named. More than 2 topic files or more than 5 entries at
 * once is an error (a runaway consolidation, an agent "cleaning up"); a smaller deletion is a
 * warning, since forgetting a wrong memory is legitimate. Text that moved (a topic merged into
 * another, an entry shortened with its detail in the topic file, an archived file) is not lost.
 */
export const MAX_TOPICS_LOST = 2;
export const MAX_ENTRIES_LOST = 5;
/** A removed topic counts as kept when this share of its lines is found elsewhere (merges reword a little). */
const KEPT_SHARE = 0.8;

const DEPLOYS_ENTRY = '- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n';
const FREEZE_ENTRY = '- [Ledger freeze](project_freeze.md) — last two days of the month\n';
const OWNERS_ENTRY = '- [Owners](project_owners.md) — who owns the ledger and deploys\n';
const DEPLOYS = '---\nname: Deploys\ndescription: Deploys go out on Tuesdays, after the ledger freeze\ntype: project\n---\nDeploys go out on Tuesdays, once the ledger freeze has lifted.\n';
const FREEZE = '---\nname: Ledger freeze\ndescription: The ledger is frozen on the last two days of each month\ntype: project\n---\nThe ledger is frozen on the last two days of each month: no schema changes then.\n';
const OWNERS = '---\nname: Owners\ndescription: Who owns the ledger service and deploys\ntype: project\n---\nThe payments team owns the ledger service; the platform team owns deploys.\n';

export const noMemoryLoss: Rule = {
  id: 'no-memory-loss',
  description: 'A staged change does not delete memory (topic files, index entries, log entries) that is kept nowhere else',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    // Merged: the freeze memory's lines move into the deploys memory, its file and entry go.
    ok: {
      head: { 'MEMORY.md': `${DEPLOYS_ENTRY}${FREEZE_ENTRY}`, 'project_deploys.md': DEPLOYS, 'project_freeze.md': FREEZE },
      files: { 'MEMORY.md': DEPLOYS_ENTRY, 'project_deploys.md': `${DEPLOYS}${FREEZE.slice(FREEZE.lastIndexOf('---\n') + 4)}` },
    },
    // Deleted: three memories and their entries, their text kept nowhere.
    notOk: {
      head: { 'MEMORY.md': `${DEPLOYS_ENTRY}${FREEZE_ENTRY}${OWNERS_ENTRY}`, 'project_deploys.md': DEPLOYS, 'project_freeze.md': FREEZE, 'project_owners.md': OWNERS },
      files: { 'MEMORY.md': '# Memory\n' },
    },
    notOkOutput: 'MEMORY.md:1:1: the staged change deletes 3 topic files (project_deploys.md, project_freeze.md, project_owners.md) and 3 index entries (project_deploys.md, project_freeze.md, project_owners.md) whose text is kept nowhere else in the memory folder or its archive (more than 2 topic files or 5 entries at once); to keep them: git restore --staged --worktree -- .claude/memory/project_deploys.md .claude/memory/project_freeze.md .claude/memory/project_owners.md, or archive stale memory with "memlint consolidate --prune" instead of deleting it',
  },
  check(ctx) {
    const h = ctx.history;
    if (!h) return;
    const logsChanged = h.changed.filter((r) => fileKind(r).kind === 'log');
    if (!h.changed.includes(INDEX_FILE) && h.deleted.length === 0 && logsChanged.length === 0) return;
    const loss = findLoss(h, ctx.memdir.parsedIndex() ? ctx.file.text : '');
    if (!loss) return;
    const where = ctx.repo ? relativeLabel(ctx.repo.root, ctx.memdir.dir) : ctx.memdir.dir;
    const { topics, entries: lostEntries, bullets } = loss;
    if (topics.length || lostEntries.length) {
      const parts: string[] = [];
      if (topics.length) parts.push(`${topics.length} topic file${topics.length === 1 ? '' : 's'} (${names(topics)})`);
      if (lostEntries.length) parts.push(`${lostEntries.length} index entr${lostEntries.length === 1 ? 'y' : 'ies'} (${names(lostEntries)})`);
      const runaway = topics.length > MAX_TOPICS_LOST || lostEntries.length > MAX_ENTRIES_LOST;
      const restore = topics.length ? `git restore --staged --worktree -- ${topics.slice(0, 3).map((t) => quotedName(`${where}/${t}`)).join(' ')}${topics.length > 3 ? ' ...' : ''}` : `git restore --staged --worktree -- ${where}/${INDEX_FILE}`;
      const keep = `to keep ${topics.length + lostEntries.length === 1 ? 'it' : 'them'}: ${restore}, or archive stale memory with "memlint consolidate --prune" instead of deleting it`;
      const message = runaway
        ? `the staged change deletes ${parts.join(' and ')} whose text is kept nowhere else in the memory folder or its archive (more than ${MAX_TOPICS_LOST} topic files or ${MAX_ENTRIES_LOST} entries at once); ${keep}`
        : `the staged change deletes ${parts.join(' and ')} whose text is kept nowhere else in the memory folder or its archive: fine if ${topics.length + lostEntries.length === 1 ? 'it was' : 'they were'} wrong; ${keep}`;
      ctx.report({ message, line: 1, column: 1, ...(runaway ? {} : { severity: 'warn' as const }) });
    }
    if (bullets.length) {
      const shown = bullets.slice(0, 3).map((b) => `${b.log}:${b.line} "${b.text.length > 60 ? `${b.text.slice(0, 57)}...` : b.text}"`).join(', ');
      ctx.report({
        message: `the staged change removes ${bullets.length} daily-log entr${bullets.length === 1 ? 'y' : 'ies'} kept nowhere else (logs are append-only): ${shown}${bullets.length > 3 ? ` and ${bullets.length - 3} more` : ''}; to keep ${bullets.length === 1 ? 'it' : 'them'}: git restore --staged --worktree -- ${[...new Set(bullets.map((b) => quotedName(`${where}/${b.log}`)))].join(' ')}`,
        line: 1,
        column: 1,
        severity: 'warn',
      });
    }
  },
};

function relativeLabel(root: string, dir: string): string {
  const rel = dir.startsWith(root) ? dir.slice(root.length).replace(/^[/\\]+/, '') : dir;
  return (rel || '.').split('\\').join('/');
}

/** A file name as the message shows it: quoted where it holds a line break or edge whitespace, so the message stays one line. */
const quotedName = (rel: string) => (unsafeTopicName(rel) ? JSON.stringify(rel) : rel);

function names(list: string[]): string {
  const all = list.map(quotedName);
  return all.length > 5 ? `${all.slice(0, 5).join(', ')} and ${all.length - 5} more` : all.join(', ');
}

export interface Loss {
  topics: string[];
  entries: string[];
  bullets: Array<{ log: string; line: number; text: string }>;
}

/** What the change removes that is kept nowhere else, or null when nothing is lost. */
export function findLoss(h: MemdirHistory, stagedIndex: string): Loss | null {
  // What the commit keeps is read only when something removed has to be looked for in it (the
  // pre-commit hook of a commit that only edits or adds memory reads no other file).
  let keptWhole: Set<string> | undefined;
  let keptWhere: Set<string> | undefined;
  const removedTopics: Array<{ rel: string; lines: string[] }> = [];
  for (const rel of h.deleted) {
    if (fileKind(rel).kind !== 'topic') continue;
    const text = h.headText(rel);
    if (text === null) continue;
    // A topic moved whole (archived, renamed in place) keeps its file name and text somewhere kept.
    keptWhole ??= new Set(h.keptTexts().map((t) => `${t.where.split('/').pop()!}\0${t.text}`));
    if (keptWhole.has(`${rel.split('/').pop()!}\0${text}`)) continue;
    removedTopics.push({ rel, lines: topicLines(text) });
  }

  const deleted = new Set(h.deleted);
  const removedEntries: Array<{ key: string; deleted: boolean; words: string[] }> = [];
  const headIndex = h.changed.includes(INDEX_FILE) || h.deleted.length ? h.headText(INDEX_FILE) : null;
  if (headIndex !== null) {
    const stagedKeys = new Set(entries(parseIndex(stagedIndex)).map((l) => l.entry.key));
    for (const l of entries(parseIndex(headIndex))) {
      const e = l.entry;
      if (stagedKeys.has(e.key)) continue;
      // The entry goes with its topic file: lost with it, kept when the file's text is kept
      // (merged into another topic, archived). A topic file still there is an orphan, which
      // index-orphan reports. An entry whose file never existed is kept only by its own words.
      if (deleted.has(e.key)) removedEntries.push({ key: e.key, deleted: true, words: [] });
      else if (!(keptWhere ??= new Set(h.keptTexts().map((t) => t.where))).has(e.key)) removedEntries.push({ key: e.key, deleted: false, words: [`${e.title} ${e.hook}`, e.hook || e.title] });
    }
  }

  const removedBullets: Loss['bullets'] = [];
  for (const rel of h.changed) {
    if (fileKind(rel).kind !== 'log') continue;
    const before = h.headText(rel);
    if (before === null) continue;
    for (const b of logBullets(before)) removedBullets.push({ log: rel, line: b.line, text: b.text });
  }

  const asked = [...removedTopics.flatMap((t) => t.lines), ...removedEntries.flatMap((e) => e.words), ...removedBullets.map((b) => b.text)];
  if (asked.length === 0 && !removedEntries.some((e) => e.deleted)) return null;
  const kept = new Corpus(h.keptTexts().map((t) => t.text), asked);
  const lostTopic = new Set(removedTopics.filter((t) => !kept.keepsTopic(t.lines)).map((t) => t.rel));
  const lostEntries = removedEntries.filter((e) => (e.deleted ? lostTopic.has(e.key) : !kept.keepsLine(e.words[0]!) && !kept.keepsLine(e.words[1]!))).map((e) => e.key);
  const bullets = removedBullets.filter((b) => !kept.keepsLine(b.text));

  const topics = [...lostTopic].sort();
  if (topics.length === 0 && lostEntries.length === 0 && bullets.length === 0) return null;
  return { topics, entries: lostEntries, bullets };
}

/** A removed topic's content lines (and its description), each asked of what the commit keeps. */
function topicLines(text: string): string[] {
  const t = parseTopic(text);
  const lines = t.body
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter((l) => l !== '' && !/^(?:#{1,6}\s|---+$|```|~~~)/.test(l));
  if (typeof t.description === 'string' && t.description.trim()) lines.push(t.description.trim());
  return lines;
}

/** Top-level list items of a daily log (not in code: the block model's reading), each with its line. */
function logBullets(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  const model = blockModel(text);
  splitLines(withoutBom(text)).forEach((l, i) => {
    const b = model.lines[i]!;
    if (!b.item || b.item.depth !== 0 || b.item.ordered || b.quote > 0 || b.kind === 'code') return;
    const content = l.text.slice(b.item.contentStart).trim();
    if (content) out.push({ line: i + 1, text: content });
  });
  return out;
}

const WORD_RE = /[\p{L}\p{N}]{3,}/gu;
const NUMBER_RE = /\p{N}+/gu;

function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[*_`~#>|[\]()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a bullet's leading time stamp ("10:32", "[2026-11-27 10:32]") is all that differs. */
function withoutStamp(s: string): string {
  return s.replace(/^\[?\d{1,4}([-:./]\d{1,2}){1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?\]?\s*[-—–:]?\s*/, '');
}

/**
 * The text a commit keeps: every line of the memdir and its archive, searchable by words. The
 * lines `asked` are looked for in it once, all together (stringsInText): asking the whole text for
 * each removed line was quadratic when a commit moved thousands of topics.
 */
class Corpus {
  private readonly lines: string[] = [];
  private readonly lineWords: Array<Set<string>> = [];
  private readonly lineNumbers = new Map<number, Set<string>>();
  private readonly byWord = new Map<string, number[]>();
  private readonly found: Set<string>;

  constructor(texts: string[], asked: string[]) {
    const lines = this.lines;
    for (const t of texts) for (const l of t.split(/\r?\n/)) if (l.trim()) lines.push(normalize(l));
    // (A line asked holds no line break, so it is found in the joined text only within one line.)
    this.found = stringsInText(asked.map(question).filter((q) => q.length >= 8), Buffer.from(lines.join('\n'), 'utf8'));
    lines.forEach((l, i) => {
      const words = new Set(l.match(WORD_RE) ?? []);
      this.lineWords.push(words);
      for (const w of words) {
        const list = this.byWord.get(w);
        if (list) list.push(i);
        else this.byWord.set(w, [i]);
      }
    });
  }

  /**
   * A line is kept when its text is found, or 80% of its words stand together on one kept line
   * that holds each of its numbers too: "unit 1 uses the blue pipeline" is not kept by "unit 7
   * uses the blue pipeline" (a number is the fact; a word of three letters or more, it is not).
   */
  keepsLine(raw: string): boolean {
    const text = question(raw);
    if (text.length < 8) return true;
    if (this.found.has(text)) return true;
    const words = [...new Set(text.match(WORD_RE) ?? [])];
    if (words.length < 3) return false;
    const numbers = [...new Set(text.match(NUMBER_RE) ?? [])];
    const holdsNumbers = (i: number) => {
      if (numbers.length === 0) return true;
      let held = this.lineNumbers.get(i);
      if (!held) this.lineNumbers.set(i, (held = new Set(this.lines[i]!.match(NUMBER_RE) ?? [])));
      return numbers.every((n) => held.has(n));
    };
    // A line holding `need` of the words holds one of the `words.length - need + 1` rarest: only
    // their lines are counted (a word on every kept line was a pass over the whole text per line).
    const need = Math.ceil(words.length * KEPT_SHARE);
    const rarest = words.map((w) => this.byWord.get(w) ?? []).sort((x, y) => x.length - y.length).slice(0, words.length - need + 1);
    for (const list of rarest) {
      for (const i of list) {
        const held = this.lineWords[i]!;
        let n = 0;
        for (const w of words) if (held.has(w)) n++;
        if (n >= need && holdsNumbers(i)) return true;
      }
    }
    return false;
  }

  /** A removed topic is kept when most of its content lines (and its description) are found. */
  keepsTopic(lines: string[]): boolean {
    if (lines.length === 0) return true;
    const found = lines.filter((l) => this.keepsLine(l)).length;
    return found >= Math.ceil(lines.length * KEPT_SHARE);
  }
}

/** A line as it is looked for: its time stamp dropped, normalised. */
function question(raw: string): string {
  return normalize(withoutStamp(raw.trim()));
}
