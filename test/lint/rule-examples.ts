// Each rule's ok/not-ok examples with their exact output (remark-lint's `@example` habit: one
// message a line, `3:1-3:40: message`), run by test/lint/rule-examples.test.ts, and the README
// blocks made from them (generated from the rule modules, so never written twice).
//
// An example is one file's text, or a memdir (MemdirExample): several files, lines or files made
// from a recipe, a staged change. Both run through the real engine, in a real repository, with only
// the example's rule on. A stand-in `<N letters and digits>` in an example is written by the run
// as N random-looking letters and digits, always the same: a token spelt out in full would be a
// live-looking secret in the README and in the rule's source.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allRules, contentRules } from '../../src/lint/rules/all.js';
import type { MemdirExample, Rule } from '../../src/lint/types.js';
import { splitLines } from '../../src/memdir/lines.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

/** Where the examples' memdir sits in its repository (a message that names a path says this). */
export const MEMDIR = '.claude/memory';

const isContent = (rule: Rule) => contentRules.includes(rule);
const TOPIC = '---\nname: Testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** every test under tests/integration.\n';

/** Where a one-file example is put: structural index rules' examples are MEMORY.md, the rest a topic file. */
export function exampleFile(rule: Rule): 'MEMORY.md' | 'example.md' {
  return !isContent(rule) && rule.appliesTo[0] === 'index' ? 'MEMORY.md' : 'example.md';
}

/** A content rule's example is a memory body: it gets frontmatter unless it has its own. */
export function exampleText(rule: Rule, example: string): string {
  if (!isContent(rule) || example.startsWith('---')) return example;
  return `---\nname: Example\ndescription: An example memory\ntype: reference\n---\n${example}`;
}

const STAND_IN_RE = /<(\d+) letters and digits>/g;

/** N letters and digits that look random and are the same on every run. */
export function standIn(n: number): string {
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; out.length < n; i++) {
    for (const byte of createHash('sha256').update(`memlint rule example ${n} ${i}`).digest()) {
      if (byte < 248 && out.length < n) out += ALNUM[byte % 62];
    }
  }
  return out;
}

const withStandIns = (text: string) => text.replace(STAND_IN_RE, (_s, n: string) => standIn(Number(n)));
const fill = (template: string, n: number) => template.replaceAll('{n}', String(n));
const range = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** The memdir an example stands for, every file written out (recipes made, stand-ins filled). */
export function memdirFiles(rule: Rule, example: string | MemdirExample): Record<string, string> {
  if (typeof example === 'string') {
    const files: Record<string, string> = exampleFile(rule) === 'MEMORY.md'
      ? { 'MEMORY.md': example, 'feedback_testing.md': TOPIC }
      : { 'MEMORY.md': '- [Example](example.md) — an example memory\n', 'example.md': exampleText(rule, example) };
    return Object.fromEntries(Object.entries(files).map(([p, t]) => [p, withStandIns(t)]));
  }
  return expand(example.files, example);
}

function expand(given: Record<string, string>, example: MemdirExample): Record<string, string> {
  const files = { ...given };
  if (example.lines) {
    const { in: file, line, count } = example.lines;
    files[file] = (files[file] ?? '') + range(count).map((n) => `${fill(line, n)}\n`).join('');
  }
  if (example.each) for (const n of range(example.each.count)) files[fill(example.each.path, n)] = fill(example.each.text, n);
  return Object.fromEntries(Object.entries(files).map(([p, t]) => [p, withStandIns(t)]));
}

interface JsonResult {
  filePath: string;
  messages: Array<{ line: number; column: number; endLine?: number; endColumn?: number; message: string }>;
}

const CODE = { 'src/ledger/round.ts': 'export {};\n' };

/**
 * A repository whose one commit holds the project file the examples name, made once and copied
 * (cp -r) for each example that needs no commit of its own: most of them, two runs for each rule.
 */
let codeOnce: string | undefined;
function codeRepo(): string {
  if (codeOnce === undefined) {
    codeOnce = initRepo(tempDir('memlint-example-code-'));
    writeFiles(codeOnce, CODE);
    git(codeOnce, 'add', '-A');
    git(codeOnce, 'commit', '-q', '-m', 'code');
  }
  const repo = tempDir('memlint-example-');
  cpSync(codeOnce, repo, { recursive: true });
  return repo;
}

/**
 * The messages memlint gives the example, with only this rule on, in remark-lint's form; each
 * led by its file's memdir-relative path for a memdir example.
 */
