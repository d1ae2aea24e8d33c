// How many git processes lint starts, counted (never timed) through a wrapper named `git` first on
// PATH that logs its arguments and runs the real git (issue 29: 45 blames for one finding, and
// blames of untracked files).
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

function gitWrapper(): { bin: string; log: string } {
  const bin = tempDir('memlint-gitwrap-');
  const log = join(bin, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { bin, log };
}

const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\n---\n${body}\n`;

/** A repository with `dated` committed topics holding a relative date (and 30 without), and three untracked dated ones. */
function memory(dated: number): string {
  const repo = initRepo(tempDir('memlint-gitcalls-'));
  const files: Record<string, string> = {};
  const entries: string[] = [];
  for (let i = 0; i < 30; i++) {
    files[`mem/plain_${i}.md`] = topic(`Plain ${i}`, 'Deploys go through the release checklist.');
    entries.push(`- [Plain ${i}](plain_${i}.md) — plain`);
  }
  for (let i = 0; i < dated; i++) {
    files[`mem/dated_${i}.md`] = topic(`Dated ${i}`, 'The vendor call moved to tomorrow.');
    entries.push(`- [Dated ${i}](dated_${i}.md) — dated`);
  }
  files['mem/MEMORY.md'] = entries.join('\n') + '\n';
  writeFiles(repo, files);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'memory');
  // A second commit that dates some lines later.
  writeFiles(repo, { 'mem/dated_0.md': topic('Dated 0', 'The vendor call moved to tomorrow.\nThe audit is due next Friday.') });
  git(repo, 'commit', '-qam', 'more');
  // Untracked: three more files with relative dates.
  writeFiles(repo, {
    'mem/new_1.md': topic('New 1', 'We ship next Friday.'),
    'mem/new_2.md': topic('New 2', 'Yesterday the build broke.'),
    'mem/new_3.md': topic('New 3', 'Finance asked last week.'),
  });
  return repo;
}

/** The git calls of one lint run, each as git reads its command (the `-c` settings memlint gives every call left out), and its findings. */
function lintCalls(repo: string): { calls: string[]; dates: number } {
  const { bin, log } = gitWrapper();
  const r = memlint(repo, ['mem', '--format', 'json', '--rule', 'index-orphan=off'], { env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, MEMLINT_TODAY: '2026-04-24' } });
  expect(r.code).toBe(1);
  const found = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
  const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((c) => c.replace(/^(?:-c \S+ )+/, '')) : [];
  return { calls, dates: found.flatMap((f) => f.messages.filter((m) => m.ruleId === 'absolute-dates')).length };
}

describe('git processes per lint run', () => {
  it('one git log for the line dates of every committed file, none for untracked ones, whatever their number', () => {
    const few = lintCalls(memory(1));
    const many = lintCalls(memory(40));
    // Every dated file is reported: 1 or 40 committed (dated_0 twice), 3 untracked.
    expect(few.dates).toBe(2 + 3);
    expect(many.dates).toBe(41 + 3);
    for (const { calls } of [few, many]) {
      expect(calls.filter((c) => c.startsWith('blame'))).toEqual([]);
      const logs = calls.filter((c) => c.startsWith('log ') && c.includes('-U0'));
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/ -- :\(literal\)mem :\(exclude,glob\)mem\/logs\/\S+$/);
    }
    // The same calls for 40 dated files as for one: the number does not grow with them.
    expect(many.calls).toEqual(few.calls);
    expect(few.calls.length).toBeLessThanOrEqual(8);
  });
});
