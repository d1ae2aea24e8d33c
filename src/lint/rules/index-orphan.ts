import type { Rule } from '../types.js';
import type { ParsedIndex } from '../../memdir/index.js';
import { dominantEol, formatEntry } from '../../memdir/index.js';
import { MAX_ENTRY_CHARS, codePointLength } from '../../memdir/limits.js';
import { isMemoryType } from '../../memdir/topic.js';
import { cutAtWord, isReadmeLike } from './util.js';

/**
 * index-orphan: every topic file has an entry in MEMORY.md. Claude Code's index is how the agent
 * knows a memory exists ("the pointer line is the reachability, not the file"). The fix adds an
 * entry built from the file's name and description, in the section of its type.
 */
export const indexOrphan: Rule = {
  id: 'index-orphan',
  description: 'Every topic file has an entry in MEMORY.md',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: 'MEMORY.md: - [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: 'feedback_testing.md exists, MEMORY.md does not list it\n',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index || !ctx.memdir.index) return;
    if (index.lines.some((l) => l.entry?.key === ctx.file.rel)) return;
    const topic = ctx.memdir.parsedTopic(ctx.file);
    // A README-like file without frontmatter is told to leave the folder (frontmatter-yaml), not to be indexed.
    if (!topic.frontmatter && isReadmeLike(ctx.file.rel)) return;
    const message = `${ctx.file.rel} has no entry in MEMORY.md: the agent does not know this memory exists`;
    const name = topic.name?.trim();
    const description = topic.description?.trim().replace(/\s+/g, ' ');
    if (!name || !description || topic.frontmatter?.error) {
      ctx.report({ message, line: 1, column: 1 });
      return;
    }
    const indexText = ctx.memdir.index.text;
    const eol = dominantEol(indexText);
    const prefix = formatEntry(name, encodeTarget(ctx.file.rel), 'x');
    const budget = MAX_ENTRY_CHARS - (codePointLength(prefix) - 1);
    const hook = budget > 10 ? cutAtWord(description, budget).head : '';
    const line = formatEntry(name, encodeTarget(ctx.file.rel), hook);
    const at = insertionPoint(index, indexText, isMemoryType(topic.type) ? topic.type : null);
    // At the end of an index without a final newline the line ending goes before the entry, so
    // the file keeps ending without one, and two entries added in one run stay adjacent.
    const text = at.atEnd && indexText !== '' && !/[\r\n]$/.test(indexText) ? eol + line : line + eol;
    ctx.report({ message, line: 1, column: 1, fix: { edits: [{ path: ctx.memdir.index.path, start: at.offset, end: at.offset, text }] } });
  },
};

function encodeTarget(rel: string): string {
  return /[\s()<>]/.test(rel) ? `<${rel}>` : rel;
}

const SECTION_WORDS: Record<string, RegExp> = {
  user: /\b(users?|about (the )?user|people)\b|用户/i,
  feedback: /\bfeedback\b|反馈/i,
  project: /\bprojects?\b|项目/i,
  reference: /\breferences?\b|参考/i,
};

/** After the last entry of the section headed by the type's name; else at the end of the file. */
export function insertionPoint(index: ParsedIndex, text: string, type: string | null): { offset: number; atEnd: boolean } {
  if (type) {
    const re = SECTION_WORDS[type]!;
    const start = index.lines.findIndex((l) => l.kind === 'heading' && re.test(l.text));
    if (start >= 0) {
      const level = /^ {0,3}(#+)/.exec(index.lines[start]!.text)![1]!.length;
      let last = start;
      for (let i = start + 1; i < index.lines.length; i++) {
        const l = index.lines[i]!;
        if (l.kind === 'heading' && /^ {0,3}(#+)/.exec(l.text)![1]!.length <= level) break;
        if (l.kind === 'entry' || l.kind === 'list') last = i;
      }
      const l = index.lines[last]!;
      if (l.eol !== '') return { offset: l.offset + l.text.length + l.eol.length, atEnd: false };
      return { offset: text.length, atEnd: true };
    }
  }
  return { offset: text.length, atEnd: true };
}
