// `memlint --fix`: surgical edits, a second run finds nothing, bytes outside the edits unchanged.
// The fixes run in this process (test/helpers/in-process.ts: the same main()); the usage error
// through the built CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { memlint, writeFiles } from '../helpers/repo.js';
import { cleanRepo, topic } from './setup.js';

const LONG_HOOK =
  'integration tests must hit a real database, because in the March incident mocked tests passed while the migration broke production for two hours';

function messyRepo() {
  const r = cleanRepo();
  writeFiles(r.memdir, {
    // BOM, CRLF, odd spacing and prose that --fix must leave exactly as they are.
    'MEMORY.md':
      '\uFEFF# Memory\r\n\r\n' +
      'Kept   by hand;  odd   spacing stays.\r\n\r\n' +
      '## Feedback\r\n' +
      `* [Testing](feedback_testing.md) – ${LONG_HOOK}\r\n` +
      '\r\n' +
      '## Project\r\n' +
      '- [Deploys](project_deploys.md) — deploys go out on Tuesdays\r\n' +
      '- [Deploys](./project_deploys.md) — deploys go out on Tuesdays\r\n' +
      '- [Gone](gone.md) — not fixable: reported after the fix\r\n' +
      '\r\n' +
      'Trailing prose.   ',
    'feedback_testing.md': topic('Testing', 'feedback', 'Use the real database.\n\n**Why:** mocks hid a broken migration.\n**How to apply:** no mocks for the database.'),
    'project_freeze.md': topic('Release freeze'),
  });
  return r;
}

