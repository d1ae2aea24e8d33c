// Trial finding 17: after a `--no-verify` commit of a daily log holding a token, the post-commit
// consolidation copied the entry, token and all, into its topic file and committed it. Contract
// §9: consolidation moves and copies no text holding a secret no-secrets reports; the entry stays
// in its log (lint and pre-push report it there), and the run says so without printing it.
//
// Tokens are spelt in pieces (`${'ghp'}_…`): the repository holds nothing that reads as a live one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, importCommits, initRepo, writeFiles } from '../helpers/repo.js';
import { allowKey } from '../../src/content/secrets.js';

const MEM = '.claude/memory';
const TOKEN = `${'ghp'}_${'a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz9'.slice(0, 36)}`;
const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: reference\n---\n\n${body}`;
const env = { MEMLINT_TODAY: '2026-11-29', HUSKY: '' };
const LOG = `${MEM}/logs/2026/11/2026-11-28.md`;

/** A memdir with one topic and a daily log: a plain entry and one holding a token, both tagged. */
function repoWithLog(config?: object): string {
  const dir = initRepo();
  writeFiles(dir, {
    [`${MEM}/MEMORY.md`]: '- [Dashboards](reference_dashboards.md) — where the dashboards are\n',
    [`${MEM}/reference_dashboards.md`]: topic('Dashboards', 'Grafana.\n'),
    [LOG]: `- 09:00 — the latency board moved to /d/lat [reference_dashboards]\n- 10:00 — the CI token is ${TOKEN} [reference_dashboards]\n`,
    ...(config ? { '.memlintrc.json': JSON.stringify(config) } : {}),
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'memory', '--no-verify');
  return dir;
}

describe('consolidation leaves a log entry holding a secret where it is', () => {
  it('consolidate --force: the plain entry goes into the topic, the secret one stays in the log, said and masked', async () => {
    const dir = repoWithLog();
    const log = readFileSync(join(dir, LOG), 'utf8');
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.code).toBe(0);
    const topicText = readFileSync(join(dir, MEM, 'reference_dashboards.md'), 'utf8');
    expect(topicText).toContain('- the latency board moved to /d/lat (2026-11-28)');
    expect(topicText).not.toContain(TOKEN);
    expect(readFileSync(join(dir, LOG), 'utf8')).toBe(log);
    expect(r.stdout).toContain('1 log entry holding a secret left in its log, not copied');
    expect(r.stdout).toContain('.claude/memory/logs/2026/11/2026-11-28.md:2: holds a secret (github-pat): left in the log, not copied into reference_dashboards.md nor given to the agent step; remove it from memory and rotate it');
    expect(r.stdout + r.stderr).not.toContain(TOKEN.slice(4, 16));
  });

  it('--dry-run and --json report it (report.logs.withheld), with no value in them', async () => {
    const dir = repoWithLog();
    const dry = await memlintInProcess(dir, ['consolidate', '--dry-run'], { env });
    expect(dry.stdout).toMatch(/^\+- the latency board moved/m);
    expect(dry.stdout).not.toMatch(/^\+.*CI token/m);
    const json = await memlintInProcess(dir, ['consolidate', '--dry-run', '--json'], { env });
    const report = JSON.parse(json.stdout).memdirs[0].report;
    expect(report.logs.withheld).toEqual([{ log: 'logs/2026/11/2026-11-28.md', line: 2, topics: ['reference_dashboards.md'], kind: 'github-pat' }]);
    expect(report.logs.untagged).toEqual([]);
    expect(json.stdout).not.toContain(TOKEN.slice(4, 16));
  });

  it('a value no-secrets allows by its key is copied as any entry is', async () => {
    const dir = repoWithLog({ rules: { 'no-secrets': ['error', { allow: [await allowKey('github-pat', TOKEN)] }] } });
    const r = await memlintInProcess(dir, ['consolidate', '--force', '--json'], { env });
    expect(JSON.parse(r.stdout).memdirs[0].report.logs.withheld).toEqual([]);
    expect(readFileSync(join(dir, MEM, 'reference_dashboards.md'), 'utf8')).toContain(`- the CI token is ${TOKEN} (2026-11-28)`);
  });

  it('the index step copies no secret: an orphan described with one gets no entry, a long hook holding one is not cut into its topic', async () => {
    const dir = initRepo();
    const longHook = `${'the dashboards for every service, with the latency and error boards, '.repeat(2)}read with ${TOKEN}`;
    writeFiles(dir, {
      [`${MEM}/MEMORY.md`]: `- [Dashboards](reference_dashboards.md) — ${longHook}\n`,
      [`${MEM}/reference_dashboards.md`]: topic('Dashboards', 'Grafana.\n'),
      [`${MEM}/reference_ci.md`]: `---\nname: CI\ndescription: CI reads with ${TOKEN}\ntype: reference\n---\n\nThe CI.\n`,
    });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'memory', '--no-verify');
    const index = readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8');
    const r = await memlintInProcess(dir, ['consolidate', '--force', '--json'], { env });
    expect(JSON.parse(r.stdout).memdirs[0].report.index.withheld).toEqual([
      { target: 'reference_dashboards.md', line: 1, kind: 'github-pat' },
      { target: 'reference_ci.md', line: null, kind: 'github-pat' },
    ]);
    expect(readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8')).toBe(index);
    expect(readFileSync(join(dir, MEM, 'reference_dashboards.md'), 'utf8')).toBe(topic('Dashboards', 'Grafana.\n'));
    expect(r.stdout).not.toContain(TOKEN.slice(4, 16));
  });

  it('post-commit after a --no-verify commit: the consolidation it commits copies no secret', async () => {
    // Due: never consolidated, 5 memory commits; the last one, made with --no-verify, holds the token.
    const dir = initRepo();
    importCommits(dir, [
      { branch: 'main', message: 'init', files: { 'README.md': 'app\n' } },
      { branch: 'main', message: 'memory', files: { [`${MEM}/MEMORY.md`]: '- [Dashboards](reference_dashboards.md) — where the dashboards are\n', [`${MEM}/reference_dashboards.md`]: topic('Dashboards', 'Grafana.\n') } },
      ...[0, 1, 2].map((i) => ({ branch: 'main', message: `log ${i}`, files: { [`${MEM}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — board ${i} moved [reference_dashboards]\n` } })),
      { branch: 'main', message: 'token', files: { [LOG]: `- 10:00 — the CI token is ${TOKEN} [reference_dashboards]\n` } },
    ]);
    const r = await memlintInProcess(dir, ['consolidate', '--post-commit'], { env });
    expect(r.code).toBe(0);
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
    expect(r.stderr).toContain(`memlint: .claude/memory/logs/2026/11/2026-11-28.md:1 holds a secret (github-pat); consolidation left it in the log: remove it from memory and rotate it\n`);
    expect(r.stderr).not.toContain(TOKEN.slice(4, 16));
    // The token is in the one file the person committed it to, and in no file of memlint's commit.
    expect(git(dir, 'grep', '-l', TOKEN, 'HEAD').trim().split('\n')).toEqual([`HEAD:${LOG}`]);
    expect(git(dir, 'show', 'HEAD', '--format=')).not.toContain(TOKEN);
    expect(readFileSync(join(dir, MEM, 'reference_dashboards.md'), 'utf8')).toContain('- board 2 moved (2026-11-22)');
  });
});
