// src/lint/rules/ holds the rules and nothing else: one module per rule, named by its id, and the
// list of them (all.ts). Helpers the rules share live in src/lint/ and src/memdir/.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { allRules } from '../../src/lint/rules/all.js';

it('every module of src/lint/rules/ but its index is one rule of allRules, named by its id', () => {
  const folder = fileURLToPath(new URL('../../src/lint/rules', import.meta.url));
  const modules = readdirSync(folder).filter((f) => f !== 'all.ts').map((f) => f.replace(/\.ts$/, '')).sort();
  expect(modules).toEqual(allRules.map((r) => r.id).sort());
});