export async function outputOf(rule: Rule, example: string | MemdirExample): Promise<string> {
  const head = typeof example === 'string' ? undefined : example.head;
  const moves = typeof example === 'string' ? undefined : example.moves;
  const config = { '.memlintrc.json': JSON.stringify({ rules: Object.fromEntries(allRules.map((r) => [r.id, r.id === rule.id ? 'error' : 'off'])) }) };
  // Only the rule under test runs, configured in a file committed with the code where the example
  // makes commits, and left uncommitted beside the copied one where it makes none.
  const repo = head || moves ? initRepo(tempDir('memlint-example-')) : codeRepo();
  writeFiles(repo, head || moves ? { ...CODE, ...config } : config);
  const dir = join(repo, MEMDIR);
  if (head) writeFiles(dir, expand(head, { files: {} }));
  if (moves) writeFiles(repo, Object.fromEntries(Object.keys(moves).map((p) => [p, `// ${p}\nexport const x = 1;\n`])));
  if (head || moves) {
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', head ? 'memory at HEAD' : 'code');
  }
  // The moves, in a commit of their own: the output names it as {commit} ({date}).
  let moved: { commit: string; date: string } | undefined;
  if (moves) {
    for (const [from, to] of Object.entries(moves)) {
      if (to === null) git(repo, 'rm', '-q', from);
      else {
        mkdirSync(dirname(join(repo, to)), { recursive: true });
        git(repo, 'mv', from, to);
      }
    }
    git(repo, 'commit', '-q', '-m', 'move');
    const [commit, date] = git(repo, 'log', '-1', '--format=%h %cs').trim().split(' ');
    moved = { commit: commit!, date: date! };
  }
  const files = memdirFiles(rule, example);
  if (head) {
    for (const rel of Object.keys(head)) if (!(rel in files)) rmSync(join(dir, rel));
    writeFiles(dir, files);
    git(repo, 'add', '-A');
  } else writeFiles(dir, files);
  const r = await memlintInProcess(repo, head ? ['--staged', '--format', 'json'] : [MEMDIR, '--format', 'json'], { env: { MEMLINT_TODAY: '2026-04-27' } });
  if (r.stderr !== '') throw new Error(r.stderr);
  const prefix = (f: JsonResult) => (typeof example === 'string' ? '' : `${f.filePath.slice(dir.length + 1).split('\\').join('/')}:`);
  const output = (JSON.parse(r.stdout) as JsonResult[])
    .flatMap((f) => f.messages.map((m) => `${prefix(f)}${m.line}:${m.column}${m.endLine !== undefined && m.endColumn !== undefined ? `-${m.endLine}:${m.endColumn}` : ''}: ${m.message}`))
    .join('\n');
  return moved ? output.split(moved.commit).join('{commit}').split(`(${moved.date})`).join('({date})') : output;
}

const fence = (lang: string, text: string) => {
  const ticks = /^```/m.test(text) ? '~~~~' : '```';
  return `${ticks}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${ticks}`;
};

/** A memdir's files as the README shows them: each file's name, then its text (recipes as recipes). */
function showFiles(files: Record<string, string>, example: Pick<MemdirExample, 'lines' | 'each'>): string[] {
  const out: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const lines = example.lines?.in === path ? example.lines : undefined;
    if (!lines) {
      out.push(`\`${path}\`:`, '', fence('md', text), '');
      continue;
    }
    const { line, count } = lines;
    const first = splitLines(text).length + 1;
    const shown = `${text}${fill(line, 1)}\n${fill(line, 2)}\n⋮\n${fill(line, count)}\n`;
    out.push(`\`${path}\`, lines ${first} to ${first + count - 1} made by the example run (n = 1 to ${count}):`, '', fence('md', shown), '');
  }
  if (example.each) {
    const { path, text, count } = example.each;
    out.push(`${count} files \`${path}\`, n = 1 to ${count}, made by the example run, each:`, '', fence('md', text), '');
  }
  return out;
}

