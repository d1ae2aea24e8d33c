// Config discovery (.memlintrc.json, .memlintrc.yaml, package.json "memlint"; JavaScript config is
// never run), `ignore` globs, --config, and inline directives. A broken config and a missing
// --config file through the built CLI (exit 2, one line); the rest in this process
// (test/helpers/in-process.ts: the same main(), the same output).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { memlint, writeFiles } from '../helpers/repo.js';
import { cleanRepo, expectNoStack } from './setup.js';

/** A memdir with one dangling entry (error) and one content line in the index (warning). */
function repoWithProblems() {
  const r = cleanRepo();
  writeFiles(r.memdir, { 'MEMORY.md': '- [Deploys](project_deploys.md) — Tuesdays\n- always on Tuesdays\n- [Gone](gone.md) — deleted\n' });
  return r;
}

const ruleIds = (stdout: string) =>
  (JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string; severity: number }> }>).flatMap((r) => r.messages.map((m) => `${m.ruleId}:${m.severity}`));

describe('config discovery, upward from the working directory', () => {
  const kinds: Array<[string, string]> = [
    ['.memlintrc.json', JSON.stringify({ rules: { 'index-link-target': 'off', 'index-entry-format': 'error' } })],
    ['.memlintrc.yaml', 'rules:\n  index-link-target: off\n  index-entry-format: error\n'],
    ['package.json', JSON.stringify({ name: 'x', private: true, memlint: { rules: { 'index-link-target': 0, 'index-entry-format': 2 } } })],
  ];
  for (const [file, text] of kinds) {
    it(file, async () => {
      const { repo } = repoWithProblems();
      writeFiles(repo, { [file]: text });
      mkdirSync(join(repo, 'sub', 'deeper'), { recursive: true });
      for (const cwd of [repo, join(repo, 'sub', 'deeper')]) {
        const r = await memlintInProcess(cwd, ['--format', 'json']);
        expect(r.stderr).toBe('');
        expect(ruleIds(r.stdout)).toEqual(['index-entry-format:2']);
        expect(r.code).toBe(1);
      }
    });
  }

  it('a package.json without "memlint" is passed over for one further up', async () => {
    const { repo } = repoWithProblems();
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ rules: { 'index-link-target': 'off' } }), 'pkg/package.json': '{"name":"pkg"}' });
    expect(ruleIds((await memlintInProcess(join(repo, 'pkg'), ['--format', 'json'])).stdout)).toEqual(['index-entry-format:1']);
  });

  it('the nearest config wins', async () => {
    const { repo } = repoWithProblems();
    writeFiles(repo, {
      '.memlintrc.json': JSON.stringify({ rules: { 'index-link-target': 'off' } }),
      'pkg/.memlintrc.yaml': 'rules:\n  index-entry-format: off\n',
    });
    expect(ruleIds((await memlintInProcess(join(repo, 'pkg'), ['--format', 'json'])).stdout)).toEqual(['index-link-target:2']);
  });

  it('--config FILE is used instead of searching, and --rule overrides it', async () => {
    const { repo } = repoWithProblems();
    writeFiles(repo, { '.memlintrc.json': '{"rules": {"index-entry-format": "off"}}', 'ci/strict.json': '{"rules": {"index-entry-format": "error"}}' });
    expect(ruleIds((await memlintInProcess(repo, ['--format', 'json', '--config', 'ci/strict.json'])).stdout)).toEqual(['index-entry-format:2', 'index-link-target:2']);
    expect(ruleIds((await memlintInProcess(repo, ['--format', 'json', '--config', 'ci/strict.json', '--rule', 'index-entry-format=warn'])).stdout)).toEqual([
      'index-entry-format:1',
      'index-link-target:2',
    ]);
  });

  it('rule options: [severity, {options}]', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'MEMORY.md': '- [Deploys](project_deploys.md) — deploys go out on Tuesdays after the standup\n' });
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ rules: { 'index-line-length': ['error', { max: 40 }] } }) });
    const r = await memlintInProcess(repo, ['--format', 'json']);
    expect(ruleIds(r.stdout)).toEqual(['index-line-length:2']);
  });

  it('a broken or invalid config is one line on stderr and exit 2', () => {
    for (const [file, text] of [
      ['.memlintrc.json', '{"rules":'],
      ['.memlintrc.yaml', 'rules: [unclosed\n'],
      ['.memlintrc.json', '{"rules": {"no-such-rule": "error"}}'],
      ['.memlintrc.json', '{"rules": {"index-orphan": "loud"}}'],
      ['.memlintrc.json', '{"ignore": "*.md"}'],
    ]) {
      const { repo } = repoWithProblems();
      writeFiles(repo, { [file!]: text! });
      const r = memlint(repo, []);
      expect(r.code, `${file}: ${text}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^memlint: [^\n]+\n$/);
      expectNoStack(r.stderr);
    }
  });

  it('a config that does not parse is named as file:line:col, where the parser stopped', () => {
    const cases: Array<[string, string, string]> = [
      // An unquoted key on line 3.
      ['.memlintrc.json', '{\n  "memoryDirs": [".claude/memory"],\n  rules: {}\n}\n', ':3:3: Expected double-quoted property name'],
      // The file ends inside the object: the position is its end.
      ['.memlintrc.json', '{\r\n  "memoryDirs": [".claude/memory"]\r\n', ':3:1: '],
      ['package.json', '{"name": "app",\n "memlint": {\n  "rules": {}}\n\n  x\n', ':5:3: '],
      // YAML gives its line and column too (the line was one too far).
      ['.memlintrc.yaml', 'memoryDirs:\n  - a\n bad: [\n', ':3:2: bad indentation of a mapping entry'],
    ];
    for (const [file, text, where] of cases) {
      const { repo } = repoWithProblems();
      writeFiles(repo, { [file]: text });
      const r = memlint(repo, []);
      expect(r.code, `${file}: ${text}`).toBe(2);
      expect(r.stderr.startsWith(`memlint: cannot read config ${join(repo, file)}${where}`), r.stderr).toBe(true);
      expect(r.stderr).not.toMatch(/position \d/);
    }
  });

  it('--config naming a missing file is exit 2', () => {
    const { repo } = cleanRepo();
    expect(memlint(repo, ['--config', 'nope.json'])).toEqual({ code: 2, stdout: '', stderr: 'memlint: config file not found: nope.json\n' });
  });
});

describe('config memoryDirs and ignore', () => {
  it('memoryDirs adds a folder that discovery alone would skip', async () => {
    const { repo } = cleanRepo();
    writeFiles(repo, { 'team-notes/MEMORY.md': '# Team\n- a content line\n' });
    expect((await memlintInProcess(repo, ['--list-memdirs'])).stdout).toBe('.claude/memory\tclaude-location\n');
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ memoryDirs: ['team-notes'] }) });
    expect((await memlintInProcess(repo, ['--list-memdirs'])).stdout).toBe('.claude/memory\tclaude-location\nteam-notes\tconfig\n');
    expect((await memlintInProcess(repo, [])).stdout).toContain('team-notes/MEMORY.md:2:1');
  });

  it('ignore globs leave README-like files and whole folders alone; entries naming them still resolve', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'README.md': '# What this folder is\n',
      'handoff/session-handoff.md': 'Where I stopped.\n',
      'handoff/2026-11-02.md': 'Also not a memory.\n',
      'MEMORY.md': '- [Deploys](project_deploys.md) — Tuesdays\n- [Readme](README.md) — what this folder is\n',
    });
    const before = await memlintInProcess(repo, ['--format', 'json']);
    expect(ruleIds(before.stdout).filter((x) => x.startsWith('frontmatter-yaml'))).toHaveLength(3);
    writeFiles(repo, { '.memlintrc.yaml': 'ignore:\n  - "**/README.md"\n  - .claude/memory/handoff/**\n' });
    const after = await memlintInProcess(repo, ['--format', 'json']);
    expect(after.stderr).toBe('');
    const files = (JSON.parse(after.stdout) as Array<{ filePath: string }>).map((r) => r.filePath);
    expect(files).toEqual([join(memdir, 'MEMORY.md'), join(memdir, 'project_deploys.md')]);
    expect(after.code).toBe(0);
  });

  it('a README-like file is told plainly that Claude Code loads it as a nameless memory', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'RUNBOOK.md': '# Runbook\n' });
    const r = await memlintInProcess(repo, []);
    expect(r.stdout).toContain(
      'RUNBOOK.md is not a memory: Claude Code loads every .md in the memory folder, so it sees this as a nameless memory; move it out of the folder or list it in "ignore"',
    );
    expect(r.stdout).not.toContain('index-orphan');
  });
});

describe('inline directives', () => {
  it('memlint-disable-next-line, memlint-disable and memlint-enable, by rule and for every rule', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'MEMORY.md': [
        '- [Deploys](project_deploys.md) — Tuesdays',
        '<!-- memlint-disable-next-line index-entry-format -->',
        '- silenced content line',
        '- reported content line',
        '<!-- memlint-disable index-link-target -->',
        '- [Gone](gone.md) — silenced',
        '- [Gone too](gone2.md) — silenced',
        '<!-- memlint-enable index-link-target -->',
        '- [Gone three](gone3.md) — reported',
        '<!-- memlint-disable -->',
        '- [Gone four](gone4.md) — silenced by a bare disable',
        '- silenced content line',
        '<!-- memlint-enable -->',
        '- [Gone five](gone5.md) — reported',
        '<!-- memlint-disable-next-line index-orphan -->',
        '- [Gone six](gone6.md) — another rule is named: reported',
        '',
      ].join('\n'),
    });
    const r = await memlintInProcess(repo, ['--format', 'json']);
    const msgs = (JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string; line: number }> }>)[0]!.messages.map((m) => `${m.line} ${m.ruleId}`);
    expect(msgs).toEqual(['4 index-entry-format', '9 index-link-target', '14 index-link-target', '16 index-link-target']);
  });

  it('directives in a topic file, several rules in one directive', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'odd.md': '<!-- memlint-disable frontmatter-yaml, index-orphan -->\nNo frontmatter here, on purpose.\n',
    });
    expect(await memlintInProcess(repo, [])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
