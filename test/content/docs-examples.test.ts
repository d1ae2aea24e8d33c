// Each content rule's ok/not-ok examples are its first tests (remark-lint's habit): the ok example
// passes the rule, the not-ok one fails it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentRules } from '../../src/lint/rules/content.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

const wrap = (example: string) => (example.startsWith('---') ? example : `---\nname: Example\ndescription: An example memory\ntype: reference\n---\n${example}`);

function messagesFor(ruleId: string, example: string): string[] {
  const repo = initRepo(tempDir('memlint-docs-'));
  writeFiles(repo, { 'src/ledger/round.ts': 'export {};\n', '.memlintrc.json': JSON.stringify({ rules: Object.fromEntries(contentRules.map((r) => [r.id, r.id === ruleId ? 'error' : 'off'])) }) });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'code');
  writeFiles(join(repo, 'mem'), { 'MEMORY.md': '- [Example](example.md) — an example memory\n', 'example.md': wrap(example) });
  const r = memlint(repo, ['mem', '--format', 'json']);
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string; message: string }> }>).flatMap((f) => f.messages).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe('content rule examples', () => {
  for (const rule of contentRules) {
    it(`${rule.id}: ok passes, not-ok fails`, () => {
      expect(messagesFor(rule.id, rule.docs.ok)).toEqual([]);
      expect(messagesFor(rule.id, rule.docs.notOk).length).toBeGreaterThan(0);
    });
  }
});
