import type { Rule, RuleContext } from '../types.js';
import { findPatternSecrets } from '../../content/secrets.js';
import { positionAt } from '../positions.js';
import { lineOf } from '../content-scan.js';
import { spansOf } from '../../memdir/blocks.js';
import { inlineCodeRanges } from '../../memdir/lines.js';
import { hiddenRuns, holdsSuspect, type HiddenRun, type Kind } from '../../content/hidden.js';

// The detection lives in src/content/hidden.ts (fixes that copy text leave hidden characters out too).
export { SUSPECT, holdsSuspect, hiddenRuns } from '../../content/hidden.js';

/**
 * no-hidden-unicode: characters that render as nothing but reach the model: bidi controls (text
 * that reads differently than it displays), zero-width characters, the Unicode tag block
 * U+E0000–E007F (invisible ASCII: the "Rules File Backdoor"), variation selectors outside emoji,
 * and C0/C1 control characters. A ZWJ or ZWNJ inside an emoji sequence or between letters of a
 * script that uses them (Persian, Devanagari…) is fine; so are emoji presentation selectors and
 * a byte-order mark at the very start. The fix deletes the characters: they carry no visible text,
 * except where the words around them name that kind of character ("the BOM makes the first column
 * \uFEFFid"): then the character is what the line is about, and deleting it is a choice the person
 * makes (a suggestion), not a fix. It is still reported: a name nearby hides nothing from the model.
 * Not reported: such a named character inside code, unless it is a bidi control or a tag character
 * (`const BOM = '\uFEFF'; // BOM`: the code's own example).
 *
 * Certainty: high.
 */
export const noHiddenUnicode: Rule = {
  id: 'no-hidden-unicode',
  description: 'No invisible characters (bidi controls, zero-width, tag block, stray variation selectors)',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'high',
  docs: {
    ok: 'Deploys need a 👩‍💻 reviewer from the ledger team ✔️\n',
    notOk: 'Deploys need a reviewer\u200b from the ledger team\u202e\n',
    notOkOutput: '6:24: hidden zero-width character (U+200B)\n6:46: hidden bidirectional control (U+202E)',
  },
  check(ctx) {
    if (!holdsSuspect(ctx.file.text)) return;
    let code: Array<[number, number]> | undefined;
    const around = linesAround(ctx);
    for (const run of hiddenRuns(ctx.file.text)) {
      const named = around.names(run);
      if (named && namedExampleInCode(run, around, () => (code ??= spansOf(ctx.blocks(), ctx.file.text, ['code'])))) continue;
      report(ctx, run, named);
    }
  },
};

const KIND_LABEL: Record<Kind, string> = {
  bidi: 'bidirectional control',
  'zero-width': 'zero-width character',
  tag: 'Unicode tag character',
  'variation-selector': 'variation selector outside an emoji',
  control: 'control character',
};

function report(ctx: RuleContext, run: HiddenRun, named: boolean) {
  const text = ctx.file.text.slice(run.start, run.end);
  const codes = Array.from(text)
    .slice(0, 3)
    .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
    .join(' ');
  const kinds = [...run.kinds].map((k) => KIND_LABEL[k]).join(', ');
  const what = run.count === 1 ? `hidden ${kinds} (${codes})` : `${run.count} hidden characters: ${kinds} (${codes}${run.count > 3 ? ' …' : ''})`;
  // Show what tag characters spell, unless it holds a secret (never printed).
  const spelled = run.tagText.trim() && findPatternSecrets(run.tagText).length === 0 ? run.tagText : '';
  const carried = spelled ? `; they spell "${spelled.length > 60 ? `${spelled.slice(0, 60)}…` : spelled}"` : '';
  const at = positionAt(ctx, run.start);
  const edits = [{ start: run.start, end: run.end, text: '' }];
  if (named) {
    const message = `${what}${carried} (not fixed: the text around it names it, so it may be the example the line is about; delete it if not)`;
    ctx.report({ message, line: at.line, column: at.column, suggest: [{ desc: 'Delete the hidden characters', fix: { edits } }] });
    return;
  }
  ctx.report({ message: `${what}${carried}`, line: at.line, column: at.column, fix: { edits } });
}

