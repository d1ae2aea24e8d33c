// Every rule is documented where users look: its module carries docs, the README names it, and
// the contract's rule ids are exactly the ones memlint knows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../src/lint/rules/all.js';
import { ROOT } from '../helpers/repo.js';

const CONTRACT_RULES = [
  'frontmatter-yaml', 'frontmatter-required', 'frontmatter-type', 'index-entry-format', 'index-line-length',
  'index-max-lines', 'index-max-bytes', 'index-link-target', 'index-duplicate', 'index-orphan', 'max-topic-files',
  'no-conflict-markers',
];

describe('rule documentation', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const rule of allRules) {
    it(`${rule.id} is documented`, () => {
      expect(rule.description.length).toBeGreaterThan(10);
      for (const example of [rule.docs.ok, rule.docs.notOk]) expect(typeof example === 'string' ? example : Object.keys(example.files)).not.toHaveLength(0);
      expect(readme).toContain(`\`${rule.id}\``);
    });
  }
  it('knows every structural rule of the contract', () => {
    const ids = allRules.map((r) => r.id);
    for (const id of CONTRACT_RULES) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
