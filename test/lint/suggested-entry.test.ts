// index-entry-format's "mentioned, not an entry" message suggests a line to write: written as
// suggested (the placeholders filled in), it is an entry memlint's own index parser reads back as a
// link to that topic, for a file name holding a space, a parenthesis or a literal "%20".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entries, normalizeTarget, parseIndex } from '../../src/memdir/memory-index.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { cleanRepo, topic } from '../cli/setup.js';

interface Result { messages: Array<{ ruleId: string | null; message: string }> }

describe('index-entry-format: the suggested entry is itself an entry', () => {
  it('for names with a space, a parenthesis and a literal %20', async () => {
    const names = ['reference_café ü.md', 'reference_a (b).md', 'reference_100%20.md'];
    const { repo, memdir } = cleanRepo(Object.fromEntries(names.map((n) => [n, topic(n.slice(10, -3), 'reference')])));
    // The trial's line: a space ends a bare link destination, so this is a mention, not a link.
    const mentions = names.map((n) => `- [X](${n}) — x`);
    writeFileSync(join(memdir, 'MEMORY.md'), `${readFileSync(join(memdir, 'MEMORY.md'), 'utf8')}${mentions.join('\n')}\n`);
    const first = JSON.parse((await memlintInProcess(repo, ['--format', 'json'])).stdout) as Result[];
    const suggested = new Map<string, string>();
    for (const m of first.flatMap((r) => r.messages)) {
      const found = /^(.+?) is mentioned, not an entry: give it its own line, `(- \[Title\]\(.*\) — hook)`/.exec(m.message);
      if (found) suggested.set(found[1]!, found[2]!);
    }
    expect([...suggested.keys()].sort()).toEqual([...names].sort());
    expect(suggested.get('reference_café ü.md')).toBe('- [Title](<reference_café ü.md>) — hook');

    const lines = names.map((n) => suggested.get(n)!.replace('Title', n.slice(10, -3)).replace('hook', `about ${n.slice(10, -3)}`));
    const index = `# Memory\n\n## Project\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n${lines.join('\n')}\n`;
    const parsed = entries(parseIndex(index));
    expect(parsed.map((l) => normalizeTarget(l.entry.target)).sort()).toEqual(['project_deploys.md', ...names].sort());
    writeFileSync(join(memdir, 'MEMORY.md'), index);
    const after = JSON.parse((await memlintInProcess(repo, ['--format', 'json'])).stdout) as Result[];
    const left = after.flatMap((r) => r.messages).filter((m) => m.ruleId === 'index-entry-format' || m.ruleId === 'index-orphan' || m.ruleId === 'index-link-target');
    expect(left).toEqual([]);
  });
});
