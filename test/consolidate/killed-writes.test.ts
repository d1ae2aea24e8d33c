// Contract §14: a writer killed at any point loses no text. A real memlint process (the shipped
// bundle) is held right before each of its write boundaries in turn (every rename of an atomic
// write and every removal; test/helpers/killed.ts) and its files copied there, on generated
// memdirs where consolidation and --fix move text between files: an over-long index hook's tail
// into its topic, a duplicate entry's hook into its topic, log entries into topics, a duplicate
// topic into its twin. After each boundary every word of the memory is still in a file, and a
// rerun from the copy completes: it ends where an uninterrupted run ends and leaves no temporary
// file. That a copy is what a kill leaves is checked with real SIGKILLs before every write of one
// shape (the lock a kill leaves: test/consolidate/cli.test.ts and crash-recovery.test.ts). The
// uninterrupted run and the reruns are main() run in this process (test/helpers/in-process.ts).
import { cpSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { git, initRepo, tempDir, writeFiles, treeSnapshot } from '../helpers/repo.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { memlintHeldAtEachWrite, memlintKilledBefore } from '../helpers/killed.js';

const MEM = '.claude/memory';
const env = { MEMLINT_TODAY: '2026-11-29' };
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

// Words that say what the memory holds: each appears in one place of the generated memdir, so a
// text that is moved and lost is missed by name.
let serial = 0;
const token = () => `w${(serial++).toString(36)}q`;
const words = (n: number) => Array.from({ length: n }, token).join(' ');

const topicText = (name: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: feedback\n---\n\n${body}`;

interface Shape {
  topics: number;
  longHooks: boolean[];
  duplicateEntry: boolean[];
  logged: boolean[];
  twin: boolean;
}

const shape = fc.record({
  topics: fc.integer({ min: 1, max: 3 }),
  longHooks: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  duplicateEntry: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  logged: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  twin: fc.boolean(),
});

function memdirOf(s: Shape): Record<string, string> {
  const files: Record<string, string> = {};
  const index = ['# Memory', ''];
  const log: string[] = [];
  for (let i = 0; i < s.topics; i++) {
    const slug = `feedback_t${i}`;
    files[`${MEM}/${slug}.md`] = topicText(`Topic ${i}`, `About ${words(2)}`, `- ${words(4)}\n`);
    // An over-long hook: consolidation and index-line-length --fix move its tail into the topic.
    const hook = s.longHooks[i] ? `${words(3)}, ${Array.from({ length: 24 }, token).join(' ')}` : words(3);
    index.push(`- [Topic ${i}](${slug}.md) — ${hook}`);
    // A second entry for the same topic: its hook is kept in the topic when the entry goes.
    if (s.duplicateEntry[i]) index.push(`- [Topic ${i} again](${slug}.md) — ${words(5)}`);
    if (s.logged[i]) log.push(`- 09:1${i} — ${words(4)} [${slug}]`);
  }
  if (s.twin) {
    files[`${MEM}/feedback_t0_copy.md`] = files[`${MEM}/feedback_t0.md`]!;
    index.push(`- [Topic 0 copy](feedback_t0_copy.md) — ${words(3)}`);
  }
  files[`${MEM}/MEMORY.md`] = `${index.join('\n')}\n`;
  if (log.length) files[`${MEM}/logs/2026/11/2026-11-26.md`] = `# 2026-11-26\n\n${log.join('\n')}\n`;
  return files;
}

const TEMP = /\.memlint-\d+-[0-9a-z]+-\d+\.tmp$/;
const LOCK = /\.consolidate-lock$/;
const memoryWords = (files: Map<string, string>) => new Set([...files].filter(([p]) => !TEMP.test(p)).flatMap(([, t]) => t.match(/\bw[0-9a-z]+q\b/g) ?? []));
const withoutLock = (files: Map<string, string>) => new Map([...files].filter(([p]) => !LOCK.test(p)));

function repoOf(files: Record<string, string>): string {
  const dir = initRepo();
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'memory');
  return dir;
}

function copyOf(dir: string): string {
  const to = tempDir();
  cpSync(dir, to, { recursive: true });
  return to;
}

