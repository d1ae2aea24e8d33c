// docs/BENCHMARKS.md is written by `npm run bench`, which takes its analysis from
// scripts/bench/NOTES.md: a note written into the document alone is lost on the next run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/repo.js';

describe('scripts/bench/NOTES.md', () => {
  it('holds the analysis docs/BENCHMARKS.md shows, so the next bench run keeps it', () => {
    const notes = readFileSync(join(ROOT, 'scripts', 'bench', 'NOTES.md'), 'utf8').trim();
    const doc = readFileSync(join(ROOT, 'docs', 'BENCHMARKS.md'), 'utf8');
    const analysis = doc.slice(doc.indexOf('\n## Analysis\n') + 1, doc.indexOf('\n## Reproduce\n')).trim();
    expect(analysis.length).toBeGreaterThan(1000);
    expect(notes).toBe(analysis);
  });
});
