// memlint hook: Claude Code's documented payloads on stdin, the exact stdout checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizePath } from '../../src/claude/auto-memory.js';
import { shownPath } from '../../src/claude/hook-report.js';
import { answer } from '../../src/commands/hook.js';
import { inProcess } from '../helpers/in-process.js';
import { CLI, commitFiles, committedRepo, initRepo, writeFiles } from '../helpers/repo.js';
import { hermetic, type Hermetic } from './helpers.js';

const TOPIC = '---\nname: Testing\ndescription: integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** every test that touches SQL.\n';
const ENTRY = '- [Testing](feedback_testing.md) — integration tests hit a real database\n';

function repoWithMemory(): string {
  return committedRepo({ '.claude/memory/MEMORY.md': ENTRY, '.claude/memory/feedback_testing.md': TOPIC, 'src/notes.md': '# notes\n' });
}

const hookEnv = (h: Hermetic, projectDir: string, extraEnv: Record<string, string>) => ({ ...h.env, CLAUDE_PROJECT_DIR: projectDir, MEMLINT_TODAY: '2026-11-30', ...extraEnv });

/** `memlint hook` as Claude Code runs it: the built CLI, the payload on stdin. */
function hookCli(h: Hermetic, projectDir: string, payload: unknown, extraEnv: Record<string, string> = {}) {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [CLI, 'hook'], { cwd: projectDir, input, encoding: 'utf8', env: hookEnv(h, projectDir, extraEnv) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * What `memlint hook` prints for a payload, worked out in this process by the function the command
 * prints (answer), in the same hermetic environment and folder. What only the binary shows (stdin,
 * the one line a failure prints, usage errors) is tested through hookCli.
 */
async function hook(h: Hermetic, projectDir: string, payload: unknown, extraEnv: Record<string, string> = {}) {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return inProcess(projectDir, { exactEnv: hookEnv(h, projectDir, extraEnv) }, async (io) => {
    io.stdout.write(await answer(input, io.env, io.cwd));
    return 0;
  });
}

const write = (repo: string, file: string, content: string) => ({
  session_id: 's1',
  transcript_path: path.join(repo, 't.jsonl'),
  cwd: repo,
  permission_mode: 'default',
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_input: { file_path: file, content },
  tool_response: { filePath: file, success: true },
  tool_use_id: 'toolu_1',
});

const edit = (repo: string, file: string) => ({
  session_id: 's1',
  cwd: repo,
  hook_event_name: 'PostToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: file, old_string: 'a', new_string: 'b', replace_all: false },
  tool_response: { filePath: file, success: true },
});

const block = (reason: string) => `${JSON.stringify({ decision: 'block', reason })}\n`;

describe('memlint hook: PostToolUse', () => {
  it('a Write of a clean topic file: no output', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const r = await hook(h, repo, write(repo, file, TOPIC));
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a Write of a topic file with errors: a block naming file:line, what is wrong and what to do', () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/project_launch.md');
    const content = '---\nname: Launch\ndescription: the launch date\ntype: project\n---\nWe launch tomorrow.\n';
    writeFileSync(file, content);
    const r = hookCli(h, repo, write(repo, file, content));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      block(
        [
          'memlint found 2 problems in memory (the file you just wrote and MEMORY.md). Fix them now, before you go on:',
          '- .claude/memory/project_launch.md:1: project_launch.md has no entry in MEMORY.md: the agent does not know this memory exists (index-orphan). To do: add one line for it to MEMORY.md: - [Launch](project_launch.md) — the launch date [fixable]',
          '- .claude/memory/project_launch.md:6: relative date "tomorrow": write "tomorrow (2026-12-01)" (counted from today, 2026-11-30) (absolute-dates)',
          'Also worth fixing (warnings):',
          '- .claude/memory/project_launch.md:6: project memory without a **Why:** line (the reason) and a **How to apply:** line (when it applies): lead with the fact, then add them (feedback-structure)',
          '"npx memlint --fix .claude/memory" fixes the ones marked fixable without losing text.',
        ].join('\n'),
      ),
    );
  });

  it('a relative date in the description: reported there, and the entry line suggested for the orphan carries its date', () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/project_call.md');
    const content = '---\nname: Call\ndescription: Vendor call moved to tomorrow\ntype: project\n---\nDana runs it.\n\n**Why:** x.\n\n**How to apply:** y.\n';
    writeFileSync(file, content);
    const r = hookCli(h, repo, write(repo, file, content));
    expect(r.code).toBe(0);
    const reason = (JSON.parse(r.stdout) as { reason: string }).reason;
    expect(reason).toContain('- .claude/memory/project_call.md:3: relative date "tomorrow": write "tomorrow (2026-12-01)" (counted from today, 2026-11-30) (absolute-dates)');
    expect(reason).toContain('To do: add one line for it to MEMORY.md: - [Call](project_call.md) — Vendor call moved to tomorrow (2026-12-01) [fixable]');
    // The line the agent is told to write holds no relative date left bare.
    const advised = /To do: add one line for it to MEMORY\.md: (.*) \[fixable\]/.exec(reason)![1]!;
    expect(advised.replace(/tomorrow \(2026-12-01\)/g, '')).not.toMatch(/tomorrow/);
  });

  it('never prints a secret: the message and the entry line suggested for an orphan are masked', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2)}`.slice(0, 40);
    const file = path.join(repo, '.claude/memory/reference_ci.md');
    writeFileSync(file, `---\nname: CI\ndescription: the CI token is ${token}\ntype: reference\n---\nThe CI token is ${token}.\n`);
    const r = await hook(h, repo, write(repo, file, '...'));
    expect(JSON.parse(r.stdout).decision).toBe('block');
    expect(r.stdout).toContain('(no-secrets)');
    expect(r.stdout).toContain('(index-orphan)');
    expect(r.stdout).not.toContain(token);
    expect(r.stdout).not.toContain(token.slice(8, 30));
  });

  it('the --fix command it advises runs as given in sh for a memory folder whose path needs quoting', async () => {
    const h = hermetic();
    const repo = initRepo();
    for (const dir of ["packages/my pkg/.claude/memory", "packages/it's/.claude/memory"]) {
      commitFiles(repo, { [`${dir}/MEMORY.md`]: ENTRY, [`${dir}/feedback_testing.md`]: TOPIC });
      const file = path.join(repo, dir, 'reference_or.md');
      const content = '---\nname: Or\ndescription: the on-call rota\ntype: reference\n---\nRota.\n';
      writeFileSync(file, content);
      const r = await hook(h, repo, write(repo, file, content));
      const reason = (JSON.parse(r.stdout) as { reason: string }).reason;
      const command = /"(npx memlint --fix .*)" fixes the ones marked fixable/.exec(reason)?.[1];
      expect(command, reason).toBeDefined();
      expect(command).toBe(dir.includes("'") ? `npx memlint --fix 'packages/it'\\''s/.claude/memory'` : `npx memlint --fix 'packages/my pkg/.claude/memory'`);
      // As the agent would run it: the same words in sh, with npx memlint standing for the built CLI.
      const run = spawnSync('sh', ['-c', command!.replace(/^npx memlint /, `"$NODE" "$CLI" `)], { cwd: repo, encoding: 'utf8', env: { ...hookEnv(h, repo, {}), NODE: process.execPath, CLI } });
      expect(run.stderr).not.toContain('no such file or folder');
      expect([0, 1], run.stdout + run.stderr).toContain(run.status);
      expect(readFileSync(path.join(repo, dir, 'MEMORY.md'), 'utf8')).toContain('(reference_or.md)');
    }
  });

  it('warnings alone never block', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    writeFileSync(file, '---\nname: Testing\ndescription: integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n');
    expect(await hook(h, repo, write(repo, file, '...'))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an edit without errors asks git nothing a warning alone would need; with an error, the warnings come too', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    commitFiles(repo, { 'src/db/pool.ts': 'export const pool = 1;\n' });
    execFileSync('git', ['rm', '-q', 'src/db/pool.ts'], { cwd: repo });
    execFileSync('git', ['commit', '-qm', 'drop the pool'], { cwd: repo });
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const body = TOPIC.replace('every test that touches SQL.', 'every test that touches SQL (the pool is in src/db/pool.ts).');
    writeFileSync(file, body);
    const trace = path.join(repo, '..', `trace-${path.basename(repo)}.json`);
    expect(await hook(h, repo, write(repo, file, body), { GIT_TRACE2_EVENT: trace })).toEqual({ code: 0, stdout: '', stderr: '' });
    // What git was asked, from its own trace (none at all leaves no trace): no walk of history.
    const asked = (existsSync(trace) ? readFileSync(trace, 'utf8') : '').split('\n').filter((l) => l.includes('"event":"start"')).map((l) => (JSON.parse(l) as { argv: string[] }).argv);
    expect(asked.filter((argv) => argv.includes('log'))).toEqual([]);
    // An error beside it: the stale path is told among the warnings.
    const dated = body.replace('Integration tests hit a real database.', 'Integration tests hit a real database since yesterday.');
    writeFileSync(file, dated);
    const reason = (JSON.parse((await hook(h, repo, write(repo, file, dated))).stdout) as { reason: string }).reason;
    expect(reason).toContain('relative date "yesterday"');
    expect(reason).toMatch(/Also worth fixing \(warnings\):\n(?:.*\n)*- \.claude\/memory\/feedback_testing\.md:\d+: src\/db\/pool\.ts was deleted in [0-9a-f]{7} /);
  });

  it('an Edit of MEMORY.md that makes an entry too long: shorten it, move the detail into the topic file', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/MEMORY.md');
    const long = '- [Testing](feedback_testing.md) — integration tests hit a real database, because in the March incident mocked tests passed while the migration broke production\n';
    writeFileSync(file, long);
    const r = await hook(h, repo, edit(repo, file));
    expect(r.stdout).toBe(
      block(
        [
          'memlint found 1 problem in memory (the file you just wrote and MEMORY.md). Fix it now, before you go on:',
          `- .claude/memory/MEMORY.md:1: Index entry is ${long.trim().length} characters (limit 150): move the detail into the topic file (index-line-length). To do: shorten this entry to 150 characters and move the detail into feedback_testing.md [fixable]`,
          '"npx memlint --fix .claude/memory" fixes the ones marked fixable without losing text.',
        ].join('\n'),
      ),
    );
    expect(r.code).toBe(0);
  });

  it('a stack trace pasted into memory: move it out', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const frames = Array.from({ length: 4 }, (_, i) => `    at handler${i} (src/server.ts:${10 + i}:5)`).join('\n');
    writeFileSync(file, `${TOPIC}\nTypeError: x is undefined\n${frames}\n`);
    // no-derivable-content is a warning: set it to error, as a team may.
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ rules: { 'no-derivable-content': 'error' } }) });
    const r = await hook(h, repo, edit(repo, file));
    expect(r.stdout).toContain('To do: move this stack trace out of memory');
    expect(r.stdout).toContain('.claude/memory/feedback_testing.md:13: stack trace (4 frames)');
  });

  it('a file outside memory, a non-Markdown file, another tool: no output', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    expect(await hook(h, repo, write(repo, path.join(repo, 'src/notes.md'), '# notes\n'))).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(path.join(repo, '.claude/memory/data.json'), '{}');
    expect((await hook(h, repo, write(repo, path.join(repo, '.claude/memory/data.json'), '{}'))).stdout).toBe('');
    const read = { ...edit(repo, path.join(repo, '.claude/memory/MEMORY.md')), tool_name: 'Read' };
    writeFileSync(path.join(repo, '.claude/memory/MEMORY.md'), `${ENTRY}- [Gone](gone.md) — missing\n`);
    expect((await hook(h, repo, read)).stdout).toBe('');
    // A file that does not exist (the write failed): nothing to lint.
    expect((await hook(h, repo, write(repo, path.join(repo, '.claude/memory/never.md'), 'x'))).stdout).toBe('');
  });

  it('a memdir outside the repository: the folder "memlint where" resolves', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const store = path.join(h.configDir, 'projects', sanitizePath(repo), 'memory');
    mkdirSync(store, { recursive: true });
    writeFileSync(path.join(store, 'MEMORY.md'), '- [Role](user_role.md) — what the user does\n');
    const file = path.join(store, 'user_role.md');
    writeFileSync(file, '---\nname: Role\ndescription: what the user does\ntype: person\n---\nBackend engineer.\n');
    const r = await hook(h, repo, write(repo, file, '...'));
    expect(r.stdout).toBe(
      block(
        [
          'memlint found 1 problem in memory (the file you just wrote and MEMORY.md). Fix it now, before you go on:',
          `- ${file}:4: Frontmatter type "person" is not one of user, feedback, project, reference (frontmatter-type). To do: set type: to one of user, feedback, project or reference`,
        ].join('\n'),
      ),
    );
    // A store of another project is not this repository's memory.
    const other = path.join(h.configDir, 'projects', '-elsewhere', 'memory');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'MEMORY.md'), '');
    writeFileSync(path.join(other, 'x.md'), 'no frontmatter\n');
    expect((await hook(h, repo, write(repo, path.join(other, 'x.md'), '...'))).stdout).toBe('');
  });

  it('a huge content: the output stays under 10,000 characters', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const huge = 'x'.repeat(5 * 1024 * 1024);
    writeFileSync(file, huge);
    const r = await hook(h, repo, write(repo, file, huge));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      block(
        [
          'memlint found 1 problem in memory (the file you just wrote and MEMORY.md). Fix it now, before you go on:',
          '- .claude/memory/feedback_testing.md:1: file is 5.0 MB, too large to be a memory; not linted',
        ].join('\n'),
      ),
    );
  });

  it('many problems: the reason is cut to fit, saying how many were left out', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const lines = Array.from({ length: 400 }, (_, i) => `- Step ${i}: we deploy tomorrow.`).join('\n');
    writeFileSync(file, `${TOPIC}\n${lines}\n`);
    const r = await hook(h, repo, write(repo, file, lines));
    expect(r.stdout.length).toBeLessThanOrEqual(10_000);
    const reason = JSON.parse(r.stdout).reason as string;
    const shown = reason.split('\n').filter((l) => l.includes('relative date')).length;
    expect(shown).toBeGreaterThan(10);
    // 400 errors and one warning (the topic is past what recall shows): "more" counts problems
    // left out, not the warnings' heading.
    expect(reason).toContain(`… and ${401 - shown} more (run "npx memlint" to see all).`);
  });

  it('many problems and an index over its limit: the limit comes first, whatever is cut', async () => {
    // Past 200 lines Claude Code loads nothing beyond them: the one problem that loses memory must
    // not be among the ones left out of a reason cut to fit.
    const h = hermetic();
    const repo = repoWithMemory();
    const index = path.join(repo, '.claude/memory/MEMORY.md');
    const extra = Array.from({ length: 260 }, (_, i) => `- [T${i}](missing_${i}.md) — a fairly ordinary hook for entry number ${i} that says something`).join('\n');
    writeFileSync(index, `${ENTRY}${extra}\n`);
    const r = await hook(h, repo, edit(repo, index));
    const reason = JSON.parse(r.stdout).reason as string;
    expect(reason).toContain('more (run "npx memlint" to see all).');
    expect(reason.split('\n')[1]).toMatch(/^- \.claude\/memory\/MEMORY\.md:\d+: .*\(index-max-lines\)/);
  });

  it('malformed JSON, a JSON array, unknown events: no output, exit 0', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const bad = hookCli(h, repo, '{"hook_event_name": "PostToolUse", ');
    expect(bad.code).toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^memlint hook: the hook input is not JSON/);
    expect(hookCli(h, repo, '[]')).toMatchObject({ code: 0, stdout: '' });
    for (const event of ['PreToolUse', 'Stop', 'Notification', 'UserPromptSubmit', 'SessionEnd', 'Mystery']) {
      const r = await hook(h, repo, { ...edit(repo, path.join(repo, '.claude/memory/MEMORY.md')), hook_event_name: event });
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('a failure of memlint itself: one line on stderr, exit 0', () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.memlintrc.json': '{ not json' });
    const file = path.join(repo, '.claude/memory/feedback_testing.md');
    const r = hookCli(h, repo, write(repo, file, TOPIC));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^memlint hook: .*\.memlintrc\.json/);
  });

  it('usage error: exit 2; --help: exit 0', () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const r = spawnSync(process.execPath, [CLI, 'hook', 'extra'], { cwd: repo, input: '{}', encoding: 'utf8', env: h.env });
    expect(r.status).toBe(2);
    const help = spawnSync(process.execPath, [CLI, 'hook', '--help'], { cwd: repo, encoding: 'utf8', env: h.env });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: memlint hook/);
  });
});

