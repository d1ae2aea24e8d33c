// Crash recovery (issue 17 item 11): after a kill -9 a consolidation's temporary files do not stay
// in the memdir forever, a resumed run does not archive the same thing twice (on a later day
// either), and many processes started at once on a memdir with a dead holder's lock: one
// consolidates.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, git, initRepo, memlint, writeFiles } from '../helpers/repo.js';
import { memlintKilledBefore } from '../helpers/killed.js';

const MEM = '.claude/memory';
const topic = (name: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: feedback\n---\n\n${body}`;
const DUPLICATES = 12;

/** A memdir with DUPLICATES topics, each with a copy under another name that consolidation merges. */
function repoWithDuplicates(): string {
  const dir = initRepo();
  const files: Record<string, string> = {};
  const index = ['# Memory', ''];
  for (let i = 0; i < DUPLICATES; i++) {
    const t = topic(`Rule ${i}`, `Rule number ${i} about subject ${i}`, `- Fact ${i} of its own.\n`);
    files[`${MEM}/rule_${i}.md`] = t;
    files[`${MEM}/rule_${i}_copy.md`] = t;
    index.push(`- [Rule ${i}](rule_${i}.md) — rule number ${i}`, `- [Rule ${i} copy](rule_${i}_copy.md) — rule number ${i}`);
  }
  files[`${MEM}/MEMORY.md`] = `${index.join('\n')}\n`;
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'memory');
  return dir;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A PID no process has now: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

const killedAfter = async (dir: string, ops: number, env: NodeJS.ProcessEnv): Promise<void> => {
  await memlintKilledBefore(dir, ['consolidate', '--force'], ops + 1, env, children);
};

describe('consolidation after a kill -9', () => {
  it("removes memlint's own temporary files of a dead process, and only those", () => {
    const dir = repoWithDuplicates();
    const dead = join(dir, MEM, `.MEMORY.md.memlint-${deadPid()}-mabc12-0.tmp`);
    const deadLog = join(dir, MEM, `.rule_0.md.memlint-${deadPid()}.tmp`);
    const live = join(dir, MEM, `.rule_1.md.memlint-${process.pid}-mabc12-3.tmp`);
    const notOurs = join(dir, MEM, `.notes.tmp`);
    for (const f of [dead, deadLog, live, notOurs]) writeFileSync(f, 'half written');
    const r = memlint(dir, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-11-29' } });
    expect(r.code, r.stderr).toBe(0);
    expect([dead, deadLog, live, notOurs].map(existsSync)).toEqual([false, false, true, true]);
  });

  it('a run resumed on a later day archives each merged duplicate once', async () => {
    const dir = repoWithDuplicates();
    // The writer copies each duplicate into the archive, then writes ARCHIVE.md: killed there,
    // before MEMORY.md and the memdir's copies are touched.
    await killedAfter(dir, DUPLICATES + 1, { MEMLINT_TODAY: '2026-11-29' });
    const archive = join(dir, '.claude', 'memory-archive', 'ARCHIVE.md');
    expect(readFileSync(archive, 'utf8').match(/merged into/g)).toHaveLength(DUPLICATES);
    const r = memlint(dir, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-11-30' } });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(archive, 'utf8').match(/merged into/g)).toHaveLength(DUPLICATES);
    expect(existsSync(join(dir, MEM, 'rule_0_copy.md'))).toBe(false);
    const again = memlint(dir, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-12-01' } });
    expect(again.stdout).toMatch(/nothing to consolidate/);
  });

  it('many processes at once on a dead holder\'s lock: exactly one consolidates', async () => {
    const dir = repoWithDuplicates();
    writeFileSync(join(dir, MEM, '.consolidate-lock'), String(deadPid()));
    const runs = Array.from({ length: 8 }, () =>
      new Promise<string>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'consolidate', '--force'], { cwd: dir, env: { ...process.env, MEMLINT_TODAY: '2026-11-29', NO_COLOR: '1' } });
        children.push(c);
        let out = '';
        c.stdout.on('data', (b) => (out += b));
        c.stderr.on('data', (b) => (out += b));
        c.on('close', () => resolve(out));
      }),
    );
    const outs = await Promise.all(runs);
    expect(outs.filter((o) => /: consolidated \(/.test(o))).toHaveLength(1);
    // The others were turned away by the lock, or came after and found nothing left to do.
    for (const o of outs.filter((x) => !/: consolidated \(/.test(x))) expect(o).toMatch(/being consolidated by process|took .*\.consolidate-lock first|nothing to consolidate/);
    expect(readFileSync(join(dir, '.claude', 'memory-archive', 'ARCHIVE.md'), 'utf8').match(/merged into/g)).toHaveLength(DUPLICATES);
  });
});
