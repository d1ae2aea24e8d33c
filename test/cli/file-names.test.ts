// README "Security": file names are data. A topic named with a newline, a carriage return or leading
// whitespace is reported by index-orphan, and neither --fix nor consolidate writes an entry for
// it (one that never reads back would be added again on every run: 55 -> 95 -> 135 lines). Lint
// and --fix run in this process (test/helpers/in-process.ts: the same main()); consolidate through
// the built CLI, each run its own process as a user's are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

const UNSAFE = [' lead.md', 'new\nline.md', 'cr\rname.md', 'sub/ spaced.md'];
const SAFE = ['inner space.md'];

function repo(): { repo: string; memdir: string } {
  const dir = initRepo(tempDir('memlint-names-'));
  const memdir = join(dir, '.claude', 'memory');
  const files: Record<string, string> = { 'MEMORY.md': '# Memory\n\n- [Base](base.md) — the base topic\n' };
  [...UNSAFE, ...SAFE, 'base.md'].forEach((name, i) => {
    files[name] = `---\nname: Topic ${i}\ndescription: topic number ${i} about subject ${i}\ntype: project\n---\nBody ${i}: a fact of its own, number ${i * 7}.\n`;
  });
  writeFiles(memdir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'memory');
  return { repo: dir, memdir };
}

describe('topic file names an entry cannot spell', () => {
  it('are reported by index-orphan, one line each, with the name escaped', async () => {
    const { repo: r } = repo();
    const out = await memlintInProcess(r, ['--format', 'json', '--rule', 'feedback-structure=off']);
    const messages = (JSON.parse(out.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; message: string }> }>).flatMap((f) => f.messages.map((m) => ({ file: f.filePath, ...m })));
    for (const name of UNSAFE) {
      const m = messages.find((x) => x.ruleId === 'index-orphan' && x.file.endsWith(name));
      expect(m?.message, name).toContain(`topic file name ${JSON.stringify(name)}`);
    }
    const stylish = (await memlintInProcess(r, ['--rule', 'feedback-structure=off'])).stdout;
    expect(stylish).toContain('.claude/memory/new\\nline.md:1:1');
    for (const line of stylish.trimEnd().split('\n')) expect(line).not.toContain('\r');
  });

  it('three runs of --fix leave the index as the first left it', async () => {
    const { repo: r, memdir } = repo();
    const after: string[] = [];
    for (let i = 0; i < 3; i++) {
      await memlintInProcess(r, ['--fix']);
      after.push(readFileSync(join(memdir, 'MEMORY.md'), 'utf8'));
    }
    expect(after[1]).toBe(after[0]);
    expect(after[2]).toBe(after[0]);
    expect(after[0]).toContain('(<inner space.md>)');
    for (const name of UNSAFE) expect(after[0]).not.toContain(name.trim().replace(/\s.*/s, ''));
  });

  it('three runs of consolidate --force leave the index as the first left it', () => {
    const { repo: r, memdir } = repo();
    const after: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = memlint(r, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-11-29' } });
      expect(c.code, c.stderr).toBe(0);
      after.push(readFileSync(join(memdir, 'MEMORY.md'), 'utf8'));
    }
    expect(after[1]).toBe(after[0]);
    expect(after[2]).toBe(after[0]);
    expect(after[0]).toContain('(<inner space.md>)');
    expect(after[0].split('\n').filter((l) => l.startsWith('- ['))).toHaveLength(2);
  });
});
