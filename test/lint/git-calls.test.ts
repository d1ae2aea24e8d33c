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

describe('git processes per lint run', () => {
  it('blames only tracked files with a relative date, never an untracked one', () => {
    const repo = initRepo(tempDir('memlint-gitcalls-'));
    const files: Record<string, string> = { 'mem/MEMORY.md': '' };
    const entries: string[] = [];
    for (let i = 0; i < 30; i++) {
      files[`mem/plain_${i}.md`] = topic(`Plain ${i}`, 'Deploys go through the release checklist.');
      entries.push(`- [Plain ${i}](plain_${i}.md) — plain`);
    }
    files['mem/dated.md'] = topic('Dated', 'The vendor call moved to tomorrow.');
    entries.push('- [Dated](dated.md) — dated');
    files['mem/MEMORY.md'] = entries.join('\n') + '\n';
    writeFiles(repo, files);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'memory');
    // Untracked: three more files with relative dates.
    writeFiles(repo, {
      'mem/new_1.md': topic('New 1', 'We ship next Friday.'),
      'mem/new_2.md': topic('New 2', 'Yesterday the build broke.'),
      'mem/new_3.md': topic('New 3', 'Finance asked last week.'),
    });
    const { bin, log } = gitWrapper();
    const r = memlint(repo, ['mem', '--format', 'json', '--rule', 'index-orphan=off'], { env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, MEMLINT_TODAY: '2026-04-24' } });
    expect(r.code).toBe(1);
    const found = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    expect(found.flatMap((f) => f.messages.filter((m) => m.ruleId === 'absolute-dates'))).toHaveLength(4);
    // Each call as git reads its command: the \`-c\` settings memlint gives every call left out.
    const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((c) => c.replace(/^(?:-c \S+ )+/, '')) : [];
    const blames = calls.filter((c) => c.startsWith('blame'));
    expect(blames).toHaveLength(1);
    expect(blames[0]).toMatch(/mem\/dated\.md$/);
    // The rest of the run is a handful of calls, whatever the number of files.
    expect(calls.length).toBeLessThanOrEqual(8);
  });
});