/** A copy as the stopped process left it: the files and their mtimes, as a kill there leaves them. */
function stateAt(dir: string): string {
  const to = tempDir();
  cpSync(dir, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return to;
}

/**
 * `memlint ARGS` killed before each of its write boundaries in turn; returns how many it has. One
 * real process waits before every boundary (test/helpers/killed.ts) and the files are copied there,
 * which is what SIGKILL at that point leaves on disk; once it has ended (its PID dead, as a killed
 * one's is), each copy is checked and finished by a rerun.
 */
async function killAtEveryBoundary(args: string[], files: Record<string, string>): Promise<number> {
  const base = repoOf(files);
  const reference = copyOf(base);
  expect((await memlintInProcess(reference, args, { env })).code).toBeLessThan(2);
  const expected = withoutLock(treeSnapshot(reference));
  const before = memoryWords(treeSnapshot(base));
  const killedAt: string[] = [];
  const dir = copyOf(base);
  const run = await memlintHeldAtEachWrite(dir, args, env, children, () => killedAt.push(stateAt(dir)));
  expect(run.code).toBeLessThan(2);
  // The run that was not killed ends where the in-process one does.
  expect(withoutLock(treeSnapshot(dir))).toEqual(expected);
  for (const [i, at] of killedAt.entries()) {
    const op = i + 1;
    const lostAtKill = [...before].filter((w) => !memoryWords(treeSnapshot(at)).has(w));
    expect(lostAtKill, `killed before write ${op} of memlint ${args.join(' ')}`).toEqual([]);
    const rerun = await memlintInProcess(at, args, { env });
    expect(rerun.code, rerun.stderr).toBeLessThan(2);
    const after = withoutLock(treeSnapshot(at));
    expect([...after.keys()].filter((p) => TEMP.test(p)), `temporary files after the rerun (killed before write ${op})`).toEqual([]);
    expect(after, `rerun after a kill before write ${op}`).toEqual(expected);
  }
  return killedAt.length;
}

describe('a writer killed at every write boundary loses no text (contract §14)', () => {
  it('consolidate', async () => {
    let boundaries = 0;
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        boundaries += await killAtEveryBoundary(['consolidate', '--force'], memdirOf(s));
      }),
      { numRuns: 3, seed: 28 },
    );
    expect(boundaries).toBeGreaterThan(4);
  }, 240_000);

  it('lint --fix', async () => {
    let boundaries = 0;
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        boundaries += await killAtEveryBoundary(['--fix', MEM], memdirOf(s));
      }),
      { numRuns: 3, seed: 28 },
    );
    expect(boundaries).toBeGreaterThan(0);
  }, 240_000);

  it('a real SIGKILL before each write leaves on disk what the held run showed there, and a rerun ends where a whole run ends', async () => {
    const s: Shape = { topics: 2, longHooks: [true, true, false], duplicateEntry: [true, false, false], logged: [true, false, false], twin: true };
    const args = ['consolidate', '--force'];
    const base = repoOf(memdirOf(s));
    const reference = copyOf(base);
    expect((await memlintInProcess(reference, args, { env })).code).toBeLessThan(2);
    const expected = withoutLock(treeSnapshot(reference));
    // The lock and the temporary files' names hold the process's PID: compared without them.
    const files = (dir: string) => new Map([...withoutLock(treeSnapshot(dir))].map(([p, t]) => [TEMP.test(p) ? p.replace(TEMP, '.memlint-tmp') : p, t]));
    const held: Array<Map<string, string>> = [];
    const dir = copyOf(base);
    await memlintHeldAtEachWrite(dir, args, env, children, () => held.push(files(dir)));
    expect(held.length).toBeGreaterThan(3);
    for (const [i, seen] of held.entries()) {
      const killed = copyOf(base);
      const k = await memlintKilledBefore(killed, args, i + 1, env, children);
      expect(k.pid, `killed before write ${i + 1}`).not.toBeNull();
      expect(files(killed), `killed before write ${i + 1}`).toEqual(seen);
      expect((await memlintInProcess(killed, args, { env })).code).toBeLessThan(2);
      expect(withoutLock(treeSnapshot(killed)), `rerun after a kill before write ${i + 1}`).toEqual(expected);
    }
  }, 240_000);

  it('consolidate --prune: a stale memory archived, its move recorded in ARCHIVE.md once whatever the kill', async () => {
    // Killed after MEMORY.md lost the entry and before the file left the memory folder, the rerun
    // finds the file again (with an entry the orphan step makes from its description) and archives
    // it to the same name: ARCHIVE.md keeps the first line, with the index's title and hook.
    const files = memdirOf({ topics: 1, longHooks: [false, false, false], duplicateEntry: [false, false, false], logged: [false, false, false], twin: false });
    files[`${MEM}/project_old.md`] = `---\nname: Old project\ndescription: About ${words(2)}\ntype: project\nmodified: 2020-01-01\n---\n\nShipped on 2020-01-01: ${words(3)}\n`;
    files[`${MEM}/MEMORY.md`] += `- [Old project](project_old.md) — ${words(3)}\n`;
    expect(await killAtEveryBoundary(['consolidate', '--force', '--prune'], files)).toBeGreaterThan(2);
  }, 240_000);

  it('the shapes that lost text before: an over-long hook and a duplicate entry, consolidated and fixed', async () => {
    const s: Shape = { topics: 2, longHooks: [true, true, false], duplicateEntry: [true, false, false], logged: [true, false, false], twin: true };
    expect(await killAtEveryBoundary(['consolidate', '--force'], memdirOf(s))).toBeGreaterThan(3);
    expect(await killAtEveryBoundary(['--fix', MEM], memdirOf(s))).toBeGreaterThan(1);
  }, 240_000);
});
