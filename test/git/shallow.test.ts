// A shallow clone (`git clone --depth N`, what actions/checkout gives by default): the history
// stops at a boundary commit that stands for everything below it. Real repositories cloned with
// real git over file://; what memlint says there must not be what the boundary makes up. Lint
// and consolidate run in this process (test/helpers/in-process.ts: the same main()); update-branch,
// whose launcher path starts the driver, through the built CLI.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { committedLines, datesForText } from '../../src/git/line-dates.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, gitAt, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { Client } from '../lsp/client.js';
import { pathToFileURL } from 'node:url';

const clients: Client[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
});

function commitOn(repo: string, date: string, message: string): void {
  git(repo, 'add', '-A');
  const env = { ...process.env, GIT_COMMITTER_DATE: `${date}T10:00:00Z`, GIT_AUTHOR_DATE: `${date}T10:00:00Z` };
  expect(spawnSync('git', ['commit', '-qm', message, '--no-verify'], { cwd: repo, env }).status).toBe(0);
}

const TOPIC = (body: string) => `---\nname: Build\ndescription: How we build\ntype: project\n---\n${body}`;

/** A repository whose memory line "The release is tomorrow." was committed on 2026-01-10, then three later commits. */
function historyRepo(): string {
  const repo = initRepo(tempDir('memlint-shallow-'));
  writeFiles(repo, { '.claude/memory/MEMORY.md': '- [Build](project_build.md) — how we build\n', '.claude/memory/project_build.md': TOPIC('The release is tomorrow.\n') });
  commitOn(repo, '2026-01-10', 'build memory');
  writeFiles(repo, { 'a.txt': 'a\n' });
  commitOn(repo, '2026-02-01', 'a');
  writeFiles(repo, { '.claude/memory/project_build.md': TOPIC('The release is tomorrow.\nThe demo was yesterday.\n') });
  commitOn(repo, '2026-03-01', 'demo line');
  return repo;
}

function cloneOf(repo: string, ...args: string[]): string {
  const dir = join(tempDir('memlint-shallow-clone-'), 'ci');
  expect(spawnSync('git', ['clone', '-q', ...args, pathToFileURL(repo).href, dir]).status).toBe(0);
  return dir;
}

/** The lines `git blame --line-porcelain` marks `boundary` (1-based). */
function boundaryLines(repo: string, rel: string): number[] {
  const out = git(repo, 'blame', '--line-porcelain', '--', rel);
  const lines: number[] = [];
  let line = 0;
  for (const l of out.split('\n')) {
    const head = /^[0-9a-f]{40} \d+ (\d+)/.exec(l);
    if (head) line = Number(head[1]);
    else if (l === 'boundary') lines.push(line);
  }
  return lines;
}

