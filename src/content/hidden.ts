// Characters that render as nothing but reach the model (bidi controls, zero-width characters, the
// tag block, stray variation selectors, control characters), told apart from the legitimately
// invisible ones (emoji sequences, joining scripts, a leading BOM). The no-hidden-unicode rule
// reports them; a fix that copies text into another file (an index entry built from a topic's
// name and description) leaves them out, as that rule's own fix would.

// Anything that might be hidden; the precise decision is made per character below.
export const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;

const SUSPECT_HERE = new RegExp(SUSPECT.source, 'uy');

/**
 * SUSPECT.test(text), without its class lookup for every character: most text is printable ASCII,
 * tabs and line breaks, or lies in U+3400 to U+FDFF (CJK and more), where SUSPECT has no character
 * (besides the surrogates: a high one opens a pair SUSPECT reads at it; a low one is read with the
 * high one before it, or stands alone and is no character of SUSPECT). SUSPECT reads the rest in place.
 */
export function holdsSuspect(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x3400 && c < 0xd800) || (c >= 0xdc00 && c < 0xfe00)) continue;
    SUSPECT_HERE.lastIndex = i;
    if (SUSPECT_HERE.test(text)) return true;
  }
  return false;
}

const EXT_PICT = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Mongolian}\p{Script=Hebrew}]/u;

export type Kind = 'bidi' | 'zero-width' | 'tag' | 'variation-selector' | 'control';

export interface HiddenRun {
  start: number;
  end: number;
  kinds: Set<Kind>;
  count: number;
  /** ASCII carried by tag characters, if any. */
  tagText: string;
}

function classify(cp: number): Kind | null {
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'bidi';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d) || cp === 0x180f) return 'variation-selector';
  if (
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x206a && cp <= 0x206f) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x180e ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    cp === 0x3164 ||
    cp === 0xffa0 ||
    (cp >= 0xfff9 && cp <= 0xfffb)
  )
    return 'zero-width';
  if ((cp <= 0x1f && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f)) return 'control';
  return null;
}

/** Is the character at this index legitimately invisible (emoji sequences, joining scripts, a leading BOM)? */
function isBenign(cps: string[], i: number, cp: number): boolean {
  const prev = cps[i - 1] ?? '';
  const next = cps[i + 1] ?? '';
  if (cp === 0xfeff && i === 0) return true;
  if (cp === 0x200d) {
    // ZWJ between emoji (the previous may end with an emoji selector or skin tone).
    const before = prev === '\uFE0F' || /\p{Emoji_Modifier}/u.test(prev) ? (cps[i - 2] ?? '') : prev;
    if (EXT_PICT.test(before) && EXT_PICT.test(next)) return true;
  }
  if ((cp === 0x200c || cp === 0x200d) && JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) return true;
  if (cp === 0xfe0f || cp === 0xfe0e) {
    // Emoji or text presentation of an emoji-capable character, or a keycap base (#, *, 0-9).
    if (/\p{Emoji}/u.test(prev)) return true;
  }
  if (cp >= 0xe0100 && cp <= 0xe01ef && /\p{Ideographic}/u.test(prev)) return true;
  if (cp >= 0xfe00 && cp <= 0xfe0d && /[\p{Ideographic}\p{Script=Mongolian}]/u.test(prev)) return true;
  // Emoji tag sequences (subdivision flags): U+1F3F4 followed by tags and U+E007F.
  if (cp >= 0xe0020 && cp <= 0xe007f) {
    let j = i;
    while (j > 0 && (cps[j - 1]!.codePointAt(0)! >= 0xe0020 && cps[j - 1]!.codePointAt(0)! <= 0xe007e)) j--;
    if (cps[j - 1] === '\u{1F3F4}') {
      let k = i;
      while (k < cps.length && cps[k]!.codePointAt(0)! >= 0xe0020 && cps[k]!.codePointAt(0)! <= 0xe007e) k++;
      if (cps[k] === '\u{E007F}' && k - j >= 2 && k - j <= 6) return true;
    }
  }
  return false;
}

/** Runs of adjacent hidden characters, with their UTF-16 offsets. */
export function hiddenRuns(text: string): HiddenRun[] {
  const cps = Array.from(text);
  const runs: HiddenRun[] = [];
  let offset = 0;
  let current: HiddenRun | null = null;
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    const cp = ch.codePointAt(0)!;
    const kind = classify(cp);
    if (kind && !isBenign(cps, i, cp)) {
      if (current && current.end === offset) {
        current.end += ch.length;
      } else {
        current = { start: offset, end: offset + ch.length, kinds: new Set(), count: 0, tagText: '' };
        runs.push(current);
      }
      current.kinds.add(kind);
      current.count++;
      if (kind === 'tag' && cp >= 0xe0020 && cp <= 0xe007e) current.tagText += String.fromCharCode(cp - 0xe0000);
    }
    offset += ch.length;
  }
  return runs;
}

/** A frontmatter value as an index line shows it: without hidden characters, its spacing on one line ('' when absent). */
export function visibleLine(text: string | undefined): string {
  return text === undefined ? '' : withoutHidden(text).trim().replace(/\s+/g, ' ');
}

/** The text without its hidden characters: what no-hidden-unicode's fix leaves of it. */
export function withoutHidden(text: string): string {
  if (!holdsSuspect(text)) return text;
  let out = '';
  let at = 0;
  for (const run of hiddenRuns(text)) {
    out += text.slice(at, run.start);
    at = run.end;
  }
  return out + text.slice(at);
}
