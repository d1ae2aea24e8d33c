// Claude Code's memory format by version (src/memdir/format.ts) and the readers that follow it:
// file kinds (session logs), the merge of a session log, consolidation reading one, [[name]] links.
import { describe, expect, it } from 'vitest';
import { agentMemoryScope, claudeFormat, compareVersions, describeFormats, FORMAT_FACTS, NEWEST_KNOWN, parseVersion } from '../../src/memdir/format.js';
import { fileKind, isSessionLogPath, pathKind } from '../../src/memdir/kinds.js';
import { mergeMemoryFile } from '../../src/merge/driver.js';
import { logsToTopics } from '../../src/consolidate/logs.js';
import { danglingLinks, wikiLinks } from '../../src/memdir/links.js';
import { compactTargetText } from '../../src/memdir/limits.js';
import { validateConfig } from '../../src/config.js';
import { state } from '../consolidate/helpers.js';

describe('the format registry', () => {
  it('every fact has an id once, a valid since/until, a source', () => {
    const ids = FORMAT_FACTS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of FORMAT_FACTS) {
      expect(f.source.length).toBeGreaterThanOrEqual(2);
      if (f.since) expect(parseVersion(f.since)).not.toBeNull();
      if (f.until) expect(compareVersions(parseVersion(f.until)!, parseVersion(f.since ?? '0.0.0')!)).toBeGreaterThan(0);
    }
  });

  it('selects facts by version: default the newest known', () => {
    const newest = claudeFormat();
    expect(newest.version).toBe(NEWEST_KNOWN);
    expect(newest.reads('session-logs')).toBe(true);
    expect(newest.reads('pinned-lessons')).toBe(true);
    // Claude Code stopped writing pinned lessons; memory it wrote is still read.
    expect(newest.writes('pinned-lessons')).toBe(false);
    expect(claudeFormat('2.1.235').writes('pinned-lessons')).toBe(true);
    expect(claudeFormat('2.1.200').reads('pinned-lessons')).toBe(false);
    expect(claudeFormat('2.1.100').reads('session-logs')).toBe(false);
    expect(claudeFormat('2.1.210').stripIndex).toBe(false);
    expect(claudeFormat('2.1.211').stripIndex).toBe(true);
    expect(claudeFormat('2.1.209').compactTarget).toBeNull();
    expect(newest.compactTarget).toEqual({ lines: 140, units: 17_500 });
    // Gated: only by config.
    expect(newest.reads('generated-index')).toBe(false);
    expect(claudeFormat(NEWEST_KNOWN, { generatedIndex: true }).reads('generated-index')).toBe(true);
    expect(() => claudeFormat('latest')).toThrow(/not a Claude Code version/);
  });

  it('names the compaction target as Claude Code does: the dimension nearer its limit', () => {
    const f = claudeFormat();
    expect(compactTargetText(f, 170, 1000)).toBe('140 lines');
    expect(compactTargetText(f, 20, 24_000)).toBe('17.1KB');
    expect(compactTargetText(claudeFormat('2.1.100'), 170, 1000)).toBe('200 lines and 24.4KB');
  });

  it('config claudeCode must be a version', () => {
    expect(validateConfig({ claudeCode: '2.1.235' }, 'x').claudeCode).toBe('2.1.235');
    expect(() => validateConfig({ claudeCode: 'newest' }, '.memlintrc.json')).toThrow('config .memlintrc.json: "claudeCode" must be a Claude Code version such as "2.1.332"');
    expect(() => validateConfig({ generatedIndex: 'yes' }, 'x')).toThrow(/"generatedIndex" must be true or false/);
  });

  it('lists the facts for a version, marking the ones that apply', () => {
    const text = describeFormats('2.1.200');
    expect(text).toContain('claudeCode: 2.1.200');
    expect(text).toMatch(/^\* session-logs/m);
    expect(text).toMatch(/^ {2}pinned-lessons/m);
  });
});

