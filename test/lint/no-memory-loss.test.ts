// no-memory-loss through the CLI: severities and exit codes with --staged, a consolidation's own
// commits pass, and the rule is silent without --staged (the fixtures cover the cases of loss).
// The JSON reports run in this process (test/helpers/in-process.ts: the same main()); a plain
// --staged and each consolidation through the built CLI.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { findLoss } from '../../src/lint/rules/no-memory-loss.js';
import { commitFiles, git, initRepo, memlint, writeFiles } from '../helpers/repo.js';

const hook = (body: string) => body.split(' ').slice(0, 3).join(' ').toLowerCase();
const topic = (name: string, type: string, body: string, extra = '') => `---\nname: ${name}\ndescription: ${hook(body)}\ntype: ${type}\n${extra}---\n${body}\n`;

const BODIES = [
  'The staging lock is held for twenty minutes during deploys.',
  'Invoices are generated on the first business day by the nightly job.',
  'The pager rotation changes every Monday at nine.',
  'Reindexing the catalogue blocks writes, so it runs on Sunday nights.',
  'The CDN contract with the current vendor ends in March.',
];

function memoryRepo(): string {
  const repo = initRepo();
  const files: Record<string, string> = { '.gitignore': '.consolidate-lock\n' };
  const lines: string[] = [];
  BODIES.forEach((b, i) => {
    files[`.claude/memory/project_${i}.md`] = topic(`Fact ${i}`, 'project', b);
    lines.push(`- [Fact ${i}](project_${i}.md) — ${hook(b)}`);
  });
  files['.claude/memory/MEMORY.md'] = `${lines.join('\n')}\n`;
  commitFiles(repo, files, 'memory');
  return repo;
}

function dropTopics(repo: string, count: number): void {
  const keep = BODIES.slice(count).map((b, i) => `- [Fact ${i + count}](project_${i + count}.md) — ${hook(b)}`);
  writeFiles(repo, { '.claude/memory/MEMORY.md': `${keep.join('\n')}\n` });
  for (let i = 0; i < count; i++) rmSync(join(repo, `.claude/memory/project_${i}.md`));
  git(repo, 'add', '-A');
}

const lossMessages = (stdout: string) =>
  (JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string; severity: number; message: string }> }>).flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-memory-loss'));