// How text names each kind of hidden character (English, as code and docs write them): words in
// any case, abbreviations in capitals only ("bom" is a word in Portuguese, "pdf" a file type).
const KIND_NAMES: Record<Kind, RegExp[]> = {
  bidi: [/\bbidi|bidirectional|right-to-left|left-to-right|U\+(?:200[EF]|202[A-E]|206[6-9]|061C)/iu, /\b(?:RLO|LRO|RLE|LRE|RLI|LRI|FSI|PDI|RLM|LRM|ALM)\b/u],
  'zero-width': [/byte[- ]order[- ]mark|zero[- ]width|word[- ]joiner|soft[- ]hyphen|U\+(?:FEFF|200[B-D]|206[0-4]|00AD)/iu, /\b(?:BOM|ZWSP|ZWJ|ZWNJ|ZWNBSP)\b/u],
  tag: [/\btag (?:characters?|block)\b|unicode tags?\b|U\+E00[0-7]/iu],
  'variation-selector': [/variation[- ]selectors?|U\+(?:FE0[0-9A-F]|E01)/iu],
  control: [/control (?:characters?|codes?|bytes?)|escape (?:sequences?|codes?)|null (?:bytes?|characters?)|U\+00[0-9A-F]{2}/iu, /\b(?:ANSI|NUL)\b/u],
};

/**
 * A character that carries no text (zero-width, a variation selector, a control character: not a
 * bidi control, which reorders what a reader sees, nor a tag character, which spells invisible
 * text), in code (a code span or block), on a line that names its kind: the code's example of
 * that very character (`const BOM = '\uFEFF'`), written on purpose (fifteenth held-out set).
 * (Called only for a run whose kind the text around it names.)
 */
function namedExampleInCode(run: HiddenRun, around: LinesAround, codeBlocks: () => Array<[number, number]>): boolean {
  if (run.kinds.has('bidi') || run.kinds.has('tag')) return false;
  if (codeBlocks().some(([a, b]) => a <= run.start && run.end <= b)) return true;
  const { start } = around.lineAt(run.start);
  return around.inlineCode(run.start).some(([a, b]) => start + a <= run.start && run.end <= start + b);
}

interface LinesAround {
  lineAt(offset: number): { line: number; start: number };
  /** Whether the run's line names a kind of character the run holds, or the line before it does
   * when the run's line goes on its sentence (a wrapped line: no list item, heading or quote opens it). */
  names(run: HiddenRun): boolean;
  /** The code spans of the line holding an offset, in its columns. */
  inlineCode(offset: number): Array<[number, number]>;
}

/**
 * What each line says around the hidden characters on it, read once per line: a line may hold
 * thousands of them (one reading per character took 11 s for 128 KiB on one line).
 */
function linesAround(ctx: RuleContext): LinesAround {
  const starts = ctx.lineOffsets();
  const lines = ctx.lines();
  const kindsNamed = new Map<string, Set<Kind>>();
  const opensAt = new Map<number, number>();
  const code = new Map<number, Array<[number, number]>>();
  const lineAt = (offset: number) => {
    const line = lineOf(starts, offset);
    return { line, start: starts[line]! };
  };
  return {
    lineAt,
    names(run) {
      const { line, start } = lineAt(run.start);
      // Where the marker that opens the line ends (-1: none opens it).
      let opens = opensAt.get(line);
      if (opens === undefined) {
        opens = OPENS_RE.exec(lines[line - 1]!)?.[0].length ?? -1;
        opensAt.set(line, opens);
      }
      const wrapped = line > 1 && !(opens >= 0 && opens <= run.start - start);
      const key = `${line}:${wrapped}`;
      let named = kindsNamed.get(key);
      if (!named) {
        const near = wrapped ? `${lines[line - 2]}\n${lines[line - 1]}` : lines[line - 1]!;
        named = new Set((Object.keys(KIND_NAMES) as Kind[]).filter((k) => KIND_NAMES[k].some((re) => re.test(near))));
        kindsNamed.set(key, named);
      }
      return [...run.kinds].some((k) => named.has(k));
    },
    inlineCode(offset) {
      const { line } = lineAt(offset);
      let ranges = code.get(line);
      if (!ranges) code.set(line, (ranges = inlineCodeRanges(lines[line - 1]!)));
      return ranges;
    },
  };
}

// A list item, heading or quote opening a line.
const OPENS_RE = /^[ \t]*(?:[-*+>#]|\d+[.)])/u;