describe('session logs', () => {
  it('are logs with their date; a daily log too; an impossible date is a topic', () => {
    expect(fileKind('logs/2026/10/05/a1b2c3-fix-login.md')).toEqual({ kind: 'log', logDate: '2026-10-05' });
    expect(fileKind('logs/2026/10/2026-10-05.md')).toEqual({ kind: 'log', logDate: '2026-10-05' });
    expect(fileKind('logs/2026/02/30/x.md').kind).toBe('topic');
    expect(fileKind('logs/2026/10/05/deeper/x.md').kind).toBe('topic');
    expect(pathKind('.claude/memory/logs/2026/10/05/a1b2c3-fix-login.md')).toBe('log');
    expect(isSessionLogPath('.claude/memory/logs/2026/10/05/a1b2c3-fix-login.md')).toBe(true);
    expect(isSessionLogPath('.claude/memory/logs/2026/10/2026-10-05.md')).toBe(false);
  });

  it('merge as append-only unions: lines both sides appended are all kept, none twice', () => {
    const path = '.claude/memory/logs/2026/10/05/a1b2c3-fix-login.md';
    const base = '> the login loops\n< Looking.\n';
    const ours = base + '. Read src/auth.ts\n< The cookie is dropped.\n';
    const theirs = base + '> also check logout\n';
    const r = mergeMemoryFile({ base: Buffer.from(base), ours: Buffer.from(ours), theirs: Buffer.from(theirs), path, markerSize: 7 });
    expect('output' in r && r.conflicts).toEqual([]);
    expect('output' in r && r.output!.toString()).toBe(ours + '> also check logout\n');
    // Whichever side is ours, the same lines.
    const s = mergeMemoryFile({ base: Buffer.from(base), ours: Buffer.from(theirs), theirs: Buffer.from(ours), path, markerSize: 7 });
    expect('output' in s && s.output!.toString().split('\n').sort()).toEqual(ours.concat('> also check logout\n').split('\n').sort());
  });

  it('are read by consolidation: a line linking a memory by its name slug joins that memory, dated by the log', () => {
    const login = '---\nname: login-flow\ndescription: The login redirect\nmetadata:\n  type: project\n---\nThe redirect goes through the proxy.\n';
    const log = '> the login loops again\n< Found it: [[login-flow]] drops the cookie on redirect\n. Read src/auth.ts\n';
    const s = state({ 'MEMORY.md': '- [Login](login_flow.md) — login\n', 'login_flow.md': login, 'logs/2026/10/05/a1b2c3-fix-login.md': log });
    const r = logsToTopics(s);
    // The link is the sentence's subject, so it stays (only a label before or after the words goes).
    expect(r.state.files.get('login_flow.md')).toBe(login + '\n- Found it: [[login-flow]] drops the cookie on redirect (2026-10-05)\n');
    expect(r.state.files.get('logs/2026/10/05/a1b2c3-fix-login.md')).toBe(log);
    expect(logsToTopics(r.state).state.files).toEqual(r.state.files);
  });
});

describe('[[name]] links', () => {
  it('are read outside code; a dangling one is listed, never an error', () => {
    const text = '---\nname: a\n---\nSee [[b]] and [[c|the c]].\n\n```\n[[code]]\n```\n`[[inline]]` too\n';
    expect(wikiLinks(text)).toEqual([{ name: 'b', line: 4, column: 7, written: 'b' }, { name: 'c', line: 4, column: 17, written: 'c' }]);
    expect(danglingLinks([{ rel: 'a.md', text }], new Set(['a', 'b']))).toEqual([{ name: 'c', line: 4, column: 17, written: 'c', rel: 'a.md' }]);
  });
});

describe('agent memory scopes', () => {
  it('project and local folders by their paths; user scope is outside the repository', () => {
    expect(agentMemoryScope('.claude/agent-memory/reviewer')).toBe('project');
    expect(agentMemoryScope('/r/.claude/agent-memory-local/reviewer/')).toBe('local');
    expect(agentMemoryScope('.claude/agent-memory-snapshots/reviewer')).toBeNull();
    expect(agentMemoryScope('.claude/memory')).toBeNull();
  });
});