describe('--fix', () => {
  it('settles what it can, says how many, and a second run finds nothing to fix', async () => {
    const { repo, memdir } = messyRepo();
    const before = await memlintInProcess(repo, []);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('✖ 4 problems (4 errors, 0 warnings)');
    expect(before.stdout).toContain('3 of them can be settled by `memlint --fix`');

    const fixed = await memlintInProcess(repo, ['--fix']);
    expect(fixed.code).toBe(1); // the dangling entry is left
    expect(fixed.stdout).toContain('Entry links to gone.md');
    expect(fixed.stdout).toContain('✖ 1 problem (1 error, 0 warnings)');
    expect(fixed.stdout).not.toContain('can be settled');
    expect(fixed.stdout.trimEnd().split('\n').pop()).toBe('Fixed 3 problems in 2 files.');

    const index = readFileSync(join(memdir, 'MEMORY.md'), 'utf8');
    expect(index).toBe(
      '\uFEFF# Memory\r\n\r\n' +
        'Kept   by hand;  odd   spacing stays.\r\n\r\n' +
        '## Feedback\r\n' +
        '* [Testing](feedback_testing.md) – integration tests must hit a real database, because in the March incident mocked tests passed while the migration\r\n' +
        '\r\n' +
        '## Project\r\n' +
        '- [Deploys](project_deploys.md) — deploys go out on Tuesdays\r\n' +
        '- [Gone](gone.md) — not fixable: reported after the fix\r\n' +
        '- [Release freeze](project_freeze.md) — Release freeze in one line\r\n' +
        '\r\n' +
        'Trailing prose.   ',
    );
    // The tail of the hook moved into the topic file (which had no final newline), not dropped,
    // under its own heading: not a bare paragraph that reads as part of "How to apply".
    expect(readFileSync(join(memdir, 'feedback_testing.md'), 'utf8')).toBe(
      topic('Testing', 'feedback', `Use the real database.\n\n**Why:** mocks hid a broken migration.\n**How to apply:** no mocks for the database.\n\n## From the index\n\n${LONG_HOOK}\n`),
    );

    const again = await memlintInProcess(repo, ['--fix']);
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain('Fixed');
    expect(readFileSync(join(memdir, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  it('changes nothing in files it has nothing to fix, and leaves no temporary files', async () => {
    const { repo, memdir } = messyRepo();
    const untouched = readFileSync(join(memdir, 'project_deploys.md'));
    const freeze = readFileSync(join(memdir, 'project_freeze.md'));
    await memlintInProcess(repo, ['--fix']);
    expect(readFileSync(join(memdir, 'project_deploys.md')).equals(untouched)).toBe(true);
    expect(readFileSync(join(memdir, 'project_freeze.md')).equals(freeze)).toBe(true);
    expect(readdirSync(memdir).sort()).toEqual(['MEMORY.md', 'feedback_testing.md', 'project_deploys.md', 'project_freeze.md']);
  });

  it('the index-line-length fix never drops text, whatever the hook', async () => {
    const { repo, memdir } = cleanRepo();
    const hooks = [
      'a'.repeat(200),
      `${'word '.repeat(40)}end`,
      `每个迁移都要有回滚步骤，${'并在预发环境完整演练后才能合并；'.repeat(12)}`,
      `${'🚀'.repeat(90)} and then some words after the rockets to push the line over`,
    ];
    const files: Record<string, string> = {};
    hooks.forEach((_, i) => (files[`t${i}.md`] = topic(`T${i}`)));
    files['MEMORY.md'] = hooks.map((h, i) => `- [T${i}](t${i}.md) — ${h}`).join('\n') + '\n- [Deploys](project_deploys.md) — Tuesdays\n';
    writeFiles(memdir, files);
    const r = await memlintInProcess(repo, ['--fix', '--rule', 'index-line-length=error']);
    expect(r.stdout).toMatch(/Fixed \d+ problems? in \d+ files?\./);
    const index = readFileSync(join(memdir, 'MEMORY.md'), 'utf8');
    // A hook with no word boundary to cut at (one 200-letter token) is left as it is: a cut inside a
    // token is no certain fix (issue 29), so it stays a finding.
    expect(index.split('\n')[0]).toBe(`- [T0](t0.md) — ${hooks[0]}`);
    hooks.forEach((h, i) => {
      if (i === 0) return;
      const line = index.split('\n')[i]!;
      expect(Array.from(line).length).toBeLessThanOrEqual(150);
      // The shortened hook is a prefix of the original, and the original is whole in the topic file.
      const head = line.slice(`- [T${i}](t${i}.md) — `.length);
      expect(h.startsWith(head)).toBe(true);
      expect(readFileSync(join(memdir, `t${i}.md`), 'utf8')).toContain(h);
    });
    expect((await memlintInProcess(repo, ['--fix'])).stdout).not.toContain('Fixed');
    expect((await memlintInProcess(repo, ['--rule', 'index-line-length=error'])).stdout).toContain('MEMORY.md:1:');
  });

  it('with --format json, reports what is left after fixing', async () => {
    const { repo, memdir } = messyRepo();
    const r = await memlintInProcess(repo, ['--fix', '--format', 'json']);
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    expect(results.flatMap((x) => x.messages.map((m) => m.ruleId))).toEqual(['index-link-target']);
    expect(results.find((x) => x.filePath === join(memdir, 'MEMORY.md'))).toBeDefined();
  });

  it('fixes what a single named file needs, in the index beside it', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_freeze.md': topic('Freeze'), 'project_other.md': topic('Other') });
    const r = await memlintInProcess(repo, ['--fix', '.claude/memory/project_freeze.md']);
    expect(r).toEqual({ code: 0, stdout: 'Fixed 1 problem in 1 file.\n', stderr: '' });
    const index = readFileSync(join(memdir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [Freeze](project_freeze.md) — Freeze in one line\n');
    // The file not named is left for another run.
    expect(index).not.toContain('project_other.md');
  });

  it('refuses --fix with --staged (staged blobs are not the working tree)', () => {
    const { repo } = cleanRepo();
    const r = memlint(repo, ['--fix', '--staged']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: --fix works on the working tree/);
  });
});

describe('--fix and conflict markers', () => {
  it('changes nothing in a file that holds conflict markers, says why in one line, and counts nothing there as fixable', async () => {
    const r = cleanRepo();
    const conflicted = [
      '---',
      'name: Deploys',
      'description: how deploys run',
      'type: project',
      '---',
      '',
      '<<<<<<< ours (project_deploys.md line 7: edited on both sides)',
      'The freeze starts next Thursday.',
      '=======',
      'The freeze starts tomorrow.',
      '>>>>>>> theirs (project_deploys.md line 7)',
      '',
    ].join('\n');
    writeFiles(r.memdir, { 'project_deploys.md': conflicted });
    const lint = await memlintInProcess(r.repo, ['--format', 'json']);
    const results = JSON.parse(lint.stdout) as Array<{ filePath: string; fixableErrorCount: number; messages: Array<{ ruleId: string }> }>;
    const deploys = results.find((x) => x.filePath.endsWith('project_deploys.md'))!;
    expect(deploys.messages.map((m) => m.ruleId)).toEqual(expect.arrayContaining(['no-conflict-markers', 'absolute-dates']));
    expect(deploys.fixableErrorCount).toBe(0);
    const fixed = await memlintInProcess(r.repo, ['--fix']);
    expect(fixed.code).toBe(1);
    expect(readFileSync(join(r.memdir, 'project_deploys.md'), 'utf8')).toBe(conflicted);
    expect(fixed.stderr).toBe('memlint: not fixed: .claude/memory/project_deploys.md holds conflict markers, so --fix changes nothing in it; settle them first ("memlint resolve")\n');
    expect(fixed.stdout).not.toMatch(/can be settled by `memlint --fix`/);
  });
});