describe('a shallow clone', () => {
  it('dates no line git blame marks boundary: those are committed on the boundary commit\'s date or before, the day unknown', () => {
    const full = historyRepo();
    const ci = cloneOf(full, '--depth', '1');
    const rel = '.claude/memory/project_build.md';
    expect(git(ci, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    const text = readFileSync(join(ci, rel), 'utf8');
    const dates = datesForText(committedLines(gitAt(ci), [':(literal).claude/memory']).get(rel), text);
    const boundary = boundaryLines(ci, rel);
    expect(boundary).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const n of boundary) expect(dates[n]).toEqual({ shallow: true, upTo: '2026-03-01' });
    // Two commits deep: the line written on top of the boundary has its own date; the older ones do not.
    const two = cloneOf(full, '--depth', '2');
    const deeper = datesForText(committedLines(gitAt(two), [':(literal).claude/memory']).get(rel), text);
    expect(deeper[7]).toBe('2026-03-01');
    expect(boundaryLines(two, rel)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(deeper[n]).toEqual({ shallow: true, upTo: '2026-02-01' });
    // The full history dates them all.
    const all = datesForText(committedLines(gitAt(full), [':(literal).claude/memory']).get(rel), text);
    expect(all.slice(1)).toEqual(['2026-01-10', '2026-01-10', '2026-01-10', '2026-01-10', '2026-01-10', '2026-01-10', '2026-03-01']);
  });

  it('absolute-dates states no date for a boundary line: it says the clone is shallow, in lint, GitHub annotations and the editor', async () => {
    const full = historyRepo();
    const env = { MEMLINT_TODAY: '2026-12-03' };
    expect((await memlintInProcess(full, [], { env })).stdout).toContain('relative date "tomorrow": write "tomorrow (2026-01-11)" (counted from the line\'s commit date, 2026-01-10)');
    const ci = cloneOf(full, '--depth', '1');
    const r = await memlintInProcess(ci, [], { env });
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.includes('"tomorrow"'))!;
    expect(line).toMatch(/:6:16 +warn +relative date "tomorrow": write the date it means \(no day to count from: this clone is shallow and does not hold the commit that wrote the line; "git fetch --unshallow" fetches its history\) +absolute-dates/);
    expect(r.stdout).not.toMatch(/2026-03-0[12]|2026-12-0[34]/);
    const gh = (await memlintInProcess(ci, ['--format', 'github'], { env })).stdout;
    expect(gh).toContain('title=memlint(absolute-dates)::relative date "tomorrow": write the date it means (no day to count from: this clone is shallow');
    expect(gh).not.toMatch(/2026-03-0[12]|2026-12-0[34]/);
    // The line written on top of the boundary still has its commit's date.
    const two = cloneOf(full, '--depth', '2');
    const deeper = (await memlintInProcess(two, [], { env })).stdout;
    expect(deeper).toContain('relative date "yesterday": write "yesterday (2026-02-28)" (counted from the line\'s commit date, 2026-03-01)');
    expect(deeper).toContain('relative date "tomorrow": write the date it means (no day to count from: this clone is shallow');
    // The editor offers no quick fix with a made-up date.
    const home = tempDir('memlint-shallow-home-');
    const client = new Client(ci, { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), ...env }, { inProcess: true });
    clients.push(client);
    await client.initialize(ci);
    const uri = pathToFileURL(join(ci, '.claude/memory/project_build.md')).href;
    client.open(uri, readFileSync(join(ci, '.claude/memory/project_build.md'), 'utf8'));
    const published = await client.published(uri);
    expect(published.diagnostics.map((d) => d.code)).toContain('absolute-dates');
    const actions = await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } });
    expect(actions.filter((a) => a.title.startsWith('Write the date'))).toEqual([]);
    expect(await client.stop()).toBe(0);
  });

  it('update-branch says the clone is shallow and how to fetch its history, not "nothing to merge"', () => {
    const repo = historyRepo();
    git(repo, 'checkout', '-qb', 'feature');
    writeFiles(repo, { '.claude/memory/MEMORY.md': '- [Build](project_build.md) — how we build\n- [Feat](project_feat.md) — feature notes\n', '.claude/memory/project_feat.md': TOPIC('Feature flag.\n').replace('name: Build', 'name: Feat') });
    commitOn(repo, '2026-03-02', 'feat memory');
    git(repo, 'checkout', '-q', 'main');
    writeFiles(repo, { 'm.txt': 'x\n' });
    commitOn(repo, '2026-03-03', 'main moves');
    const ci = cloneOf(repo, '--depth', '1', '-b', 'feature');
    git(ci, 'fetch', '-q', '--depth', '1', 'origin', '+refs/heads/main:refs/remotes/origin/main');
    const head = git(ci, 'rev-parse', 'HEAD');
    const r = memlint(ci, ['update-branch', '--base', 'origin/main']);
    expect(r.stderr).toBe('memlint: origin/main and feature share no history in this shallow clone: fetch with full history ("git fetch --unshallow", or fetch-depth: 0 in actions/checkout), then run update-branch again (it touched nothing)\n');
    expect(r.code).toBe(2);
    expect(git(ci, 'rev-parse', 'HEAD')).toBe(head);
    git(ci, 'fetch', '-q', '--unshallow', 'origin');
    const after = memlint(ci, ['update-branch', '--base', 'origin/main']);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('merged origin/main into feature');
  });

  it('consolidate does not take the boundary commit\'s date for a project memory\'s last change', async () => {
    const repo = initRepo(tempDir('memlint-shallow-stale-'));
    writeFiles(repo, { '.claude/memory/MEMORY.md': '- [Build](project_build.md) — how we build\n', '.claude/memory/project_build.md': TOPIC('We build with make.\n') });
    commitOn(repo, '2026-01-10', 'build memory');
    writeFiles(repo, { 'a.txt': 'a\n' });
    commitOn(repo, '2026-04-01', 'not memory');
    const stale = async (dir: string) => {
      const r = await memlintInProcess(dir, ['consolidate', '--force', '--dry-run', '--json'], { env: { MEMLINT_TODAY: '2026-12-03' } });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as { memdirs: Array<{ report: { stale: { stale: unknown[] } } }> }).memdirs[0]!.report.stale.stale;
    };
    expect(await stale(repo)).toEqual([{ file: 'project_build.md', latest: '2026-01-10' }]);
    // Shallow: the memory's last change is past the boundary (2026-04-01, not the file's): its day is unknown.
    expect(await stale(cloneOf(repo, '--depth', '1'))).toEqual([]);
  });
});