describe('team memory with a store of its own', () => {
  it('a team store with its own MEMORY.md is linted once, against its own index', async () => {
    const { initRepo, writeFiles } = await import('../helpers/repo.js');
    const { lintMemdirs, resolveRules } = await import('../../src/lint/engine.js');
    const repo = initRepo();
    const topic = (name: string) => `---\nname: ${name}\ndescription: About ${name}\nmetadata:\n  type: reference\n---\n${name}.\n`;
    writeFiles(repo, {
      '.claude/memory/MEMORY.md': '- [Login](login.md) — login\n',
      '.claude/memory/login.md': topic('login'),
      '.claude/memory/team/infra/MEMORY.md': '- [Oncall](oncall.md) — rota\n',
      '.claude/memory/team/infra/oncall.md': topic('oncall'),
      '.claude/memory/team/infra/runbooks.md': topic('runbooks'),
    });
    const rules = resolveRules({}).filter((r) => r.rule.id === 'index-orphan');
    const dir = `${repo}/.claude/memory`;
    const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: repo, reason: 'path' }, { dir: `${dir}/team/infra`, repoRoot: repo, reason: 'path' }], env: process.env, rules });
    const found = run.results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(dir.length + 1)} ${m.message}`));
    expect(found).toEqual(['team/infra/runbooks.md runbooks.md has no entry in MEMORY.md: the agent does not know this memory exists']);
  });
});

describe('a generated index (config generatedIndex)', () => {
  it('no orphans; a description too long for the index line is reported', async () => {
    const { initRepo, writeFiles } = await import('../helpers/repo.js');
    const { lintMemdirs, resolveRules } = await import('../../src/lint/engine.js');
    const repo = initRepo();
    writeFiles(repo, {
      '.claude/memory/MEMORY.md': '# Memory\n',
      '.claude/memory/short.md': '---\nname: short\ndescription: Deploy on Tuesdays\nmetadata:\n  type: project\n---\nx\n',
      '.claude/memory/long.md': `---\nname: long\ndescription: ${'word '.repeat(70).trim()}\nmetadata:\n  type: project\n---\nx\n`,
    });
    const rules = resolveRules({}).filter((r) => ['index-orphan', 'frontmatter-required'].includes(r.rule.id));
    const memdirs = [{ dir: `${repo}/.claude/memory`, repoRoot: repo, reason: 'path' as const }];
    const lint = async (generatedIndex: boolean) =>
      (await lintMemdirs({ memdirs, env: process.env, rules, format: claudeFormat(NEWEST_KNOWN, { generatedIndex }) })).results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${r.filePath.split('/').pop()}:${m.line}`)).sort();
    expect(await lint(true)).toEqual(['frontmatter-required long.md:3']);
    expect(await lint(false)).toEqual(['index-orphan long.md:1', 'index-orphan short.md:1']);
  });
});

describe('links follow a merge consolidation makes', () => {
  it('[[name]] links to a merged-away memory point at the one that holds its text; logs stay as written', async () => {
    const { dedupeTopics } = await import('../../src/consolidate/dedupe.js');
    const { ctx } = await import('../consolidate/helpers.js');
    const body = '- Never mock the database.\n- Use the shared fixture.\n- Fresh schema per test.\n';
    const a = `---\nname: db-tests\ndescription: Tests hit a real database\nmetadata:\n  type: feedback\n---\n${body}`;
    const b = `---\nname: database-testing\ndescription: Tests use Postgres\nmetadata:\n  type: feedback\n---\n${body}`;
    const other = '---\nname: ci\ndescription: CI\nmetadata:\n  type: project\n---\nSee [[database-testing]] and [[database-testing|the tests]].\n\n```\n[[database-testing]]\n```\n';
    const log = '< read [[database-testing]]\n';
    const s = state({ 'MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n- [CI](ci.md) — ci\n', 'a.md': a, 'b.md': b, 'ci.md': other, 'logs/2026/10/05/x-y.md': log });
    const r = dedupeTopics(s, ctx());
    expect(r.report.merged.map((m) => [m.into, m.from])).toEqual([['a.md', 'b.md']]);
    expect(r.state.files.get('ci.md')).toBe(other.replace('See [[database-testing]] and [[database-testing|', 'See [[db-tests]] and [[db-tests|'));
    expect(r.state.files.get('logs/2026/10/05/x-y.md')).toBe(log);
  });
});

describe('memlint lint --help --formats', () => {
  it('lists the facts for the configured version', async () => {
    const { initRepo, writeFiles } = await import('../helpers/repo.js');
    const { cliInProcess, hermetic } = await import('../interop/helpers.js');
    const repo = initRepo();
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ claudeCode: '2.1.120' }) });
    const r = await cliInProcess(repo, ['lint', '--help', '--formats'], hermetic());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('claudeCode: 2.1.120; newest known 2.1.332');
    expect(r.stdout).toMatch(/^\* session-logs +2\.1\.116\+/m);
    expect(r.stdout).toMatch(/^ {2}metadata-frontmatter +2\.1\.139\+/m);
  });
});