describe('no-memory-loss with --staged', () => {
  it('two topic files gone: a warning, exit 0; three: an error naming them, exit 1', async () => {
    const repo = memoryRepo();
    dropTopics(repo, 2);
    const small = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(small.code).toBe(0);
    expect(lossMessages(small.stdout).map((m) => m.severity)).toEqual([1]);
    git(repo, 'reset', '-q', '--hard');
    dropTopics(repo, 3);
    const big = memlint(repo, ['--staged']);
    expect(big.code).toBe(1);
    expect(big.stdout).toContain('error  the staged change deletes 3 topic files (project_0.md, project_1.md, project_2.md) and 3 index entries');
    expect(big.stdout).toContain('git restore --staged --worktree -- .claude/memory/project_0.md');
    expect(big.stdout).toContain('memlint consolidate --prune');
  });

  it('topics that differ from kept ones only in their numbers are facts of their own: three deleted is an error (a team trial, December 2026)', async () => {
    const repo = initRepo();
    const units = [1, 2, 3, 7, 8, 9];
    const body = (n: number) => `The deploy of unit ${n} uses the blue pipeline and ends with a smoke test of ${n} nodes.`;
    const files: Record<string, string> = {};
    for (const n of units) files[`.claude/memory/project_unit${n}.md`] = topic(`Unit ${n}`, 'project', body(n));
    files['.claude/memory/MEMORY.md'] = units.map((n) => `- [Unit ${n}](project_unit${n}.md) — unit ${n} deploys`).join('\n') + '\n';
    commitFiles(repo, files, 'memory');
    writeFiles(repo, { '.claude/memory/MEMORY.md': units.slice(3).map((n) => `- [Unit ${n}](project_unit${n}.md) — unit ${n} deploys`).join('\n') + '\n' });
    for (const n of units.slice(0, 3)) rmSync(join(repo, `.claude/memory/project_unit${n}.md`));
    git(repo, 'add', '-A');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(lossMessages(r.stdout).map((m) => [m.severity, m.message.split(' (')[0]])).toEqual([[2, 'the staged change deletes 3 topic files']]);
  });

  it('a topic file whose name has a line break in it is read from HEAD like any other, and named quoted', async () => {
    const repo = memoryRepo();
    commitFiles(repo, { '.claude/memory/odd\nname.md': topic('Odd', 'project', 'The backup window opens at two in the morning.') }, 'odd name');
    git(repo, 'rm', '-q', '.claude/memory/odd\nname.md');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    const [message] = lossMessages(r.stdout).map((m) => m.message);
    // Named quoted, as index-orphan names it: the message stays one line.
    expect(message).toContain('deletes 1 topic file ("odd\\nname.md")');
    expect(message).toContain('git restore --staged --worktree -- ".claude/memory/odd\\nname.md"');
    expect(message).not.toContain('\n');
  });

  it('without --staged the rule has nothing to compare and says nothing', async () => {
    const repo = memoryRepo();
    dropTopics(repo, 3);
    expect(lossMessages((await memlintInProcess(repo, ['--format', 'json'])).stdout)).toEqual([]);
  });

  it("a consolidation's own commits pass: stale memories archived with --prune, a dangling entry moved to the archive index", async () => {
    const repo = memoryRepo();
    writeFiles(repo, {
      '.claude/memory/project_0.md': topic('Fact 0', 'project', BODIES[0]!, 'modified: 2024-01-01T00:00:00Z\n'),
      '.claude/memory/project_1.md': topic('Fact 1', 'project', BODIES[1]!, 'modified: 2024-01-01T00:00:00Z\n'),
      '.claude/memory/project_2.md': topic('Fact 2', 'project', BODIES[2]!, 'modified: 2024-01-01T00:00:00Z\n'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'old facts');
    const pruned = memlint(repo, ['consolidate', '--force', '--prune'], { env: { MEMLINT_TODAY: '2026-11-30' } });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('3 stale project memories archived');
    git(repo, 'add', '-A');
    expect(git(repo, 'diff', '--cached', '--name-status')).toMatch(/^R\d*\t\.claude\/memory\/project_0\.md\t\.claude\/memory-archive\/project_0\.md$/m);
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(lossMessages(r.stdout)).toEqual([]);
    git(repo, 'commit', '-qm', 'memory: consolidate');

    // A topic file deleted by hand (a warning), then the consolidation that archives its entry.
    git(repo, 'rm', '-q', '.claude/memory/project_3.md');
    expect(lossMessages((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout)).toHaveLength(1);
    git(repo, 'commit', '-qm', 'forget fact 3', '--no-verify');
    const synced = memlint(repo, ['consolidate', '--force']);
    expect(synced.stdout).toContain('dangling entry moved to the archive index');
    git(repo, 'add', '-A');
    expect(lossMessages((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout)).toEqual([]);
  });
});

describe('no-memory-loss reads what the commit keeps only when something is removed', () => {
  it('an index that gains an entry, and a topic edited, read no kept file; a removed entry does', () => {
    let reads = 0;
    const history = (changed: string[], deleted: string[], head: Record<string, string>) => ({
      changed,
      deleted,
      headText: (rel: string) => head[rel] ?? null,
      keptTexts: () => {
        reads++;
        return [{ where: 'a.md', text: '---\nname: a\n---\nA fact worth keeping here.\n' }];
      },
    });
    const head = { 'MEMORY.md': '- [A](a.md) — a fact worth keeping\n' };
    expect(findLoss(history(['MEMORY.md', 'b.md'], [], head), '- [A](a.md) — a fact worth keeping\n- [B](b.md) — new\n')).toBeNull();
    expect(reads).toBe(0);
    findLoss(history(['MEMORY.md'], [], head), '# Memory\n');
    expect(reads).toBeGreaterThan(0);
  });
});
