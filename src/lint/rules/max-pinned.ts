import type { Rule } from '../types.js';
import type { MemdirModel, MemoryFile } from '../../memdir/types.js';
import { isPinned } from '../../memdir/topic.js';

/**
 * max-pinned: a pinned lesson (`metadata.pinned: true`, Claude Code 2.1.219 on) applies to every
 * session, and Claude Code's lesson instructions allow at most 4 of them. More is an error naming
 * them all, so a person picks which to unpin. Reported once per memdir, on MEMORY.md.
 */
const LESSON = '---\nname: lesson-{n}\ndescription: Lesson {n} the user taught\nmetadata:\n  pinned: true\n---\nLesson {n}.\n';

export const maxPinned: Rule = {
  id: 'max-pinned',
  description: 'At most 4 memories pinned (metadata.pinned: true) in a memdir',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: { files: { 'MEMORY.md': '# Memory\n' }, each: { path: 'lesson_{n}.md', text: LESSON, count: 4 } },
    notOk: { files: { 'MEMORY.md': '# Memory\n' }, each: { path: 'lesson_{n}.md', text: LESSON, count: 5 } },
    notOkOutput: 'MEMORY.md:1:1: 5 memories are pinned (at most 4: each applies to every session): lesson_1.md, lesson_2.md, lesson_3.md, lesson_4.md, lesson_5.md; unpin the ones that are not durable lessons',
  },
  check(ctx) {
    if (!ctx.format.reads('pinned-lessons')) return;
    const pinned = pinnedTopics(ctx.memdir).map((f) => f.rel);
    const max = ctx.format.maxPinned;
    if (pinned.length <= max) return;
    ctx.report({
      message: `${pinned.length} memories are pinned (at most ${max}: each applies to every session): ${pinned.join(', ')}; unpin the ones that are not durable lessons`,
      line: 1,
      column: 1,
    });
  },
};

/** The memdir's topics whose frontmatter says `metadata.pinned: true` (or a top-level `pinned: true`). */
function pinnedTopics(memdir: MemdirModel): MemoryFile[] {
  return memdir.topics.filter((f) => !f.unread && isPinned(memdir.parsedTopic(f).frontmatter?.data));
}

