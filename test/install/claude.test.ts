// memlint install --claude: the two Claude Code hooks in .claude/settings.json, kept apart from
// everything else there; uninstall removes exactly them; doctor reports them; the command works
// in any checkout and only advises where memlint is not installed. install, uninstall and doctor,
// and their usage errors, run in this process (test/helpers/in-process.ts: the same main()), the
// hook commands as Claude Code runs them (sh -c).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHookCommand, withClaudeHooks, withoutClaudeHooks } from '../../src/install/claude-settings.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';
import { npmInstall, project } from './helpers.js';

const SETTINGS = '.claude/settings.json';
const theirs = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo after-bash' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }],
  },
  model: 'opus',
};

const settingsOf = (dir: string) => JSON.parse(readFileSync(join(dir, SETTINGS), 'utf8'));

function runCommand(dir: string, command: string, payload: unknown) {
  return spawnSync('sh', ['-c', command], { cwd: dir, input: JSON.stringify(payload), encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: dir, MEMLINT_DEBUG: '' } });
}

describe('memlint install --claude', () => {
  it('adds both hooks with their matchers, keeping every other key and hook; a second run changes nothing', async () => {
    const dir = project();
    writeFiles(dir, { [SETTINGS]: `${JSON.stringify(theirs, null, 2)}\n` });
    const r = await memlintInProcess(dir, ['install', '--claude']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.claude/settings.json: update (Claude Code hooks');
    const s = settingsOf(dir);
    const command = claudeHookCommand('node_modules/.bin/memlint');
    expect(s).toEqual({
      ...theirs,
      hooks: {
        PostToolUse: [...theirs.hooks.PostToolUse, { matcher: 'Write|Edit', hooks: [{ type: 'command', command, timeout: 30 }] }],
        Stop: theirs.hooks.Stop,
        SessionStart: [{ matcher: 'startup|resume|clear|compact', hooks: [{ type: 'command', command, timeout: 30 }] }],
      },
    });
    const before = readFileSync(join(dir, SETTINGS), 'utf8');
    const again = await memlintInProcess(dir, ['install', '--claude']);
    expect(again.stdout).toContain('already installed; nothing changed');
    expect(readFileSync(join(dir, SETTINGS), 'utf8')).toBe(before);
    // Without --claude, install leaves the settings alone.
    expect((await memlintInProcess(dir, ['install'])).stdout).not.toContain(SETTINGS);
  });

  it('uninstall removes exactly them: the settings read as before', async () => {
    const dir = project();
    const original = `${JSON.stringify(theirs, null, 2)}\n`;
    writeFiles(dir, { [SETTINGS]: original });
    await memlintInProcess(dir, ['install', '--claude']);
    const r = await memlintInProcess(dir, ['uninstall']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.claude/settings.json: update (memlint hooks removed)');
    expect(readFileSync(join(dir, SETTINGS), 'utf8')).toBe(original);
  });

  /** install --claude then uninstall on a settings file: uninstall must give it back byte for byte; the installed text. */
  async function installedThenUninstalled(original: string): Promise<string> {
    const dir = project();
    writeFiles(dir, { [SETTINGS]: original });
    expect((await memlintInProcess(dir, ['install', '--claude'])).code).toBe(0);
    const installed = readFileSync(join(dir, SETTINGS), 'utf8');
    expect((await memlintInProcess(dir, ['uninstall'])).code).toBe(0);
    expect(readFileSync(join(dir, SETTINGS), 'utf8')).toBe(original);
    return installed;
  }

  it('a hand-written settings file keeps the layout of what memlint does not edit, and uninstall gives it back byte for byte', async () => {
    const installed = await installedThenUninstalled('{\r\n\t"permissions": {"allow": ["Bash(ls)", "Bash(git status)"]},\r\n\t"model": "opus"\r\n}\r\n');
    expect(installed.startsWith('{\r\n\t"permissions": {"allow": ["Bash(ls)", "Bash(git status)"]},\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"PostToolUse": [')).toBe(true);
    expect(JSON.parse(installed).hooks.SessionStart).toHaveLength(1);
  });

  it('a hooks list written on one line that memlint adds to stays on one line, and uninstall gives the file back byte for byte', async () => {
    const original = '{\n  "hooks": { "PostToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo ran" }] }] },\n  "model": "opus"\n}\n';
    const installed = await installedThenUninstalled(original);
    expect(installed.split('\n')).toHaveLength(original.split('\n').length);
    expect(JSON.parse(installed).hooks.PostToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['Bash', 'Write|Edit']);
  });

  it('creates the settings file when there is none, and uninstall removes it again', async () => {
    const dir = project();
    await memlintInProcess(dir, ['install', '--claude']);
    expect(Object.keys(settingsOf(dir))).toEqual(['hooks']);
    await memlintInProcess(dir, ['uninstall']);
    expect(existsSync(join(dir, SETTINGS))).toBe(false);
  });

  it('the command works in a teammate\'s clone, and only advises (exit 0) where memlint is not installed', async () => {
    const dir = project();
    await memlintInProcess(dir, ['install', '--claude']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hooks');
    const clone = join(tempDir('memlint-clone-'), 'clone');
    git(dir, 'clone', '-q', dir, clone);
    const command = settingsOf(clone).hooks.PostToolUse.find((g: { matcher: string }) => g.matcher === 'Write|Edit').hooks[0].command as string;
    const file = join(clone, '.claude/memory/user_role.md');
    const payload = { hook_event_name: 'PostToolUse', cwd: clone, tool_name: 'Write', tool_input: { file_path: file, content: 'x' } };
    writeFileSync(file, 'no frontmatter\n');
    // No node_modules in the fresh clone: advice on stderr, nothing for the agent, exit 0.
    const missing = runCommand(clone, command, payload);
    expect(missing.status).toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('memlint is not installed in this checkout (npm install): memory was not checked\n');
    npmInstall(clone);
    const ran = runCommand(clone, command, payload);
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout).decision).toBe('block');
    expect(JSON.parse(ran.stdout).reason).toContain('.claude/memory/user_role.md:1: Frontmatter is missing');
  });

  it('doctor reports them: optional when absent, ok when set up, a failure when half there or memlint is missing', async () => {
    const dir = project();
    const line = (out: string) => out.split('\n').find((l) => l.includes('claude hooks:'));
    expect(line((await memlintInProcess(dir, ['doctor'])).stdout)).toMatch(/^ok +claude hooks: not set up \(optional/);
    await memlintInProcess(dir, ['install', '--claude']);
    expect(line((await memlintInProcess(dir, ['doctor'])).stdout)).toBe('ok    claude hooks: .claude/settings.json runs "memlint hook" after Write|Edit and at SessionStart (startup|resume|clear|compact)');
    const s = settingsOf(dir);
    delete s.hooks.SessionStart;
    writeFiles(dir, { [SETTINGS]: JSON.stringify(s) });
    const half = await memlintInProcess(dir, ['doctor']);
    expect(half.code).toBe(1);
    expect(line(half.stdout)).toBe('FAIL  claude hooks: .claude/settings.json has memlint\'s hook for PostToolUse but not for SessionStart; fix: memlint install --claude');
    await memlintInProcess(dir, ['install', '--claude']);
    rmSync(join(dir, 'node_modules', '.bin', 'memlint'));
    expect(line((await memlintInProcess(dir, ['doctor'])).stdout)).toMatch(/^FAIL +claude hooks: .* is missing in this worktree: the hooks only advise until it is installed; fix: npm install$/);
  });

  it('settings that are not JSON: exit 2, the file left as it was; --claude with --local: usage error', async () => {
    const dir = project();
    writeFiles(dir, { [SETTINGS]: '{ "hooks": ' });
    const r = await memlintInProcess(dir, ['install', '--claude']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: .*settings\.json is not valid JSON/);
    expect(readFileSync(join(dir, SETTINGS), 'utf8')).toBe('{ "hooks": ');
    expect((await memlintInProcess(dir, ['install', '--claude', '--local'])).code).toBe(2);
  });
});

it('a .claude/settings.json that is a symlink is left alone, and so is what it points to', async () => {
  const dir = project();
  const outside = join(tempDir('memlint-outside-'), 'settings.json');
  writeFileSync(outside, '{"model":"opus"}\n');
  symlinkSync(outside, join(dir, SETTINGS));
  const r = await memlintInProcess(dir, ['install', '--claude']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/note: .*settings\.json is a symlink; memlint does not write or read through it: \.claude\/settings\.json left as it is/);
  expect(readFileSync(outside, 'utf8')).toBe('{"model":"opus"}\n');
  expect(lstatSync(join(dir, SETTINGS)).isSymbolicLink()).toBe(true);
});

describe('the settings edit', () => {
  const command = claudeHookCommand('node_modules/.bin/memlint');

  it('moves an older memlint command to the current one, and keeps other handlers of the same group', () => {
    const old = claudeHookCommand('memlint');
    const text = JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'prettier --check' }, { type: 'command', command: old, timeout: 30 }] }] } });
    const out = JSON.parse(withClaudeHooks(text, command));
    expect(out.hooks.PostToolUse).toEqual([{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'prettier --check' }, { type: 'command', command, timeout: 30 }] }]);
    const back = JSON.parse(withoutClaudeHooks(JSON.stringify(out))!);
    expect(back.hooks.PostToolUse).toEqual([{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'prettier --check' }] }]);
  });

  it('keeps the file\'s indentation, and leaves a file without memlint\'s hooks byte for byte', () => {
    const text = '{\n\t"model": "opus"\n}\n';
    expect(withClaudeHooks(text, command)).toMatch(/^\{\n\t"model": "opus",\n\t"hooks": \{/);
    expect(withoutClaudeHooks(text)).toBe(text);
  });
});

