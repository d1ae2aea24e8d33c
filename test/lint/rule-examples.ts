// Each rule's ok/not-ok examples with their exact output (remark-lint's `@example` habit: one
// message a line, `3:1-3:40: message`), run by test/lint/rule-examples.test.ts, and the README
// blocks made from them (generated from the rule modules, so never written twice).
import { join } from 'node:path';
import { allRules } from '../../src/lint/rules/index.js';
import { contentRules } from '../../src/lint/rules/content.js';
import type { Rule } from '../../src/lint/types.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

/** Rules whose examples describe a memdir ("an index of 250 lines") rather than show a file. */
export const DESCRIBED = ['index-max-lines', 'index-max-bytes', 'index-orphan', 'max-topic-files', 'no-memory-loss'];

export const runnableRules = (): Rule[] => allRules.filter((r) => !DESCRIBED.includes(r.id));

const isContent = (rule: Rule) => contentRules.includes(rule);
const TOPIC = '---\nname: Testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** every test under tests/integration.\n';

/** Where an example is put: structural index rules' examples are MEMORY.md, the rest a topic file. */
export function exampleFile(rule: Rule): 'MEMORY.md' | 'example.md' {
  return !isContent(rule) && rule.appliesTo[0] === 'index' ? 'MEMORY.md' : 'example.md';
}

/** A content rule's example is a memory body: it gets frontmatter unless it has its own. */
export function exampleText(rule: Rule, example: string): string {
  if (!isContent(rule) || example.startsWith('---')) return example;
  return `---\nname: Example\ndescription: An example memory\ntype: reference\n---\n${example}`;
}

/** The messages memlint gives the example, with only this rule on, in remark-lint's form. */
export async function outputOf(rule: Rule, example: string): Promise<string> {
  const repo = initRepo(tempDir('memlint-example-'));
  writeFiles(repo, { 'src/ledger/round.ts': 'export {};\n', '.memlintrc.json': JSON.stringify({ rules: Object.fromEntries(allRules.map((r) => [r.id, r.id === rule.id ? 'error' : 'off'])) }) });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'code');
  const where = exampleFile(rule);
  const files: Record<string, string> = where === 'MEMORY.md'
    ? { 'MEMORY.md': example, 'feedback_testing.md': TOPIC }
    : { 'MEMORY.md': '- [Example](example.md) — an example memory\n', 'example.md': exampleText(rule, example) };
  writeFiles(join(repo, 'mem'), files);
  const r = await memlintInProcess(repo, ['mem', '--format', 'json'], { env: { MEMLINT_TODAY: '2026-04-27' } });
  if (r.stderr !== '') throw new Error(r.stderr);
  const results = JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string; line: number; column: number; endLine?: number; endColumn?: number; message: string }> }>;
  return results
    .flatMap((f) => f.messages)
    .map((m) => `${m.line}:${m.column}${m.endLine !== undefined && m.endColumn !== undefined ? `-${m.endLine}:${m.endColumn}` : ''}: ${m.message}`)
    .join('\n');
}

const fence = (lang: string, text: string) => {
  const ticks = /^```/m.test(text) ? '~~~~' : '```';
  return `${ticks}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${ticks}`;
};

/** The README block of a rule's examples. */
export function readmeBlock(rule: Rule): string {
  const where = exampleFile(rule) === 'MEMORY.md' ? 'MEMORY.md' : 'a topic file';
  return [
    `<!-- example: ${rule.id} (generated from the rule's docs by test/lint/rule-examples.test.ts: do not edit) -->`,
    `Not ok (${where}):`,
    '',
    fence('md', exampleText(rule, rule.docs.notOk)),
    '',
    fence('text', rule.docs.notOkOutput ?? ''),
    '',
    `Ok (${where}), no message:`,
    '',
    fence('md', exampleText(rule, rule.docs.ok)),
    '<!-- /example -->',
  ].join('\n');
}
