// Step 1: log entries (daily logs' list items, session logs' prefixed lines) that name their topic are appended to that topic as list items, once.
// Logs are append-only: this step reads them and never edits them.
import { posix } from 'node:path';
import { blockModel } from '../memdir/blocks.js';
import { normalizeTarget } from '../memdir/memory-index.js';
import type { MemState, StepResult } from './types.js';
import { appendToTopic, isListItem, normalizeContent, LIST_ITEM_RE, secretIn } from './text.js';
import { splitLines } from '../memdir/lines.js';
import { withinRecall } from '../memdir/limits.js';
import { isSessionLog, isTopLevelTopic, fileKind } from '../memdir/kinds.js';
import { parseTopic } from '../memdir/topic.js';

export interface LogEntry {
  /** 1-based line of the entry's first line in the log. */
  line: number;
  /** The entry's text: its first line without the bullet, continuation lines joined with spaces. */
  text: string;
}

export interface LogsReport {
  appended: Array<{ log: string; line: number; topic: string; item: string }>;
  /** Entries naming no topic (or an unknown one), left for the agent step. */
  untagged: Array<{ log: string; line: number; text: string }>;
  /**
   * Entries holding a secret no-secrets reports: left in the log, neither copied into a topic nor
   * given to the agent step (`topics`: where they would have gone; `kind`: the secret's kind).
   */
  withheld: Array<{ log: string; line: number; topics: string[]; kind: string }>;
  /**
   * Entries not appended because their topic would pass what recall shows another session (Claude
   * Code's 200 lines and 4,096 bytes): left in the log, for the agent step or a person to fold in.
   */
  pastRecall: Array<{ log: string; line: number; topic: string }>;
}

/** Top-level list items of a log, each with its continuation lines. */
export function parseLogEntries(text: string, session = false): LogEntry[] {
  const entries: LogEntry[] = [];
  let current: { line: number; parts: string[] } | null = null;
  const code = blockModel(text).lines;
  const flush = () => {
    if (current) entries.push({ line: current.line, text: current.parts.join(' ').replace(/\s+/g, ' ').trim() });
    current = null;
  };
  splitLines(text).forEach((l, i) => {
    const t = l.text;
    if (code[i]!.kind === 'code') return;
    // A session log's lines are prefixed `>` user, `<` assistant, `.` tool call: each an entry.
    const top = /^[-*+][ \t]+/.exec(t) ?? (session ? /^[><.][ \t]+/.exec(t) : null);
    if (top) {
      flush();
      current = { line: i + 1, parts: [t.slice(top[0].length)] };
    } else if (t.trim() === '' || code[i]!.kind === 'heading') {
      flush();
    } else if (current) {
      (current as { parts: string[] }).parts.push(t.trim().replace(LIST_ITEM_RE, ''));
    }
  });
  flush();
  return entries;
}