describe('the hook command in a linked worktree without node_modules', () => {
  it("runs the main worktree's memlint, as the git hooks do; doctor says so, and names a command written before", async () => {
    const dir = project();
    await memlintInProcess(dir, ['install', '--claude']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'claude hooks');
    // An agent's worktree, as Claude Code makes them: no node_modules of its own.
    const wt = join(tempDir(), 'agent-wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'agent', wt);
    expect(existsSync(join(wt, 'node_modules'))).toBe(false);
    writeFiles(wt, { '.claude/memory/feedback_x.md': 'no frontmatter\n' });
    const file = join(wt, '.claude/memory/feedback_x.md');
    const payload = { hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: file }, tool_response: { filePath: file, success: true }, cwd: wt };
    const command = settingsOf(wt).hooks.PostToolUse.find((g: { matcher: string }) => g.matcher === 'Write|Edit').hooks[0].command;
    const r = runCommand(wt, command, payload);
    expect(r.stderr).not.toContain('memlint is not installed');
    expect(r.stdout).toContain('"decision":"block"');
    expect(r.stdout).toContain('frontmatter');
    const line = (out: string) => out.split('\n').find((l) => l.includes('claude hooks:'));
    expect(line((await memlintInProcess(wt, ['doctor'])).stdout)).toBe(`ok    claude hooks: .claude/settings.json runs "memlint hook" after Write|Edit and at SessionStart; this worktree has no node_modules/.bin/memlint, so they run the main worktree's (${join(dir, 'node_modules/.bin/memlint')})`);
    // A command of the earlier form only advises here: doctor names the fix.
    const earlier = `m="$CLAUDE_PROJECT_DIR/node_modules/.bin/memlint"; if [ -x "$m" ]; then "$m" hook; else echo "memlint is not installed in this checkout (npm install): memory was not checked" >&2; fi`;
    writeFiles(wt, { [SETTINGS]: readFileSync(join(wt, SETTINGS), 'utf8').split(JSON.stringify(command).slice(1, -1)).join(JSON.stringify(earlier).slice(1, -1)) });
    expect(runCommand(wt, earlier, payload).stderr).toContain('memlint is not installed');
    const doctor = await memlintInProcess(wt, ['doctor']);
    expect(line(doctor.stdout)).toMatch(/^FAIL +claude hooks: .* written before it could use the main worktree's memlint.*; fix: memlint install --claude \(in any worktree\), then commit \.claude\/settings\.json$/);
    // install brings it up to date.
    await memlintInProcess(wt, ['install', '--claude']);
    expect(settingsOf(wt).hooks.PostToolUse.find((g: { matcher: string }) => g.matcher === 'Write|Edit').hooks[0].command).toBe(command);
  });
});
