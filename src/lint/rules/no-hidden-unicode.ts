import type { Rule, RuleContext } from '../types.js';
import { findPatternSecrets } from '../../content/secrets.js';
import { positionAt } from '../positions.js';
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
    for (const run of hiddenRuns(ctx.file.text)) {
      if (namedExampleInCode(ctx.file.text, run, () => (code ??= spansOf(ctx.blocks(), ctx.file.text, ['code'])))) continue;
      report(ctx, run);
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

function report(ctx: RuleContext, run: HiddenRun) {
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
  if (namedNearby(ctx.file.text, run)) {
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
 */
function namedExampleInCode(text: string, run: HiddenRun, codeBlocks: () => Array<[number, number]>): boolean {
  if (run.kinds.has('bidi') || run.kinds.has('tag') || !namedNearby(text, run)) return false;
  if (codeBlocks().some(([a, b]) => a <= run.start && run.end <= b)) return true;
  const lineStart = text.lastIndexOf('\n', run.start - 1) + 1;
  const lineEnd = text.indexOf('\n', run.end);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  return inlineCodeRanges(line).some(([a, b]) => lineStart + a <= run.start && run.end <= lineStart + b);
}

/**
 * Whether the run's line names a kind of character the run holds, or the line before it does when
 * the run's line goes on its sentence (a wrapped line: no list item, heading or quote opens it).
 */
function namedNearby(text: string, run: HiddenRun): boolean {
  const lineStart = text.lastIndexOf('\n', run.start - 1) + 1;
  const opens = /^[ \t]*(?:[-*+>#]|\d+[.)])/u.test(text.slice(lineStart, run.start));
  const before = lineStart > 0 && !opens ? text.lastIndexOf('\n', lineStart - 2) + 1 : lineStart;
  const lineEnd = text.indexOf('\n', run.end);
  const near = text.slice(before, lineEnd < 0 ? text.length : lineEnd);
  return [...run.kinds].some((k) => KIND_NAMES[k].some((re) => re.test(near)));
}
