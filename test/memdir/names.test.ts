// A topic file whose name no index entry can spell so that it reads back is reported, and no fix
// adds an entry for it (contract §9: names are data). Real files, the program in process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unsafeTopicName } from '../../src/memdir/names.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, initRepo, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const TOPIC = '---\nname: Esc\ndescription: a name with an escape\ntype: reference\n---\nBody.\n';

describe('unsafeTopicName', () => {
  it('names what no entry can spell, and leaves ordinary names alone', () => {
    expect(unsafeTopicName('esc\u001b[31mred.md')).toBe('holds a control character');
    expect(unsafeTopicName('nul\u0000.md')).toBe('holds a control character');
    expect(unsafeTopicName('tab\tname.md')).toBe('holds a control character');
    expect(unsafeTopicName('zw\u200bspace.md')).toBe('holds an invisible or direction character');
    expect(unsafeTopicName('rtl\u202efdp.md')).toBe('holds an invisible or direction character');
    expect(unsafeTopicName('a\nb.md')).toBe('holds a newline');
    expect(unsafeTopicName(' lead.md')).toBe('starts with whitespace');
    for (const ok of ['feedback_testing.md', 'team/café.md', 'プロジェクト.md', 'a b.md', 'sub/x-y_z.md']) expect(unsafeTopicName(ok)).toBeNull();
  });
});

describe('a topic named with an escape character', () => {
  it('is reported, and --fix adds no entry for it, run after run', async () => {
    const repo = initRepo();
    commitFiles(repo, { [`${MEM}/MEMORY.md`]: '# Memory\n' });
    writeFiles(repo, { [`${MEM}/esc\u001b[31mred.md`]: TOPIC });
    const lint = await memlintInProcess(repo, [MEM, '--format', 'json']);
    const messages = (JSON.parse(lint.stdout) as Array<{ messages: Array<{ ruleId: string; message: string }> }>).flatMap((f) => f.messages);
    expect(messages.filter((m) => m.ruleId === 'index-orphan').map((m) => m.message)).toEqual([
      'topic file name "esc\\u001b[31mred.md" holds a control character: rename the file; an index entry cannot name it reliably, so none is added',
    ]);
    for (let run = 0; run < 2; run++) {
      await memlintInProcess(repo, [MEM, '--fix']);
      expect(readFileSync(join(repo, MEM, 'MEMORY.md'), 'utf8')).toBe('# Memory\n');
    }
  });
});
