// Config consolidate.exclude: folders consolidation leaves alone unless named on the command line.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, writeFiles } from '../helpers/repo.js';
import { excludedMemdir } from '../../src/consolidate/exclude.js';

const topic = (name: string, type: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n\n${body}`;

function repoWithExample(): string {
  const dir = initRepo();
  writeFiles(dir, {
    '.memlintrc.json': JSON.stringify({ consolidate: { exclude: ['examples/**'] } }),
    'examples/memory/MEMORY.md': '# Memory\n\n## Feedback\n\n- [Testing](feedback_testing.md) — Integration tests hit a real database\n',
    'examples/memory/feedback_testing.md': topic('Testing', 'feedback', 'Integration tests hit a real database', '- Never mock the database.\n'),
    'examples/memory/logs/2026/11/2026-11-26.md': '- 09:14 — Payout retry test uses compose Postgres [feedback_testing]\n',
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'example');
  return dir;
}

describe('consolidate.exclude', () => {
  it('matches folders by glob relative to the config folder', () => {
    expect(excludedMemdir('/r/examples/memory', { exclude: ['examples/**'] }, '/r')).toBe(true);
    expect(excludedMemdir('/r/.claude/memory', { exclude: ['examples/**'] }, '/r')).toBe(false);
    expect(excludedMemdir('/r/examples/memory', {}, '/r')).toBe(false);
  });

  it('leaves an excluded folder alone, unless it is named on the command line', async () => {
    const dir = repoWithExample();
    const topicPath = join(dir, 'examples/memory/feedback_testing.md');
    const before = readFileSync(topicPath, 'utf8');
    const all = await memlintInProcess(dir, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-11-29' } });
    expect(all.code).toBe(0);
    expect(readFileSync(topicPath, 'utf8')).toBe(before);
    const named = await memlintInProcess(dir, ['consolidate', '--force', 'examples/memory'], { env: { MEMLINT_TODAY: '2026-11-29' } });
    expect(named.code).toBe(0);
    expect(readFileSync(topicPath, 'utf8')).toContain('Payout retry test uses compose Postgres');
  });
});
