import type { Rule } from '../types.js';
import { isSkillFile } from '../../memdir/kinds.js';
import { recallCut } from '../../memdir/limits.js';

/**
 * topic-recall-limit: Claude Code's recall shows another session only the first 200 lines and
 * 4,096 bytes (UTF-8, frontmatter included) of a memory file; the rest is invisible unless the
 * agent opens the file. Claude Code 2.1.332 tells its agent so after a write ("Keep each memory
 * file under 4 KB"; past it, an error asking to rewrite the file under 70% of the limit). Reported
 * on the first line recall leaves out. A warning: the file is still there to be read, and memory
 * written before the limit was stated may run past it. A skill's file (team/<mount>/skills/…) is no
 * memory recall shows: Claude Code reads skills up to 128 KB.
 */
const TOPIC = (body: string) => `---\nname: Deploy steps\ndescription: How staging deploys differ from production\ntype: project\n---\n${body}`;
const FACT = 'Staging deploys from the release branch after the nightly build; production waits for sign-off.\n';

export const topicRecallLimit: Rule = {
  id: 'topic-recall-limit',
  description: 'A memory file within what recall shows: 200 lines and 4,096 bytes',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: TOPIC(FACT.repeat(10)),
    notOk: TOPIC(FACT.repeat(45)),
    notOkOutput: '47:1: memory file is 4,417 bytes, over the 4,096 bytes recall shows another session (lines 1-46); keep one fact per file: split distinct facts into their own files, or summarize this one to under 2,867 bytes',
  },
  check(ctx) {
    if (!ctx.format.reads('topic-recall-limit') || isSkillFile(ctx.file.rel)) return;
    const { lines: maxLines, bytes: maxBytes } = ctx.format.topicRecall;
    const cut = recallCut(ctx.file.text, maxLines, maxBytes);
    if (cut === null) return;
    const target = cut.by === 'bytes' ? `${Math.floor(maxBytes * 0.7).toLocaleString('en')} bytes` : `${Math.floor(maxLines * 0.7)} lines`;
    const size = cut.by === 'bytes' ? `is ${cut.bytes.toLocaleString('en')} bytes, over the ${maxBytes.toLocaleString('en')} bytes` : `has ${cut.lines} lines, over the ${maxLines} lines`;
    ctx.report({
      message: `memory file ${size} recall shows another session (lines 1-${cut.shown}); keep one fact per file: split distinct facts into their own files, or summarize this one to under ${target}`,
      line: cut.shown + 1,
      column: 1,
    });
  },
};
