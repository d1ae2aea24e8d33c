// A step's own copy of the memory state, edited in place: the step copies the state it is given
// once (a copy per edit was quadratic when a step archived thousands of files) and returns the
// copy. While entries leave the index, the index stays parsed (IndexDraft): parsing it again for
// each entry removed was the rest of that cost.
import { INDEX_FILE } from '../memdir/kinds.js';
import { parseIndex, type IndexLine } from '../memdir/memory-index.js';
import type { MemState } from './types.js';

export interface Draft extends MemState {
  /** The index as edits left it, when kept parsed; files' MEMORY.md is then out of date until finish(). */
  index: IndexDraft | null;
}

/** A copy of the state for a step to edit. */
export function draftOf(state: MemState): Draft {
  return { files: new Map(state.files), archive: new Map(state.archive), moves: [...state.moves], index: null };
}

/** The state a step returns: its draft, the index written back. */
export function finish(draft: Draft): MemState {
  flushIndex(draft);
  return { files: draft.files, archive: draft.archive, moves: draft.moves };
}

/** Write the kept-parsed index back into files (before anything reads or changes MEMORY.md's text). */
export function flushIndex(draft: Draft): void {
  if (!draft.index) return;
  draft.files.set(INDEX_FILE, draft.index.text());
  draft.index = null;
}

/** The index kept parsed for removals, made from MEMORY.md's text on first use; null without an index. */
export function draftIndex(draft: Draft): IndexDraft | null {
  if (draft.index) return draft.index;
  const raw = draft.files.get(INDEX_FILE);
  if (raw === undefined) return null;
  draft.index = indexDraft(raw);
  return draft.index;
}

export interface IndexDraft {
  /** The lines left whose entry has this key, in order. */
  hits(key: string): IndexLine[];
  /**
   * Drop these lines when no line left can read differently without them (false, and nothing
   * dropped, when one might: the caller parses the text again).
   */
  tryDrop(lines: IndexLine[]): boolean;
  /** Whether a line left holds this string. */
  holds(s: string): boolean;
  /** The index's text: the lines left, each with its own line ending. */
  text(): string;
}

// What a line may be for the next line that is not blank after a removed entry: something that
// reads the same whether or not the entry stood before it (an ATX heading, or a list item at the
// left margin with content), so that no line's block changes. Anything else (a line the entry's
// item could take in: a lazy continuation, an indented line; a setext underline) and the caller
// parses the text again.
const SELF_STANDING = /^(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]+\S)/;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
// A removed line that is one list item at the left margin, its content an inline link.
const MARGIN_ITEM = /^[-*+][ \t]+\[/;

export function indexDraft(raw: string): IndexDraft {
  const { bom, lines } = parseIndex(raw);
  const n = lines.length;
  const dropped = new Uint8Array(n);
  // The next line at or after each that is neither blank nor dropped: a forest with path halving.
  const next = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) next[i] = lines[i]!.kind === 'blank' ? i + 1 : i;
  next[n] = n;
  const standing = (i: number): number => {
    while (next[i] !== i) {
      next[i] = next[next[i]!]!;
      i = next[i]!;
    }
    return i;
  };
  const loneCr = lines.some((l) => l.eol === '\r');
  const byKey = new Map<string, number[]>();
  lines.forEach((l, i) => {
    if (!l.entry) return;
    const same = byKey.get(l.entry.key);
    if (same) same.push(i);
    else byKey.set(l.entry.key, [i]);
  });
  return {
    hits: (key) => (byKey.get(key) ?? []).filter((i) => !dropped[i]).map((i) => lines[i]!),
    tryDrop(hits) {
      // A lone CR ending before a line taken out could meet the LF of an empty line after it and
      // make one CRLF: the text would read back with a line fewer. Such a text is parsed again.
      if (loneCr) return false;
      const at = hits.map((h) => h.line - 1);
      const leaving = new Set(at);
      for (let k = 0; k < at.length; k++) {
        const i = at[k]!;
        const l = lines[i]!;
        if (l !== hits[k] || dropped[i] || !MARGIN_ITEM.test(l.text) || l.block.quote !== 0 || l.block.item?.link?.form !== 'inline') return false;
        // The next line that stays and is not blank (the other lines leaving are passed over).
        let after = standing(i + 1);
        while (after < n && leaving.has(after)) after = standing(after + 1);
        if (after < n) {
          const t = lines[after]!.text;
          if (!SELF_STANDING.test(t) || THEMATIC_BREAK.test(t)) return false;
        }
      }
      for (const i of at) {
        dropped[i] = 1;
        next[i] = i + 1;
      }
      return true;
    },
    holds: (s) => lines.some((l, i) => !dropped[i] && l.text.includes(s)),
    text() {
      let out = bom;
      for (let i = 0; i < n; i++) if (!dropped[i]) out += lines[i]!.text + lines[i]!.eol;
      return out;
    },
  };
}
