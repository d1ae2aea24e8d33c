// `memlint diff`: a pull request's memory change read semantically, against a bare origin. Its
// reports in this process (test/helpers/in-process.ts: the same main()); its refusals and help
// through the built CLI.
import { cpSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, git, memlint, tempDir } from '../helpers/repo.js';
import { cloneOf, entry, HEADER, hostedRepo, INDEX, MEM, topicFile } from '../merge/hosted.js';

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;

/**
 * A pull request that adds, edits, removes and archives a memory; main moved on meanwhile: the
 * runner's clone with the branch checked out, made once and copied for each test (cp -r; the
 * copies share the origin, which no test changes).
 */
let made: string | undefined;
function pullRequest(): { runner: string } {
  made ??= makePullRequest();
  const runner = tempDir('memlint-pr-');
  cpSync(made, runner, { recursive: true });
  return { runner };
}

function makePullRequest(): string {
  const h = hostedRepo({
    base: {
      [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('old_notes') + entry('stale_plan'),
      [`${MEM}/old_notes.md`]: topicFile('old_notes', 'Notes nobody reads'),
      [`${MEM}/stale_plan.md`]: topicFile('stale_plan', 'The Q3 plan'),
    },
    onMain: { 'src/app.ts': 'export const answer = 43;\n' },
    onFeature: {
      [INDEX]: HEADER + entry('user_role', 'leads the payments team') + entry('project_deploys') + entry('project_feature'),
      [`${MEM}/user_role.md`]: topicFile('user_role', 'The user leads the payments team', 'feedback'),
      [`${MEM}/project_feature.md`]: topicFile('project_feature', `Feature flags; the token ${TOKEN} is revoked`),
      [`${MEM}-archive/ARCHIVE.md`]: '# Memory archive\n\n- [stale_plan](stale_plan.md) — archived: stale\n',
      [`${MEM}-archive/stale_plan.md`]: topicFile('stale_plan', 'The Q3 plan'),
      [`${MEM}/logs/2026/11/2026-11-30.md`]: '# 2026-11-30\n\n- 09:00 moved the feature flags\n',
    },
  });
  const runner = cloneOf(h, 'runner', 'feature');
  git(runner, 'rm', '-q', `${MEM}/old_notes.md`, `${MEM}/stale_plan.md`);
  git(runner, 'commit', '-q', '-m', 'remove and archive');
  return runner;
}

/** `N/200 lines` and `M/25000 units` from `memlint show --budget`. */
async function showBudget(dir: string): Promise<{ lines: number; units: number }> {
  const r = await memlintInProcess(dir, ['show', '--budget', MEM]);
  expect(r.code, r.stderr).toBe(0);
  return { lines: Number(/(\d+)\/200 lines/.exec(r.stdout)![1]), units: Number(/(\d+)\/25000 units/.exec(r.stdout)![1]) };
}

describe('memlint diff', () => {
  it('names each topic and entry change with its verb, and measures the budget as show --budget does at both ends', async () => {
    const { runner } = pullRequest();
    const text = await memlintInProcess(runner, ['diff']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    const has = (re: RegExp) => expect(lines.some((l) => re.test(l)), `${re}\n${text.stdout}`).toBe(true);
    has(/^memory changes merge base of origin\/main and HEAD \([0-9a-f]{12}\) \.\. HEAD/);
    has(/^\.claude\/memory: topics: 1 added, 1 edited, 1 archived, 1 removed; entries: 1 added, 1 edited, 2 removed; daily logs: 1 changed$/);
    has(/^  log   added    logs\/2026\/11\/2026-11-30\.md$/);
    has(/^  topic added    project_feature\.md: type project; description "Feature flags; the token ghp_… \(40 chars\) is revoked"$/);
    has(/^  topic edited   user_role\.md: description "The user is a backend engineer" → "The user leads the payments team"; type "user" → "feedback"$/);
    has(/^  topic archived stale_plan\.md: moved to \.claude\/memory-archive\/stale_plan\.md$/);
    has(/^  topic removed  old_notes\.md: was "Notes nobody reads"$/);
    has(/^  entry added    project_feature\.md: "project_feature" — "about project_feature"$/);
    has(/^  entry edited   user_role\.md: hook "about user_role" → "leads the payments team"$/);
    has(/^  entry removed  old_notes\.md/);
    has(/^  entry removed  stale_plan\.md/);
    expect(text.stdout).not.toContain(TOKEN);

    const json = JSON.parse((await memlintInProcess(runner, ['diff', '--format', 'json'])).stdout);
    expect(json.memdirs).toHaveLength(1);
    const m = json.memdirs[0];
    expect(m.path).toBe(MEM);
    expect(m.topics.map((t: { verb: string; path: string }) => `${t.verb} ${t.path}`)).toEqual(['added project_feature.md', 'edited user_role.md', 'archived stale_plan.md', 'removed old_notes.md']);
    expect(m.topics[1]).toMatchObject({ before: { type: 'user' }, after: { type: 'feedback' }, body: false });
    expect(m.logs).toEqual({ added: ['logs/2026/11/2026-11-30.md'], changed: [], removed: [] });
    expect(m.budget.limits).toEqual({ lines: 200, units: 25000 });
    expect(JSON.stringify(json)).not.toContain(TOKEN);

    // The budget at both ends equals what `show --budget` says with each end checked out.
    const after = await showBudget(runner);
    git(runner, 'checkout', '-q', '--detach', json.baseCommit);
    const before = await showBudget(runner);
    expect(m.budget.before).toEqual(before);
    expect(m.budget.after).toEqual(after);
    expect(before).not.toEqual(after);
  });

  it('writes Markdown whose repository text cannot format or mention anything', async () => {
    const { runner } = pullRequest();
    commitFiles(runner, { [`${MEM}/project_sneaky.md`]: topicFile('project_sneaky', 'ping @everyone | <img src=x> `tick`') }, 'sneaky');
    const r = await memlintInProcess(runner, ['diff', 'origin/main...HEAD', '--format', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^### Memory changes: `merge base of origin\/main and HEAD` → `HEAD`\n/);
    expect(r.stdout).toContain('| topic | **archived** | `stale_plan.md` | moved to `.claude/memory-archive/stale_plan.md` |');
    expect(r.stdout).toContain('| topic | **added** | `project_sneaky.md` | type project; description `` ping @everyone \\| <img src=x> `tick` `` |');
    expect(r.stdout).toMatch(/\| lines \| \d+ \| \d+ \| 200 \|/);
  });

  it('finds the archive where config consolidate.archiveDir puts it', async () => {
    const { runner } = pullRequest();
    commitFiles(runner, { '.memlintrc.json': '{ "consolidate": { "archiveDir": "../old-memory" } }\n' }, 'config');
    git(runner, 'rm', '-q', `${MEM}/user_role.md`);
    commitFiles(runner, { '.claude/old-memory/user_role.md': topicFile('user_role', 'The user leads the payments team', 'feedback') }, 'archive user_role');
    const json = JSON.parse((await memlintInProcess(runner, ['diff', 'HEAD~1..HEAD', '--format', 'json'])).stdout);
    expect(json.memdirs[0].topics).toEqual([expect.objectContaining({ verb: 'archived', path: 'user_role.md', to: '.claude/old-memory/user_role.md' })]);
  });

  it('takes BASE..HEAD literally, reports no change as none, and refuses what it cannot read', () => {
    const { runner } = pullRequest();
    expect(memlint(runner, ['diff', 'HEAD..HEAD']).stdout).toMatch(/: none\n$/);
    expect(memlint(runner, ['diff', 'HEAD~1..HEAD', '--format', 'json']).stdout).toContain('"verb": "removed"');
    const bad = memlint(runner, ['diff', 'nope..HEAD']);
    expect(bad).toMatchObject({ code: 2, stderr: 'memlint: BASE nope: no such branch or commit here (fetch it first)\n' });
    expect(memlint(runner, ['diff', '--format', 'html']).stderr).toBe('memlint: --format must be text, markdown or json, got "html"\n');
    expect(memlint(runner, ['diff', '--help']).stdout).toContain('Usage: memlint diff [RANGE] [--format text|markdown|json]');
  });

  it('measures against origin/main when git has not recorded origin/HEAD (a clone made before the first push)', () => {
    const { runner } = pullRequest();
    git(runner, 'remote', 'set-head', 'origin', '-d');
    const r = memlint(runner, ['diff']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^memory changes merge base of origin\/main and HEAD/);
    // With origin/master as well, the default branch is unknown: it says how to name it.
    git(runner, 'update-ref', 'refs/remotes/origin/master', 'origin/main');
    expect(memlint(runner, ['diff']).stderr).toBe('memlint: origin/HEAD is not set, so the default branch is unknown: give a range (memlint diff origin/main...HEAD), or run "git remote set-head origin --auto"\n');
  });
});