/** How the README shows one example, before its output. */
function showExample(rule: Rule, example: string | MemdirExample, verdict: 'Not ok' | 'Ok'): string[] {
  const quiet = verdict === 'Ok' ? ', no message' : '';
  if (typeof example === 'string') {
    const where = exampleFile(rule) === 'MEMORY.md' ? 'MEMORY.md' : 'a topic file';
    return [`${verdict} (${where})${quiet}:`, '', fence('md', exampleText(rule, example)), ''];
  }
  const moves = Object.entries(example.moves ?? {}).map(([from, to]) => (to === null ? `deleted \`${from}\`` : `renamed \`${from}\` to \`${to}\``));
  const history = moves.length ? [`The repository's last commit ${moves.join(', and ')} (a message names that commit \`{commit}\` and its date \`{date}\`).`, ''] : [];
  if (!example.head) return [`${verdict} (a memory folder, \`${MEMDIR}\`)${quiet}:`, '', ...history, ...showFiles(example.files, example)];
  const head = example.head;
  const changed = Object.fromEntries(Object.entries(example.files).filter(([p, t]) => head[p] !== t));
  const names = (list: string[]) => list.map((p) => `\`${p}\``).join(', ').replace(/, ([^,]*)$/, ' and $1');
  const deleted = Object.keys(head).filter((p) => !(p in example.files));
  const rewritten = Object.keys(changed).filter((p) => p in head);
  const added = Object.keys(changed).filter((p) => !(p in head));
  const does = [deleted.length ? `deletes ${names(deleted)}` : '', rewritten.length ? `rewrites ${names(rewritten)}` : '', added.length ? `adds ${names(added)}` : ''].filter(Boolean);
  return [
    `${verdict} (a staged change to \`${MEMDIR}\`, \`memlint --staged\`)${quiet}. At HEAD:`, '', ...showFiles(head, {}),
    `The staged change ${does.join(', and ')}${rewritten.length + added.length ? ':' : '.'}`, '', ...showFiles(changed, {}),
  ];
}

/** The README block of a rule's examples. */
export function readmeBlock(rule: Rule): string {
  const { ok, notOk, notOkOutput } = rule.docs;
  const standIns = [...new Set([ok, notOk].flatMap((e) => Object.values(typeof e === 'string' ? { e } : { ...e.files, ...e.head })).flatMap((t) => [...t.matchAll(STAND_IN_RE)].map((m) => m[0])))];
  const note = standIns.map((s) => `\`${s}\`: the example run writes that many random-looking letters and digits there (written out here, they would make a live-looking token).`);
  return [
    `<!-- example: ${rule.id} (generated from the rule's docs by test/lint/rule-examples.test.ts: do not edit) -->`,
    ...showExample(rule, notOk, 'Not ok'),
    fence('text', notOkOutput),
    ...(note.length ? ['', ...note] : []),
    '',
    ...showExample(rule, ok, 'Ok').slice(0, -1),
    '<!-- /example -->',
  ].join('\n');
}

/** The line under a rule page's title: its default severity, whether --fix fixes it, what it checks. */
export function summaryBlock(rule: Rule): string {
  return [
    `<!-- summary: ${rule.id} (generated from the rule module by test/lint/rule-examples.test.ts: do not edit) -->`,
    `**${rule.defaultSeverity}** by default${rule.fixable ? ', fixable with `--fix`' : ''}: ${rule.description}`,
    '<!-- /summary -->',
  ].join('\n');
}

/** The README's table of rules, one line each, linking each rule's page. */
export function rulesTable(rules: Rule[]): string {
  return [
    '<!-- rules (generated from the rule modules by test/lint/rule-examples.test.ts: do not edit) -->',
    '| rule | default | fixable | what it checks |',
    '|---|---|---|---|',
    ...rules.map((r) => `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.defaultSeverity} | ${r.fixable ? 'yes' : ''} | ${r.description.replace(/\|/g, '\\|')} |`),
    '<!-- /rules -->',
  ].join('\n');
}

export const SUMMARY_RE = /<!-- summary: ([\w-]+) [^\n]*-->\n[\s\S]*?<!-- \/summary -->/g;
export const RULES_TABLE_RE = /<!-- rules [^\n]*-->\n[\s\S]*?<!-- \/rules -->/g;

/** A generated example block in a page, its rule id captured. */
export const BLOCK_RE = /<!-- example: ([\w-]+) [^\n]*-->\n[\s\S]*?<!-- \/example -->/g;

/**
 * Code blocks in a rule's section (from a heading that names a rule id to the next heading)
 * outside its generated example blocks: the line each starts on.
 */
export function handWrittenExamples(page: string, ids: string[]): Array<{ section: string; line: number }> {
  const out: Array<{ section: string; line: number }> = [];
  const lines = page.replace(BLOCK_RE, (b) => b.replace(/[^\n]/g, '')).split('\n');
  let section: string | null = null;
  let fenced: string | null = null;
  lines.forEach((l, i) => {
    if (fenced) {
      if (l.trimStart().startsWith(fenced)) fenced = null;
      return;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(l);
    if (heading) section = ids.some((id) => new RegExp(`(^|[\\s\`])${id}([\\s\`]|$)`).test(heading[1]!)) ? heading[1]! : null;
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(l);
    if (open) {
      fenced = open[1]!;
      if (section) out.push({ section, line: i + 1 });
    }
  });
  return out;
}