const LINK_RE = /\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const TAG_RE = /\[([A-Za-z0-9][\w.-]*)\](?![([:])/g;
// What may stand between a label tag and the entry's edge: other tags, punctuation, a time stamp.
const TAGS_ONLY = String.raw`(?:\s|[.,;:!?()|—–-]|\[\[?[A-Za-z0-9][\w.-]*\]\]?|(?:\*\*|__)?\[?\d{1,2}:\d{2}(?::\d{2})?\]?(?:\*\*|__)?)*`;
const EDGE = new RegExp(`^${TAGS_ONLY}$`);

/**
 * The topics an entry names (memdir-relative paths of existing topic files), and the entry's text
 * with those references taken out (a link keeps its text, a tag goes).
 */
export function topicReferences(text: string, logRel: string, topics: Set<string>, slugs: Map<string, string> = new Map()): { topics: string[]; cleaned: string } {
  const found: string[] = [];
  const resolve = (target: string): string | undefined => {
    const key = normalizeTarget(target);
    if (!key.endsWith('.md') || /^[a-z][a-z0-9+.-]*:/i.test(key)) return undefined;
    const fromLog = posix.normalize(posix.join(posix.dirname(logRel), key));
    if (topics.has(fromLog)) return fromLog;
    if (topics.has(key)) return key;
    return undefined;
  };
  let cleaned = text.replace(LINK_RE, (whole, label: string, target: string) => {
    const topic = resolve(target);
    if (!topic) return whole;
    found.push(topic);
    return label;
  });
  // A tag that labels the entry (before or after its words) goes with the entry into the topic; one
  // inside the sentence ("see [[rounding]] first") is part of what it says and stays.
  // A tag between the words and the sentence's closing punctuation ("see [[rounding]].", "saved a
  // memory: [[rounding]].") is what the sentence names: taking it out would leave "see." behind.
  const takeOut = (pattern: RegExp, topicOf: (tag: string) => string | undefined) => {
    const all = cleaned;
    pattern.lastIndex = 0;
    const tags = [...all.matchAll(pattern)].map((m) => ({ at: m.index, end: m.index + m[0].length, topic: topicOf(m[1]!) }));
    const labels = labelTags(all, tags);
    let i = 0;
    cleaned = all.replace(pattern, (whole) => {
      const tag = tags[i]!;
      const label = labels[i++]!;
      if (!tag.topic) return whole;
      found.push(tag.topic);
      return label ? '' : whole;
    });
  };
  // [[name]] names the other memory's `name` slug (Claude Code 2.1.139 on), else its file.
  takeOut(/\[\[([A-Za-z0-9][\w.-]*)\]\]/g, (tag) => slugs.get(tag) ?? resolve(tag.endsWith('.md') ? tag : `${tag}.md`));
  takeOut(TAG_RE, (tag) => resolve(tag.endsWith('.md') ? tag : `${tag}.md`));
  // Whitespace before punctuation goes, any other run of it becomes one space (one pass: a regular
  // expression trying the run from each of its characters was quadratic in a run of thousands).
  cleaned = cleaned
    .replace(/\s+/g, (run, at: number, all: string) => (/[,.;:!?]/.test(all[at + run.length] ?? '') ? '' : run.length >= 2 ? ' ' : run))
    .replace(/^\s*(?:[-—–:|]\s*)+/, '')
    .trim();
  return { topics: [...new Set(found)], cleaned };
}

/**
 * Whether each tag (in order of place) labels the entry: only tags, punctuation and time stamps
 * before it, or after it where it does not end the sentence (closes). EDGE on the text before and
 * after each tag, read in one pass each way: the text before a tag is the text before the one
 * before it, that tag, and what lies between (and no part of an entry can be read across a
 * tag's start not preceded by `[`, nor across its end not followed by `]`), so each stretch is
 * tested once; where one fails at such a place, every later (earlier) tag's fails too. Testing the
 * whole text before and after each tag was quadratic in an entry of thousands of tags.
 */
function labelTags(all: string, tags: ReadonlyArray<{ at: number; end: number }>): boolean[] {
  const before = new Array<boolean>(tags.length).fill(false);
  for (let i = 0, from = 0; i < tags.length; i++) {
    const t = tags[i]!;
    before[i] = EDGE.test(all.slice(from, t.at));
    if (all[t.at - 1] === '[') continue;
    if (!before[i]) break;
    from = t.at;
  }
  const after = new Array<boolean>(tags.length).fill(false);
  for (let i = tags.length - 1, to = all.length; i >= 0; i--) {
    const t = tags[i]!;
    after[i] = EDGE.test(all.slice(t.end, to));
    if (all[t.end] === ']') continue;
    if (!after[i]) break;
    if (all[t.at - 1] !== '[') to = t.at;
  }
  return tags.map((t, i) => before[i]! || (after[i]! && !closes(all, t.at, t.end)));
}

/** Whether a tag ends the sentence: its words before it, its closing punctuation after it. */
function closes(all: string, at: number, end: number): boolean {
  let k = end;
  while (k < all.length && /\s/.test(all[k]!)) k++;
  if (!/[.,;:!?]/.test(all[k] ?? '')) return false;
  let j = at;
  while (j > 0 && /\s/.test(all[j - 1]!)) j--;
  if (j === 0) return false;
  const last = j >= 2 && /[\uDC00-\uDFFF]/.test(all[j - 1]!) && /[\uD800-\uDBFF]/.test(all[j - 2]!) ? all.slice(j - 2, j) : all[j - 1]!;
  return /^[\p{L}\p{N}:'"’”)]$/u.test(last);
}

/** The list item a log entry becomes in its topic: its text (no time stamp) and the log's date. */
export function topicItem(cleaned: string, logDate: string): string {
  const body = cleaned.replace(/^(?:\*\*|__)?\[?\d{1,2}:\d{2}(?::\d{2})?\]?(?:\*\*|__)?\s*(?:[-—–:|]\s*)?/, '').trim();
  return `- ${body} (${logDate})`;
}

/** `secrets`: what no-secrets reports in the memdir (value -> kind); an entry holding one stays in its log. */
export function logsToTopics(state: MemState, secrets?: ReadonlyMap<string, string>): StepResult<LogsReport> {
  const report: LogsReport = { appended: [], untagged: [], withheld: [], pastRecall: [] };
  const topics = new Set([...state.files.keys()].filter(isTopLevelTopic));
  const logs = [...state.files.keys()].filter((r) => fileKind(r).logDate !== undefined).sort();
  const slugs = new Map<string, string>();
  for (const t of topics) {
    const name = parseTopic(state.files.get(t) ?? '').name;
    if (typeof name === 'string' && name.trim() !== '' && !slugs.has(name.trim())) slugs.set(name.trim(), t);
  }
  // Each topic's text with the entries appended so far; a topic that could take no more stays full.
  const appended = new Map<string, string>();
  const full = new Set<string>();
  const known = new Map<string, Set<string>>();
  const knownOf = (topic: string) => {
    let set = known.get(topic);
    if (!set) {
      set = new Set();
      for (const l of splitLines(state.files.get(topic) ?? '')) if (isListItem(l.text)) set.add(normalizeContent(l.text));
      known.set(topic, set);
    }
    return set;
  };
  for (const log of logs) {
    const date = fileKind(log).logDate!;
    for (const entry of parseLogEntries(state.files.get(log)!, isSessionLog(log))) {
      const refs = topicReferences(entry.text, log, topics, slugs);
      // A secret is not copied on (contract §9): the entry stays in its log, where lint reports it.
      const kind = secretIn(entry.text, secrets);
      if (kind !== undefined) {
        report.withheld.push({ log, line: entry.line, topics: refs.topics, kind });
        continue;
      }
      if (refs.topics.length === 0 || refs.cleaned === '') {
        report.untagged.push({ log, line: entry.line, text: entry.text });
        continue;
      }
      const item = topicItem(refs.cleaned, date);
      const key = normalizeContent(item);
      for (const topic of refs.topics) {
        const seen = knownOf(topic);
        if (seen.has(key)) continue;
        seen.add(key);
        const after = full.has(topic) ? '' : appendToTopic(appended.get(topic) ?? state.files.get(topic)!, [item]);
        if (full.has(topic) || !withinRecall(after)) {
          full.add(topic);
          report.pastRecall.push({ log, line: entry.line, topic });
          continue;
        }
        appended.set(topic, after);
        report.appended.push({ log, line: entry.line, topic, item });
      }
    }
  }
  if (appended.size === 0) return { state, report };
  return { state: { ...state, files: new Map([...state.files, ...appended]) }, report };
}
