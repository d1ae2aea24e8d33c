// Rule docs that are tests: each rule's not-ok example gives exactly its notOkOutput, its ok
// example gives nothing, and the README shows those examples and outputs as generated from the
// rule modules (MEMLINT_WRITE_README=1 rewrites the README's blocks after a docs change).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../src/lint/rules/index.js';
import { ROOT } from '../helpers/repo.js';
import { DESCRIBED, outputOf, readmeBlock, runnableRules } from './rule-examples.js';

const BLOCK_RE = /<!-- example: ([\w-]+) [^\n]*-->\n[\s\S]*?<!-- \/example -->/g;

describe('rule examples', () => {
  for (const rule of runnableRules()) {
    it(`${rule.id}: not-ok gives its stated output, ok gives none`, async () => {
      expect(rule.docs.notOkOutput).toBeTruthy();
      expect(await outputOf(rule, rule.docs.notOk)).toBe(rule.docs.notOkOutput);
      expect(await outputOf(rule, rule.docs.ok)).toBe('');
    });
  }

  it('only rules whose examples describe a memdir go without a stated output', () => {
    for (const id of DESCRIBED) expect(allRules.find((r) => r.id === id)?.docs.notOkOutput).toBeUndefined();
  });

  it('the README shows each example and its output as the rule module states them', () => {
    const file = join(ROOT, 'README.md');
    const readme = readFileSync(file, 'utf8');
    const byId = new Map(allRules.map((r) => [r.id, r]));
    const generated = readme.replace(BLOCK_RE, (_block, id: string) => readmeBlock(byId.get(id)!));
    if (process.env.MEMLINT_WRITE_README === '1') writeFileSync(file, generated);
    const shown = [...readme.matchAll(BLOCK_RE)].map((m) => m[1]);
    expect(shown.sort()).toEqual(runnableRules().map((r) => r.id).sort());
    expect(readme).toBe(generated);
  });
});
