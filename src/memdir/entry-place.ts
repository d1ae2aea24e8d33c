// Where a new index entry goes: one rule for `--fix` (index-orphan) and consolidation. Pure: the
// parsed index in, a place out.
import type { BlockHeading } from './blocks.js';
import type { IndexLine } from './memory-index.js';
import type { MemoryType } from './types.js';

// The words a heading names a memory type by ("## Feedback", "## Project notes", "## 反馈").
const TYPE_WORDS: ReadonlyArray<readonly [MemoryType, RegExp]> = [
  ['user', /\busers?\b|\babout (?:the )?user\b|\bpeople\b|用户/iu],
  ['feedback', /\bfeedbacks?\b|反馈/iu],
  ['project', /\bprojects?\b|项目/iu],
  ['reference', /\breferences?\b|参考/iu],
];

/** The memory type a heading's text introduces ("Feedback", "Project notes"), when it names exactly one. */
export function headingType(text: string): MemoryType | undefined {
  const named = TYPE_WORDS.filter(([, re]) => re.test(text));
  return named.length === 1 ? named[0]![0] : undefined;
}

/** The heading that starts on this line (ATX or setext, as the block model reads it). */
export function headingAt(l: IndexLine): BlockHeading | undefined {
  const h = l.block.heading;
  return h && h.startLine === l.line ? h : undefined;
}

export type EntryPlace =
  /** After the index line at this 0-based position. */
  | { kind: 'after'; line: number }
  /** In a new section for the type, at the end: the index is organised by type and has none for it. */
  | { kind: 'section' }
  /** At the end of the index. */
  | { kind: 'end' };

/**
 * Where an entry for a topic of `type` goes: after the last entry of the section headed by the
 * type's name (past the whole list item that holds it), or right under that heading when the
 * section has no entry yet; in a new section when the index has sections by type but none for
 * this one; else after the index's last entry; else at the end. `live` leaves out entries a
 * rewrite is dropping in the same run.
 */
export function entryPlace(lines: readonly IndexLine[], type: string | null, live: (l: IndexLine) => boolean = () => true): EntryPlace {
  const afterItem = (l: IndexLine): EntryPlace => ({ kind: 'after', line: (l.block.item?.rootEndLine ?? l.line) - 1 });
  const headings = lines.flatMap((l) => headingAt(l) ?? []);
  const typed = headings.filter((h) => headingType(h.text));
  const section = type ? typed.find((h) => headingType(h.text) === type) : undefined;
  if (section) {
    const end = headings.find((h) => h.startLine > section.endLine && h.level <= section.level)?.startLine ?? lines.length + 1;
    let last: IndexLine | undefined;
    for (const l of lines) if (l.line > section.endLine && l.line < end && l.entry && live(l)) last = l;
    if (last) return afterItem(last);
    return { kind: 'after', line: lines[section.endLine]?.kind === 'blank' ? section.endLine : section.endLine - 1 };
  }
  if (type && typed.length > 0) return { kind: 'section' };
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.entry && live(lines[i]!)) return afterItem(lines[i]!);
  return { kind: 'end' };
}

/**
 * entryPlace for one index, each type's answer worked out once: asked for every orphan, and the
 * headings are read once per type, not once per orphan (a large memdir has hundreds).
 */
export function entryPlacer(lines: readonly IndexLine[], live?: (l: IndexLine) => boolean): (type: string | null) => EntryPlace {
  const made = new Map<string | null, EntryPlace>();
  return (type) => {
    let place = made.get(type);
    if (!place) made.set(type, (place = entryPlace(lines, type, live)));
    return place;
  };
}
