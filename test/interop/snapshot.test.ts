import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentDirName, snapshotJson } from '../../src/claude/snapshot.js';
import { discoverMemdirs } from '../../src/memdir/discover.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cliInProcess, hermetic } from './helpers.js';

const AGENT = '.claude/agent-memory/reviewer';
const SNAP = '.claude/agent-memory-snapshots/reviewer';

function agentRepo(): string {
  const repo = initRepo();
  writeFiles(repo, {
    [`${AGENT}/MEMORY.md`]: '- [Style](style.md) — review style\n',
    [`${AGENT}/style.md`]: '---\nname: style\ndescription: how reviews are written\ntype: feedback\n---\nShort.\n',
    [`${AGENT}/.snapshot-synced.json`]: '{"syncedFrom":"2026-01-01T00:00:00.000Z"}',
    [`${AGENT}/.consolidate-lock`]: '123',
  });
  return repo;
}

const read = (repo: string, rel: string) => readFileSync(path.join(repo, rel), 'utf8');

describe('memlint snapshot', () => {
  it("copies the agent's top-level files and stamps snapshot.json {updatedAt}", async () => {
    const h = hermetic();
    const repo = agentRepo();
    const r = await cliInProcess(repo, ['snapshot', 'reviewer'], h);
    expect(r.code).toBe(0);
    expect(read(repo, `${SNAP}/MEMORY.md`)).toBe(read(repo, `${AGENT}/MEMORY.md`));
    expect(read(repo, `${SNAP}/style.md`)).toBe(read(repo, `${AGENT}/style.md`));
    expect(readdirSync(path.join(repo, SNAP)).sort()).toEqual(['MEMORY.md', 'snapshot.json', 'style.md']);
    const stamp = JSON.parse(read(repo, `${SNAP}/snapshot.json`));
    expect(Object.keys(stamp)).toEqual(['updatedAt']);
    expect(new Date(stamp.updatedAt).toISOString()).toBe(stamp.updatedAt);
    expect(r.stdout).toMatch(/added +\.claude\/agent-memory-snapshots\/reviewer\/MEMORY\.md/);
    expect(r.stdout).toMatch(/commit \.claude\/agent-memory-snapshots\/reviewer to offer it to teammates/);
  });

  it('a second run with nothing changed writes nothing and keeps updatedAt', async () => {
    const h = hermetic();
    const repo = agentRepo();
    expect((await cliInProcess(repo, ['snapshot', 'reviewer'], h)).code).toBe(0);
    const stamp = read(repo, `${SNAP}/snapshot.json`);
    const r = await cliInProcess(repo, ['snapshot', 'reviewer'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is up to date \(updatedAt kept\)/);
    expect(read(repo, `${SNAP}/snapshot.json`)).toBe(stamp);
  });

  it('updates changed files, drops files that left the agent memory, and bumps updatedAt', async () => {
    const h = hermetic();
    const repo = agentRepo();
    writeFiles(repo, { [`${AGENT}/old.md`]: '---\nname: old\ndescription: old\ntype: user\n---\n' });
    expect((await cliInProcess(repo, ['snapshot', 'reviewer'], h)).code).toBe(0);
    const before = '2020-01-01T00:00:00.000Z';
    writeFileSync(path.join(repo, SNAP, 'snapshot.json'), JSON.stringify({ updatedAt: before }));
    writeFiles(repo, { [`${AGENT}/style.md`]: '---\nname: style\ndescription: how reviews are written\ntype: feedback\n---\nShorter.\n' });
    rmSync(path.join(repo, AGENT, 'old.md'));
    const r = await cliInProcess(repo, ['snapshot', 'reviewer'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/updated .*style\.md/);
    expect(r.stdout).toMatch(/removed .*old\.md/);
    expect(existsSync(path.join(repo, SNAP, 'old.md'))).toBe(false);
    expect(read(repo, `${SNAP}/style.md`)).toMatch(/Shorter/);
    expect(Date.parse(JSON.parse(read(repo, `${SNAP}/snapshot.json`)).updatedAt)).toBeGreaterThan(Date.parse(before));
  });

  it('never follows a symlink out of the repository and reports it; folders are skipped', async () => {
    const h = hermetic();
    const repo = agentRepo();
    const secret = path.join(tempDir(), 'secret.md');
    writeFileSync(secret, 'do not copy\n');
    symlinkSync(secret, path.join(repo, AGENT, 'leak.md'));
    mkdirSync(path.join(repo, AGENT, 'nested'));
    writeFileSync(path.join(repo, AGENT, 'nested', 'deep.md'), 'deep\n');
    const r = await cliInProcess(repo, ['snapshot', 'reviewer'], h);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(repo, SNAP, 'leak.md'))).toBe(false);
    expect(existsSync(path.join(repo, SNAP, 'nested'))).toBe(false);
    expect(r.stdout).toMatch(/skipped .*leak\.md: a symlink out of the repository: not followed/);
    expect(r.stdout).toMatch(/skipped .*nested\/: a folder/);
  });

  it("maps ':' to '-' as Claude Code does, and refuses names that are not agent names", async () => {
    const h = hermetic();
    const repo = initRepo();
    writeFiles(repo, { '.claude/agent-memory/my-plugin-helper/MEMORY.md': '- [A](a.md) — a\n' });
    expect((await cliInProcess(repo, ['snapshot', 'my-plugin:helper'], h)).code).toBe(0);
    expect(existsSync(path.join(repo, '.claude/agent-memory-snapshots/my-plugin-helper/snapshot.json'))).toBe(true);
    expect(agentDirName('a:b:c')).toBe('a-b-c');
    for (const bad of ['../x', 'a/b', '.hidden', '..', '']) expect(() => agentDirName(bad)).toThrow(/not an agent name/);
    expect(await cliInProcess(repo, ['snapshot', '../etc'], h)).toMatchObject({ code: 2, stderr: 'memlint: not an agent name: "../etc"\n' });
    expect(await cliInProcess(repo, ['snapshot', 'ghost'], h)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^memlint: no agent memory at /) });
    expect((await cliInProcess(repo, ['snapshot'], h)).code).toBe(2);
  });

  it('--dry-run writes nothing', async () => {
    const h = hermetic();
    const repo = agentRepo();
    const r = await cliInProcess(repo, ['snapshot', 'reviewer', '--dry-run'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would add/);
    expect(existsSync(path.join(repo, SNAP))).toBe(false);
  });

  it('works from a linked worktree, inside that worktree', async () => {
    const h = hermetic();
    const repo = agentRepo();
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'agent');
    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    expect((await cliInProcess(path.join(wt, '.claude'), ['snapshot', 'reviewer'], h)).code).toBe(0);
    expect(existsSync(path.join(wt, SNAP, 'snapshot.json'))).toBe(true);
    expect(existsSync(path.join(repo, SNAP))).toBe(false);
  });

  it('discovery (and so lint) covers both the agent memory and its snapshot', async () => {
    const h = hermetic();
    const repo = agentRepo();
    expect((await cliInProcess(repo, ['snapshot', 'reviewer'], h)).code).toBe(0);
    const dirs = discoverMemdirs({ cwd: repo, env: process.env }).map((d) => path.relative(repo, d.dir));
    expect(dirs).toEqual(expect.arrayContaining([AGENT, SNAP]));
  });

  it('snapshot.json format', () => {
    expect(snapshotJson('2026-11-29T20:00:00.000Z')).toBe('{\n  "updatedAt": "2026-11-29T20:00:00.000Z"\n}\n');
  });
});