describe('memlint hook: SessionStart', () => {
  const start = (repo: string, source = 'startup') => ({ session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source });

  it('healthy memory: no output, for every source', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude/memory') }) });
    for (const source of ['startup', 'resume', 'clear', 'compact']) expect(await hook(h, repo, start(repo, source))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an index within 10% of the line limit, and orphans: what to do about them', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const entries = Array.from({ length: 184 }, (_, i) => `- [T${i}](t${i}.md) — topic ${i}`).join('\n');
    const files: Record<string, string> = { '.claude/memory/MEMORY.md': `${ENTRY}${entries}\n` };
    for (let i = 0; i < 184; i++) files[`.claude/memory/t${i}.md`] = `---\nname: T${i}\ndescription: topic ${i}\ntype: reference\n---\nx\n`;
    files['.claude/memory/reference_lost.md'] = '---\nname: Lost\ndescription: nobody links here\ntype: reference\n---\nx\n';
    files['.claude/settings.local.json'] = JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude/memory') });
    writeFiles(repo, files);
    const r = await hook(h, repo, start(repo));
    expect(r.stderr).toBe('');
    const context = [
      'memlint: the project memory needs attention.',
      '- .claude/memory/MEMORY.md is 185/200 lines and ' + `${(ENTRY + entries).trim().length}/25000 units, close to what Claude Code loads: compact it to under 140 lines (Claude Code's own target): merge related entries and shorten hooks before adding memories (npx memlint consolidate); never delete memories to make room.`,
      '- 1 topic file has no entry in MEMORY.md, so you do not know it exists: reference_lost.md; add a one-line entry for each.',
    ].join('\n');
    expect(r.stdout).toBe(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } })}\n`);
  });

  it('an index over the limit names the entries the agent will not see, within 1,000 characters', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const entries = Array.from({ length: 240 }, (_, i) => `- [T${i}](t${i}.md) — topic ${i}`).join('\n');
    writeFiles(repo, { '.claude/memory/MEMORY.md': `${ENTRY}${entries}\n`, '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude/memory') }) });
    const r = await hook(h, repo, start(repo, 'compact'));
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context.length).toBeLessThanOrEqual(1000);
    expect(context).toContain('.claude/memory/MEMORY.md is 241/200 lines');
    expect(context).toContain('over what Claude Code loads');
    expect(context).toContain('You cannot see these entries (past the cut): t199.md, t200.md, t201.md, t202.md, t203.md and 36 more');
  });

  it('a stray store: named, with adopt as the way to bring it in', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude/memory') }) });
    const store = path.join(h.configDir, 'projects', sanitizePath(repo), 'memory');
    writeFiles(store, { 'MEMORY.md': '- [Old](old.md) — old\n', 'old.md': '---\nname: Old\ndescription: old\ntype: user\n---\nx\n' });
    const r = await hook(h, repo, start(repo));
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toBe(
      `memlint: the project memory needs attention.\n- 1 other Claude Code memory store of this repository is not in use (2 .md files): ${store}. Tell the user; "npx memlint adopt --dry-run" shows what "npx memlint adopt" would bring into the repository's memory (it removes nothing).`,
    );
  });
});

describe('shownPath', () => {
  it('shows a path inside the project relative to it (a folder named like ..notes included), any other absolute', () => {
    expect(shownPath('/p/.claude/memory/a.md', '/p')).toBe('.claude/memory/a.md');
    expect(shownPath('/p/..notes/a.md', '/p')).toBe('..notes/a.md');
    expect(shownPath('/q/a.md', '/p')).toBe('/q/a.md');
    expect(shownPath('/p', '/p')).toBe('/p');
  });
});
