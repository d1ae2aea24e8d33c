// topic-recall-limit: where recall cuts a memory file (recallCut, pure) and what lint reports on a
// memory folder of real files: lines and UTF-8 bytes as Claude Code 2.1.332 counts them, topics
// only (a log is consolidation's to distil).
import { describe, expect, it } from 'vitest';
import { recallCut } from '../../src/memdir/limits.js';
import { memlint, tempDir, writeFiles } from '../helpers/repo.js';

const head = '---\nname: Notes\ndescription: Notes on the build\ntype: project\n---\n';

describe('recallCut', () => {
  it('shows 200 lines and 4,096 bytes, counting a line break between lines and none after the last', () => {
    expect(recallCut('x\n'.repeat(200), 200, 4096)).toBeNull();
    expect(recallCut('x\n'.repeat(201), 200, 4096)).toEqual({ shown: 200, lines: 201, bytes: 402, by: 'lines' });
    // 4,096 bytes of text in lines of 63 bytes plus a break: 64 lines fit exactly, a trailing break is free.
    const exact = `${'y'.repeat(63)}\n`.repeat(64);
    expect(Buffer.byteLength(exact)).toBe(4096);
    expect(recallCut(exact, 200, 4096)).toBeNull();
    expect(recallCut(`${exact}z`, 200, 4096)).toEqual({ shown: 64, lines: 65, bytes: 4097, by: 'bytes' });
  });

  it('counts bytes in UTF-8, not characters: 1,400 kana are 4,200 bytes', () => {
    const kana = `${'あ'.repeat(100)}\n`.repeat(14);
    expect(kana.length).toBe(1414);
    expect(recallCut(kana, 200, 4096)).toEqual({ shown: 13, lines: 14, bytes: 4214, by: 'bytes' });
  });
});

describe('topic-recall-limit on a memory folder', () => {
  it('reports each topic recall cuts, on the first line it leaves out, and no log or skill', () => {
    const dir = tempDir();
    writeFiles(dir, {
      'memory/MEMORY.md': '- [Long](long.md) — many short notes\n- [Wide](wide.md) — notes in Japanese\n- [Fits](fits.md) — fits\n',
      'memory/long.md': head + Array.from({ length: 200 }, (_, i) => `- note ${i + 1}`).join('\n') + '\n',
      'memory/wide.md': head + `${'ビルドは夜間に走る。'.repeat(14)}\n`.repeat(10),
      'memory/fits.md': head + 'One fact.\n',
      // A skill shared through team memory is no memory recall shows (Claude Code reads skills up to 128 KB).
      'memory/team/eng/skills/deploy/SKILL.md': `---\nname: deploy\ndescription: How to deploy\n---\n${'Run the deploy script, then check the health page.\n'.repeat(100)}`,
      'memory/logs/2026/11/2026-11-30.md': `${'- 10:00 a long day of notes that runs on and on\n'.repeat(120)}`,
    });
    const r = memlint(dir, ['--format', 'json', 'memory']);
    const found = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number; message: string }> }>)
      .flatMap((f) => f.messages.filter((m) => m.ruleId === 'topic-recall-limit').map((m) => `${f.filePath.split('/memory/')[1]}:${m.line} ${m.message}`));
    expect(found).toEqual([
      'long.md:201 memory file has 205 lines, over the 200 lines recall shows another session (lines 1-200); keep one fact per file: split distinct facts into their own files, or summarize this one to under 140 lines',
      'wide.md:15 memory file is 4,276 bytes, over the 4,096 bytes recall shows another session (lines 1-14); keep one fact per file: split distinct facts into their own files, or summarize this one to under 2,867 bytes',
    ]);
  });
});
