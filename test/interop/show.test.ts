import { utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetBar } from '../../src/commands/show.js';
import { formatFileSize, indexVisibility, isAgentMemdir, loadIndex } from '../../src/memdir/limits.js';
import { rankForRecall, scannedDescription } from '../../src/claude/recall.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cli, cliInProcess, hermetic } from './helpers.js';

const WARNING_TAIL = '. Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.';

function memdirWith(index: string, extra: Record<string, string> = {}): { repo: string; dir: string } {
  const repo = initRepo();
  writeFiles(repo, { '.claude/memory/MEMORY.md': index, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`.claude/memory/${k}`, v])) });
  return { repo, dir: path.join(repo, '.claude', 'memory') };
}

const entries = (n: number, width = 0) =>
  Array.from({ length: n }, (_, i) => {
    const line = `- [T${i}](t${i}.md) — hook ${i}`;
    return width ? line.padEnd(width, 'x') : line;
  });

describe('memlint show: exactly what the agent loads', () => {
  it('strips frontmatter and block comments, trims, and prints nothing more when piped', async () => {
    const h = hermetic();
    const { repo } = memdirWith('---\ntitle: x\n---\n\n<!-- maintainers: keep this short -->\n\n# Memory\n- [A](a.md) — a\n\n\n');
    const r = await cliInProcess(repo, ['show', '.claude/memory'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('# Memory\n- [A](a.md) — a');
    expect((await cliInProcess(repo, ['show', '.claude/memory/MEMORY.md'], h)).stdout).toBe(r.stdout);
  });

  it('cuts at 200 lines and appends the line warning verbatim', async () => {
    const h = hermetic();
    const lines = entries(250);
    const { repo } = memdirWith(lines.join('\n') + '\n');
    const r = await cliInProcess(repo, ['show', '.claude/memory'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${lines.slice(0, 200).join('\n')}\n\n> WARNING: MEMORY.md is 250 lines (limit: 200)${WARNING_TAIL}`);
  });

  it('cuts at the last newline before 25,000 UTF-16 units with the size form', async () => {
    const h = hermetic();
    const lines = entries(100, 299); // 100 lines of 299 units: 29,999 units trimmed
    const { repo } = memdirWith(lines.join('\n') + '\n');
    const r = await cliInProcess(repo, ['show', '.claude/memory'], h);
    expect(r.stdout).toBe(`${lines.slice(0, 83).join('\n')}\n\n> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long${WARNING_TAIL}`);
  });

  it('combined form when both caps fire', async () => {
    const h = hermetic();
    const lines = entries(250, 150); // 37,749 units; 200 lines still 30,199 units
    const { repo } = memdirWith(lines.join('\n'));
    const r = await cliInProcess(repo, ['show', '.claude/memory'], h);
    expect(r.stdout).toBe(`${lines.slice(0, 165).join('\n')}\n\n> WARNING: MEMORY.md is 250 lines and 36.9KB${WARNING_TAIL}`);
  });

  it('counts UTF-16 units, not bytes or characters', () => {
    const wide = '- [😀](e.md) — ' + '日本語'.repeat(10);
    expect(loadIndex(wide).measure.units).toBe(wide.length);
    expect(Buffer.byteLength(wide)).not.toBe(wide.length);
  });

  it('agent memory is cut raw, without stripping frontmatter', async () => {
    const h = hermetic();
    const repo = initRepo();
    writeFiles(repo, { '.claude/agent-memory/reviewer/MEMORY.md': '---\nnote: kept\n---\n- [A](a.md) — a\n' });
    const r = await cliInProcess(repo, ['show', '.claude/agent-memory/reviewer'], h);
    expect(r.stdout).toBe('---\nnote: kept\n---\n- [A](a.md) — a');
    expect(isAgentMemdir('/r/.claude/agent-memory-snapshots/x')).toBe(true);
    expect(isAgentMemdir('/r/.claude/memory')).toBe(false);
  });

  it('with no MEMDIR shows the repository memory folder, noting that Claude Code loads another one', async () => {
    const h = hermetic();
    const { repo } = memdirWith('- [A](a.md) — a\n', { 'a.md': '---\nname: a\ndescription: a\ntype: user\n---\n' });
    const r = await cliInProcess(repo, ['show'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('- [A](a.md) — a');
    expect(r.stderr).toMatch(/^note: Claude Code started here loads .*projects.*memory\/, not /);
    expect((await cliInProcess(repo, ['link'], h)).code).toBe(0);
    const linked = await cliInProcess(repo, ['show'], h);
    expect(linked.stdout).toBe('- [A](a.md) — a');
    expect(linked.stderr).toBe('');
  });

  it('usage errors: a folder without MEMORY.md, a missing folder, two MEMDIRs', () => {
    const h = hermetic();
    const repo = initRepo();
    expect(cli(repo, ['show', '.'], h)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^memlint: no MEMORY\.md in /) });
    expect(cli(repo, ['show', 'nope'], h)).toMatchObject({ code: 2, stderr: 'memlint: no such folder: nope\n' });
    expect(cli(repo, ['show', 'a', 'b'], h).code).toBe(2);
    expect(cli(repo, ['show', '--help'], h).stdout).toMatch(/^Usage: memlint show/);
  });
});

describe('limits.ts against Claude Code (loadIndex)', () => {
  it.each([
    [1023, '1023 bytes'],
    [1024, '1KB'],
    [25_000, '24.4KB'],
    [30_000, '29.3KB'],
    [1024 * 1024, '1MB'],
    [1024 * 1024 * 1.5, '1.5MB'],
    [1024 ** 3, '1GB'],
  ])('formatFileSize(%d) = %s', (n, s) => {
    expect(formatFileSize(n)).toBe(s);
  });

  it('keeps CRs (and counts them) when there is no comment to strip', () => {
    expect(loadIndex('a\r\nb\r\n').measure).toMatchObject({ text: 'a\r\nb', units: 4, lines: 2 });
  });

  it('normalizes line endings when the comment stripper runs', () => {
    expect(loadIndex('<!-- c -->\r\na\r\nb').measure).toMatchObject({ text: 'a\nb', units: 3 });
  });

  it('a stripped comment block takes the empty lines after it along', () => {
    expect(loadIndex('a\n<!-- c -->\n\n\nb\n').kept).toBe('a\nb');
    expect(loadIndex('a\n<!--\nmulti\nline -->\n\nb').kept).toBe('a\nb');
  });

  it('text after the comment on its line stays, with the lines after it', () => {
    expect(loadIndex('x\n<!-- a --> keep\n\nnext').kept).toBe('x\n keep\n\nnext');
  });

  it('"<!-->" is an empty comment; an unclosed comment is left in place; comments in fences stay', () => {
    expect(loadIndex('a\n<!-->\nb').kept).toBe('a\nb');
    expect(loadIndex('a\n<!-- open\nb').kept).toBe('a\n<!-- open\nb');
    expect(loadIndex('```\n<!-- c -->\n```').kept).toBe('```\n<!-- c -->\n```');
  });

  it('indexVisibility agrees with loadIndex on swallowed blank lines and kept CRs', () => {
    const lines = entries(250);
    const v = indexVisibility('<!-- c -->\n\n' + lines.join('\n'));
    expect(v).toMatchObject({ firstCutLine: 203, cutBy: 'lines' });
    const crlf = entries(110, 248).join('\r\n'); // 249 units a line with the CR
    const loaded = loadIndex(crlf);
    expect(loaded.truncated).toBe(true);
    const keptLines = loaded.kept.split('\n').length;
    expect(indexVisibility(crlf).firstCutLine).toBe(keptLines + 1);
  });

  it('strip: false loads the raw file (agent memory)', () => {
    expect(loadIndex('---\nx: 1\n---\n<!-- c -->\na', { strip: false }).kept).toBe('---\nx: 1\n---\n<!-- c -->\na');
  });
});

describe('memlint show --budget', () => {
  it('draws bars with cells rounded up', () => {
    expect(budgetBar(143, 200, 'lines')).toBe('143/200 lines ████████░░ 72%');
    expect(budgetBar(0, 200, 'lines')).toBe('0/200 lines ░░░░░░░░░░ 0%');
    expect(budgetBar(30_000, 25_000, 'units')).toBe('30000/25000 units ██████████ 120%');
  });

  it('lists recall candidates (200 newest by mtime with a description) and the others with why', async () => {
    const h = hermetic();
    const topics: Record<string, string> = {};
    for (let i = 0; i < 201; i++) topics[`t${String(i).padStart(3, '0')}.md`] = `---\nname: t${i}\ndescription: topic ${i}\ntype: project\n---\nbody\n`;
    topics['nodesc.md'] = '---\nname: n\ntype: user\n---\n';
    topics['late.md'] = '---\nname: late\n' + Array.from({ length: 30 }, (_, i) => `x${i}: 1\n`).join('') + 'description: too late\n---\n';
    topics['logs/2026/11/2026-11-01.md'] = '- 10:00 note\n';
    const { repo, dir } = memdirWith(entries(143).join('\n') + '\n', topics);
    // Newest first: t200 newest ... t000 oldest; the three special files newest of all.
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 201; i++) {
      const t = new Date(base + i * 60_000);
      utimesSync(path.join(dir, `t${String(i).padStart(3, '0')}.md`), t, t);
    }
    for (const f of ['nodesc.md', 'late.md', 'logs/2026/11/2026-11-01.md']) {
      const t = new Date(base + 10_000 * 60_000);
      utimesSync(path.join(dir, f), t, t);
    }
    const r = await cliInProcess(repo, ['show', '--budget', '.claude/memory'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  143/200 lines ████████░░ 72%');
    expect(r.stdout).toMatch(/Topic files: 204 /);
    expect(r.stdout).toMatch(/Recall candidates \(197\):/);
    expect(r.stdout).toMatch(/Not candidates \(7\):/);
    expect(r.stdout).toMatch(/  2026-01-07  nodesc\.md: no description in the first 30 lines/);
    expect(r.stdout).toMatch(/late\.md: no description in the first 30 lines/);
    expect(r.stdout).toMatch(/logs\/2026\/11\/2026-11-01\.md: no description/);
    expect(r.stdout).toMatch(/t000\.md: not among the 200 newest by mtime \(rank 204\)/);
    expect(r.stdout).toMatch(/t003\.md: not among the 200 newest by mtime \(rank 201\)/);
    expect(r.stdout).toMatch(/  2026-01-01  t004\.md — topic 4/);
    git(repo, 'status'); // the folder is an ordinary repository folder
  });

  it('pure ranking: newest first, ties by name, limit respected', () => {
    const files = [
      { rel: 'b.md', abs: '/b', mtimeMs: 5, description: 'b', type: 'user' },
      { rel: 'a.md', abs: '/a', mtimeMs: 5, description: 'a', type: 'user' },
      { rel: 'c.md', abs: '/c', mtimeMs: 9, description: null, type: undefined },
      { rel: 'd.md', abs: '/d', mtimeMs: 1, description: 'd', type: 'user' },
    ];
    const r = rankForRecall(files, 3);
    expect(r.candidates.map((f) => f.rel)).toEqual(['a.md', 'b.md']);
    expect(r.excluded.map((f) => [f.rel, f.rank])).toEqual([
      ['c.md', 1],
      ['d.md', 4],
    ]);
  });

  it('reads the description only from frontmatter closed within the first 30 lines', () => {
    expect(scannedDescription('---\ndescription: here\n---\n').description).toBe('here');
    expect(scannedDescription('---\ndescription: ""\n---\n').description).toBeNull();
    expect(scannedDescription('no frontmatter').description).toBeNull();
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: v\n`).join('');
    // Closing fence on line 31: beyond what the scanner reads.
    expect(scannedDescription('---\n' + keys(28) + 'description: edge\n---\n').description).toBeNull();
    // Closing fence on line 30: still read.
    expect(scannedDescription('---\n' + keys(27) + 'description: edge\n---\n').description).toBe('edge');
  });
});

describe('show picks a folder', () => {
  it('refuses to guess between several memory folders', async () => {
    const h = hermetic();
    const repo = initRepo();
    writeFiles(repo, { 'a/MEMORY.md': '- [X](x.md) — x\n', 'a/x.md': 'x', 'b/MEMORY.md': '- [Y](y.md) — y\n', 'b/y.md': 'y' });
    const r = await cliInProcess(repo, ['show'], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/several memory folders/);
    writeFiles(repo, { '.claude/memory/MEMORY.md': '- [Z](z.md) — z\n' });
    expect((await cliInProcess(repo, ['show'], h)).stdout).toBe('- [Z](z.md) — z');
    expect((await cliInProcess(tempDir(), ['show'], h)).code).toBe(2);
  });
});

describe('memlint show and Claude Code versions (format registry)', () => {
  it('--budget names Claude Code\'s own compaction target and lists links to no memory yet', async () => {
    const h = hermetic();
    const topics = {
      'login-flow.md': '---\nname: login-flow\ndescription: The login redirect goes through the proxy\nmetadata:\n  type: project\n---\nSee [[auth-proxy]] and [[deploys]].\n\n```\n[[in-code]]\n```\n',
      'deploys.md': '---\nname: deploys\ndescription: Deploy on Tuesdays\nmetadata:\n  type: project\n---\nAfter [[login-flow]].\n',
    };
    const { repo } = memdirWith(entries(165).join('\n') + '\n', topics);
    const r = await cliInProcess(repo, ['show', '--budget', '.claude/memory'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  Claude Code 2.1.332 asks the agent to compact it from 160 lines or 19.5KB, to under 140 lines or 17.1KB: now, to under 140 lines');
    expect(r.stdout).toContain('Links to no memory yet (1; fine: each marks something worth writing later):\n  login-flow.md:7  [[auth-proxy]]\n');
  });

  it('a version before 2.1.211 loads the index unstripped; config claudeCode selects it', async () => {
    const h = hermetic();
    const { repo } = memdirWith('<!-- keep short -->\n# Memory\n- [A](a.md) — a\n');
    expect((await cliInProcess(repo, ['show', '.claude/memory'], h)).stdout).toBe('# Memory\n- [A](a.md) — a');
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ claudeCode: '2.1.200' }) });
    expect((await cliInProcess(repo, ['show', '.claude/memory'], h)).stdout).toBe('<!-- keep short -->\n# Memory\n- [A](a.md) — a');
    const before = await cliInProcess(repo, ['show', '--budget', '.claude/memory'], h);
    expect(before.stdout).not.toContain('asks the agent to compact');
  });
});
