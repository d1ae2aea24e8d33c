// Issue 28's hardening of the hook, show, diff, install --claude and consolidate (contract §14):
// nothing read through a committed symlink that leads out of the repository, regular files only,
// no raw control character in any output, and an exit 2 whose stderr line says why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, commitFiles, git, initRepo, memlint, tempDir } from '../helpers/repo.js';

const MEM = '.claude/memory';
const topic = (name: string, desc: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: project\n---\n\n- ${desc}.\n`;
// C0, DEL and C1 controls, and the bidirectional override: none may reach a terminal raw.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;

function memoryRepo(): string {
  const dir = initRepo();
  commitFiles(dir, { [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Deploys](project_deploys.md) — deploys on Tuesdays\n', [`${MEM}/project_deploys.md`]: topic('Deploys', 'Deploys on Tuesdays') });
  return dir;
}

/** `memlint hook` with this payload; a hook that blocked would be stopped by the timeout (a guard, not a measure). */
function hook(dir: string, payload: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, 'hook'], { cwd: dir, input: payload, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '', ...env } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('show never reads through a committed symlink out of the repository', () => {
  it('a symlinked MEMORY.md and a symlinked memory folder: exit 2, one line, nothing of the outside printed', () => {
    const outside = tempDir('memlint-outside-');
    writeFileSync(join(outside, 'MEMORY.md'), '# Someone else\n\n- [Secret plan](plan.md) — OUTSIDE-TEXT\n');
    writeFileSync(join(outside, 'plan.md'), topic('Plan', 'OUTSIDE-TOPIC'));
    const linkedIndex = initRepo();
    mkdirSync(join(linkedIndex, MEM), { recursive: true });
    symlinkSync(join(outside, 'MEMORY.md'), join(linkedIndex, MEM, 'MEMORY.md'));
    const linkedFolder = initRepo();
    mkdirSync(join(linkedFolder, '.claude'));
    symlinkSync(outside, join(linkedFolder, MEM));
    for (const dir of [linkedIndex, linkedFolder]) {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'a symlinked memory');
      for (const args of [['show', MEM], ['show', MEM, '--budget'], ['show', `${MEM}/MEMORY.md`]]) {
        const r = memlint(dir, args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/^memlint: \.claude\/memory(\/MEMORY\.md)? leads out of the repository through a symlink; memlint does not follow it\n$/);
      }
    }
  });
});

describe('hook reads regular files only', () => {
  it('a FIFO named MEMORY.md or *.md in the memory folder does not block SessionStart or PostToolUse', () => {
    const dir = memoryRepo();
    writeFileSync(join(dir, '.claude/settings.local.json'), JSON.stringify({ autoMemoryDirectory: join(dir, MEM) }));
    expect(spawnSync('mkfifo', [join(dir, MEM, 'pipe.md')]).status).toBe(0);
    const edit = hook(dir, JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, MEM, 'pipe.md') }, cwd: dir }), { CLAUDE_PROJECT_DIR: dir });
    expect(edit).toMatchObject({ code: 0, signal: null, stdout: '' });
    const other = initRepo();
    mkdirSync(join(other, MEM), { recursive: true });
    expect(spawnSync('mkfifo', [join(other, MEM, 'MEMORY.md')]).status).toBe(0);
    writeFileSync(join(other, '.claude/settings.local.json'), JSON.stringify({ autoMemoryDirectory: join(other, MEM) }));
    const start = hook(other, JSON.stringify({ hook_event_name: 'SessionStart', cwd: other }), { CLAUDE_PROJECT_DIR: other });
    expect(start).toMatchObject({ code: 0, signal: null });
  });

  it('invalid JSON holding control characters: the error line prints none of them', () => {
    const dir = memoryRepo();
    for (const input of ['{"a": "\u001b[2J\u0007', 'x\u001b]0;title\u0007\u009b31m', '\u202e{']) {
      const r = hook(dir, input);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^memlint hook: the hook input is not JSON \(.*\) \(the session goes on\)\n$/);
      expect(r.stderr.slice(0, -1)).not.toMatch(CONTROL);
    }
  });
});

describe('diff quotes names', () => {
  it('a file name and a title holding ESC[2J and C1 controls reach neither the terminal nor the step summary raw', () => {
    const dir = memoryRepo();
    const name = 'evil\u001b[2J\u009b1m.md';
    commitFiles(dir, {
      [`${MEM}/${name}`]: topic('Evil\u001b[31m', 'Title \u001b]8;;x\u0007 and more'),
      [`${MEM}/MEMORY.md`]: `# Memory\n\n- [Deploys](project_deploys.md) — deploys on Tuesdays\n- [Bad \u001b[2J title](${name}) — hook\u0007 here\n`,
    });
    for (const format of ['text', 'markdown', 'json']) {
      const r = memlint(dir, ['diff', 'HEAD~1..HEAD', '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('evil');
      expect(r.stdout.replace(/\n/g, '')).not.toMatch(CONTROL);
      expect(r.stderr.replace(/\n/g, '')).not.toMatch(CONTROL);
    }
    expect(memlint(dir, ['diff', 'HEAD~1..HEAD']).stdout).toContain('"evil\\u001b[2J\\u009b1m.md"');
  });
});

