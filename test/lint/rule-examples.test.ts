// Rule docs that are tests: each rule's not-ok example gives exactly its notOkOutput, its ok
// example gives nothing, and the README and docs/rules-content.md show those examples and
// outputs as generated from the rule modules (MEMLINT_WRITE_README=1 rewrites their blocks after
// a docs change). A rule's section shows no example written by hand beside the generated one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules, contentRules } from '../../src/lint/rules/all.js';
import type { Rule } from '../../src/lint/types.js';
import { ROOT } from '../helpers/repo.js';
import { BLOCK_RE, handWrittenExamples, outputOf, readmeBlock, RULES_TABLE_RE, rulesTable, SUMMARY_RE, summaryBlock } from './rule-examples.js';

/** The pages that show rule examples, and the rules each must show: a page of its own per rule. */
const PAGES: Array<{ file: string; rules: Rule[] }> = [
  ...allRules.map((rule) => ({ file: `docs/rules/${rule.id}.md`, rules: [rule] })),
  { file: 'docs/rules-content.md', rules: contentRules },
];

/** A page with its generated blocks made anew from the rule modules. */
function regenerate(page: string): string {
  const byId = new Map(allRules.map((r) => [r.id, r]));
  return page
    .replace(BLOCK_RE, (_block, id: string) => readmeBlock(byId.get(id)!))
    .replace(SUMMARY_RE, (_block, id: string) => summaryBlock(byId.get(id)!))
    .replace(RULES_TABLE_RE, () => rulesTable(allRules));
}

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
      const generated = regenerate(page);
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

  it('README.md lists every rule, one line each, as the rule modules state them', () => {
    const path = join(ROOT, 'README.md');
    const page = readFileSync(path, 'utf8');
    const generated = regenerate(page);
    if (process.env.MEMLINT_WRITE_README === '1') writeFileSync(path, generated);
    expect(page.match(RULES_TABLE_RE)).toHaveLength(1);
    expect(page).toBe(generated);
  });

  for (const rule of allRules) {
    it(`docs/rules/${rule.id}.md opens with the rule's summary`, () => {
      const page = readFileSync(join(ROOT, 'docs', 'rules', `${rule.id}.md`), 'utf8');
      expect(page.startsWith(`# \`${rule.id}\`\n\n${summaryBlock(rule)}\n`)).toBe(true);
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
