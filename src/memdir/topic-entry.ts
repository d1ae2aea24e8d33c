// The index entry memlint writes for a topic that has none: index-orphan's fix and consolidation's
// index sync both write it, so both write the same line.
import { cutHook } from './hook-text.js';
import { MAX_ENTRY_CHARS, codePointLength } from './limits.js';
import { formatEntry, linkDestination, parseEntry, pathKey } from './memory-index.js';

// Less room than this for the description, and the entry is written without one: a few letters
// and "…" would say nothing.
const MIN_HOOK = 8;

/**
 * `- [name](file.md) — description`, within an entry's 150 characters (fitEntry). Null when no
 * line reads back as this file's entry. `name` and `description` are the writer's words as the
 * index should show them (without hidden characters, on one line).
 */
export function topicEntry(rel: string, name: string, description: string): string | null {
  const target = linkDestination(rel);
  for (const title of [escapeTitle(name), name.replace(/[\\[\]]/g, '\\$&')]) {
    const line = fitEntry(formatEntry(title, target, ''), description);
    if (parseEntry(line)?.key === pathKey(rel)) return line;
  }
  return null;
}

/**
 * An entry's head (`- [Title](file.md)`) joined to its hook, the hook shortened at a word (links
 * kept whole) and marked "…" so that the line fits 150 characters; the head alone when too little
 * room is left or no cut keeps the links.
 */
export function fitEntry(head: string, hook: string, separator = ' — '): string {
  if (!hook) return head;
  const room = MAX_ENTRY_CHARS - codePointLength(head) - codePointLength(separator);
  if (room < MIN_HOOK) return head;
  const line = head + separator + shortenAtWord(hook, room);
  return codePointLength(line) <= MAX_ENTRY_CHARS ? line : head;
}

/** `text` within `max` code points, cut at a word with "…" after it; the whole text when no cut keeps its links. */
export function shortenAtWord(text: string, max: number): string {
  if (codePointLength(text) <= max) return text;
  if (max <= 1) return '';
  const { head } = cutHook(text, max - 1);
  const trimmed = head.replace(/[\s,;:—–-]+$/u, '');
  return trimmed === '' ? text : `${trimmed}…`;
}

/** Brackets in a title must balance for the line to read as an entry: escape them when they do not. */
function escapeTitle(name: string): string {
  let depth = 0;
  for (const c of name) {
    if (c === '[') depth++;
    else if (c === ']' && --depth < 0) break;
  }
  return depth === 0 && !/\\/.test(name) ? name : name.replace(/[\\[\]]/g, '\\$&');
}