describe('lint and the hook quote file names (a user trial, December 2026)', () => {
  it('a topic file named with ESC, BEL and a line break: stylish, github and the hook\'s reason hold no raw control character', () => {
    const dir = memoryRepo();
    const name = 'evil\u001b[31mRED\u0007\nname.md';
    writeFileSync(join(dir, MEM, name), topic('Evil', 'Evil name'));
    for (const format of ['stylish', 'github']) {
      const r = memlint(dir, ['--format', format]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('evil');
      expect(r.stdout.replace(/\n/g, '')).not.toMatch(CONTROL);
    }
    // Each line of the stylish report is one finding: the name's line break is shown, not made.
    expect(memlint(dir, []).stdout).toContain('.claude/memory/evil\\u001b[31mRED\\u0007\\nname.md:');
    const r = hook(dir, JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, MEM, name) }, cwd: dir }), { CLAUDE_PROJECT_DIR: dir });
    expect(r.code).toBe(0);
    const reason = (JSON.parse(r.stdout) as { reason: string }).reason;
    expect(reason).toContain('evil');
    expect(reason.replace(/\n/g, '')).not.toMatch(CONTROL);
    expect(reason).not.toContain('RED\u0007\nname');
  });
});

describe('install --claude and consolidate --force say why in one line', () => {
  // The second spells the key with an escape: JSON.parse reads it as "hooks" and keeps the last.
  it.each([
    ['written twice', '{\n  "hooks": {},\n  "model": "opus",\n  "hooks": { "Stop": [] }\n}\n', 4],
    ['the second spelt with an escape', '{\n  "hooks": {},\n  "hoo\\u006bs": { "Stop": [] }\n}\n', 3],
  ])('install --claude refuses a settings file with a key twice in one object (%s): exit 2, one line, nothing written', (_, settings, line) => {
    const dir = initRepo();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), settings);
    const r = memlint(dir, ['install', '--claude']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^memlint: .*\\.claude/settings\\.json:${line}: key "hooks" appears twice in one object \\(Claude Code keeps the last\\); remove one, then run install again\\n$`));
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toBe(settings);
    expect(existsSync(join(dir, '.gitattributes'))).toBe(false);
    expect(spawnSync('git', ['config', '--get', 'merge.memlint.driver'], { cwd: dir }).status).toBe(1);
  });

  it('consolidate --force on a committed symlinked lock: exit 2, and stderr\'s line names the lock and why', () => {
    const dir = memoryRepo();
    const outside = tempDir('memlint-outside-');
    symlinkSync(join(outside, 'lock'), join(dir, MEM, '.consolidate-lock'));
    commitFiles(dir, { [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Deploys](project_deploys.md) — deploys on Tuesdays\n- [Deploys](project_deploys.md) — deploys on Tuesdays, twice\n' });
    const r = memlint(dir, ['consolidate', '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^memlint: \.claude\/memory: .*\.consolidate-lock is a symlink; memlint does not write or read through it; .*\n$/);
    expect(existsSync(join(outside, 'lock'))).toBe(false);
  });
});
