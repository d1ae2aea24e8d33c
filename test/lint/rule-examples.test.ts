// Rule docs that are tests: each rule's not-ok example gives exactly its notOkOutput, its ok
// example gives nothing, and the README and docs/rules-content.md show those examples and
// outputs as generated from the rule modules (MEMLINT_WRITE_README=1 rewrites their blocks after
// a docs change). A rule's section shows no example written by hand beside the generated one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules, contentRules } from '../../src/lint/rules/index.js';
import type { Rule } from '../../src/lint/types.js';
import { ROOT } from '../helpers/repo.js';
import { BLOCK_RE, handWrittenExamples, outputOf, readmeBlock } from './rule-examples.js';

/** The pages that show rule examples, and the rules each must show. */
const PAGES: Array<{ file: string; rules: Rule[] }> = [
  { file: 'README.md', rules: allRules },
  { file: 'docs/rules-content.md', rules: contentRules },
];

describe('rule examples', () => {
  for (const rule of allRules) {
    it(`${rule.id}: not-ok gives its stated output, ok gives none`, async () => {
      expect(rule.docs.notOkOutput).toBeTruthy();
      expect(await outputOf(rule, rule.docs.notOk)).toBe(rule.docs.notOkOutput);
      expect(await outputOf(rule, rule.docs.ok)).toBe('');
    });
  }

  for (const { file, rules } of PAGES) {
    it(`${file} shows each example and its output as the rule module states them`, () => {
      const path = join(ROOT, file);
      const page = readFileSync(path, 'utf8');
      const byId = new Map(allRules.map((r) => [r.id, r]));
      const generated = page.replace(BLOCK_RE, (_block, id: string) => readmeBlock(byId.get(id)!));
      if (process.env.MEMLINT_WRITE_README === '1') writeFileSync(path, generated);
      const shown = [...page.matchAll(BLOCK_RE)].map((m) => m[1]);
      expect(shown.sort()).toEqual(rules.map((r) => r.id).sort());
      expect(page).toBe(generated);
    });

    it(`${file}: no rule section shows an example written by hand beside the generated one`, () => {
      const page = readFileSync(join(ROOT, file), 'utf8');
      expect(handWrittenExamples(page, allRules.map((r) => r.id))).toEqual([]);
    });
  }

  it('a code block written into a rule section is found, one in a generated block or another section is not', () => {
    const page = [
      '## Rules', '', '```sh', 'memlint .', '```',
      '### index-duplicate', '', '<!-- example: index-duplicate (generated) -->', '```md', '- x', '```', '<!-- /example -->', '',
      '```md', '<!-- fails -->', '```',
      '### index-max-lines and index-max-bytes', '', '~~~~md', '# not a heading', '~~~~',
      '## In editors', '```js', 'x', '```',
    ].join('\n');
    expect(handWrittenExamples(page, ['index-duplicate', 'index-max-lines', 'index-max-bytes'])).toEqual([
      { section: 'index-duplicate', line: 14 },
      { section: 'index-max-lines and index-max-bytes', line: 19 },
    ]);
  });
});
