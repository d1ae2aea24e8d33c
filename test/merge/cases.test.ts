// The case corpus (test/merge-cases/<name>/{base,ours,theirs,expected}.md) through the driver,
// as git runs it: the merge lands in a copy of OURS, compared byte for byte.
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDriver } from '../../src/merge/driver.js';
import { mergeIndex } from '../../src/merge/memory-index.js';
import { parseIndex } from '../../src/memdir/memory-index.js';
import { hasConflictMarkers } from '../../src/merge/text.js';
import { ROOT, tempDir } from '../helpers/repo.js';

const CASES = join(ROOT, 'test', 'merge-cases');
const names = readdirSync(CASES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function pathOf(name: string): string {
  const file = join(CASES, name, 'path');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (name.startsWith('index-')) return 'MEMORY.md';
  if (name.startsWith('log-')) return '.claude/memory/logs/2026/11/2026-11-29.md';
  return 'topic_case.md';
}

function entrySet(text: string): string[] {
  return parseIndex(text)
    .lines.filter((l) => l.entry)
    .map((l) => l.text)
    .sort();
}

describe('merge case corpus', () => {
  it('has at least 40 cases of every kind', () => {
    expect(names.length).toBeGreaterThanOrEqual(40);
    for (const kind of ['index-', 'topic-', 'log-']) expect(names.some((n) => n.startsWith(kind))).toBe(true);
  });

  for (const name of names) {
    it(name, async () => {
      const dir = join(CASES, name);
      const work = tempDir('memlint-case-');
      const ours = join(work, '.merge_file_ours');
      copyFileSync(join(dir, 'ours.md'), ours);
      const messages: string[] = [];
      const code = await runDriver(
        { base: join(dir, 'base.md'), ours, theirs: join(dir, 'theirs.md'), markerSize: 7, path: pathOf(name), cwd: work, env: process.env },
        (l) => messages.push(l),
      );
      const expected = readFileSync(join(dir, 'expected.md'));
      expect(readFileSync(ours).toString('utf8')).toBe(expected.toString('utf8'));
      expect(readFileSync(ours).equals(expected)).toBe(true);
      expect(code).toBe(hasConflictMarkers(expected.toString('utf8')) || name.includes('garbage-binary') ? 1 : 0);
      if (code === 1) expect(messages.some((m) => m.includes('left in conflict'))).toBe(true);
    });
  }

  const read = (name: string, f: string) => readFileSync(join(CASES, name, f), 'utf8');
  const swappable = names.filter((n) => {
    if (!n.startsWith('index-') || n.includes('garbage')) return false;
    const texts = ['base.md', 'ours.md', 'theirs.md'].map((f) => read(n, f));
    return texts[0] !== '' && !texts.some(hasConflictMarkers);
  });
  for (const name of swappable) {
    it(`${name}: the same entry set with the sides swapped`, () => {
      const [base, ours, theirs] = [read(name, 'base.md'), read(name, 'ours.md'), read(name, 'theirs.md')];
      const ab = mergeIndex(base, ours, theirs);
      const ba = mergeIndex(base, theirs, ours);
      expect(entrySet(ba.text)).toEqual(entrySet(ab.text));
      expect(ba.conflicts.length).toBe(ab.conflicts.length);
    });
  }
});
