// `memlint resolve --ours|--theirs|--both [--entry WHAT]` under real git, with the driver active:
// the true conflicts it left are settled by choice, per file and per entry; without a choice each
// conflict is one line with the command that settles it (contract §10).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markedBlocks, settleBlocks } from '../../src/merge/choose.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { CLI, git, initRepo, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const INDEX = `${MEM}/MEMORY.md`;
const TESTING = `${MEM}/feedback_testing.md`;
const ROLE = `${MEM}/user_role.md`;
const topic = (name: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${name}\ntype: ${type}\n---\n\n${body}`;
const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');

/** A new repository, memlint's driver configured unless `driver` is false, and a commit of files to it. */
function scratch(driver = true): { dir: string; commit: (files: Record<string, string>, m: string) => void } {
  const dir = initRepo();
  if (driver) git(dir, 'config', 'merge.memlint.driver', `node ${JSON.stringify(CLI)} merge %O %A %B %L %P`);
  const commit = (files: Record<string, string>, m: string) => {
    writeFiles(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', m);
  };
  return { dir, commit };
}

/** Both branches edit one index entry's hook and one line of a topic: two true conflicts the driver leaves. */
function conflicted(): string {
  const { dir, commit } = scratch();
  const index = (hook: string) => `# Memory\n\n- [Testing](feedback_testing.md) — ${hook}\n- [Role](user_role.md) — lead\n`;
  commit({ '.gitattributes': `${MEM}/*.md merge=memlint\n`, [INDEX]: index('real db'), [TESTING]: topic('Testing', 'feedback', 'Use a real db.\n'), [ROLE]: topic('Role', 'user', 'Lead.\n') }, 'base');
  git(dir, 'checkout', '-q', '-b', 'other');
  commit({ [INDEX]: index('mocks are fine for unit tests'), [ROLE]: topic('Role', 'user', 'Lead of payments.\n') }, 'other');
  git(dir, 'checkout', '-q', 'main');
  commit({ [INDEX]: index('integration tests hit a real database'), [ROLE]: topic('Role', 'user', 'Lead of billing.\n') }, 'main');
  expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
  return dir;
}

describe('memlint resolve with a choice', () => {
  it('without a choice: one line per conflict with the command that settles it, exit 1, nothing changed', async () => {
    const dir = conflicted();
    const before = [read(dir, INDEX), read(dir, ROLE)];
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `conflict  ${INDEX}:3 (feedback_testing.md: edited on both sides); settle it: memlint resolve --ours|--theirs|--both --entry feedback_testing.md ${INDEX}`,
        `conflict  ${ROLE}:7 (user_role.md line 7: edited on both sides); settle it: memlint resolve --ours|--theirs|--both --entry 'user_role.md line 7' ${ROLE}`,
        '',
      ].join('\n'),
    );
    expect([read(dir, INDEX), read(dir, ROLE)]).toEqual(before);
  });

  it("--both on an entry keeps ours' entry and moves theirs' hook into the topic; --theirs settles the rest; the merge commits", async () => {
    const dir = conflicted();
    const both = await memlintInProcess(dir, ['resolve', '--both', '--entry', 'feedback_testing.md']);
    expect(both.code).toBe(1); // user_role.md is still in conflict
    expect(both.stdout).toContain(`resolved  ${INDEX}\n`);
    expect(both.stdout).toContain(`conflict  ${ROLE}:7 `);
    expect(read(dir, INDEX)).toBe('# Memory\n\n- [Testing](feedback_testing.md) — integration tests hit a real database\n- [Role](user_role.md) — lead\n');
    expect(read(dir, TESTING)).toBe(topic('Testing', 'feedback', 'Use a real db.\n\n## From the index\n\nmocks are fine for unit tests\n'));
    expect(git(dir, 'diff', '--name-only', '--cached')).toContain(TESTING);
    const theirs = await memlintInProcess(dir, ['resolve', '--theirs', ROLE]);
    expect(theirs).toMatchObject({ code: 0, stdout: `resolved  ${ROLE}\n` });
    expect(read(dir, ROLE)).toBe(topic('Role', 'user', 'Lead of payments.\n'));
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U')).toBe('');
    git(dir, 'commit', '-q', '--no-edit');
    // Settled: a second run has nothing to do.
    expect(await memlintInProcess(dir, ['resolve'])).toMatchObject({ code: 0, stdout: 'nothing to resolve\n' });
  });

  it('an --entry that names no conflict says so, with the labels there are, and changes nothing (a user trial)', async () => {
    const dir = conflicted();
    const before = [read(dir, INDEX), read(dir, ROLE)];
    const r = await memlintInProcess(dir, ['resolve', '--ours', '--entry', 'testing']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('memlint: no conflict is labelled "testing"; the conflicts left are labelled "feedback_testing.md", "user_role.md line 7"\n');
    expect([read(dir, INDEX), read(dir, ROLE)]).toEqual(before);
  });

  it('--ours for a whole file; a choice is one of three, and --entry needs one', async () => {
    const dir = conflicted();
    expect(await memlintInProcess(dir, ['resolve', '--ours', INDEX])).toMatchObject({ code: 0, stdout: `resolved  ${INDEX}\n` });
    expect(read(dir, INDEX)).toContain('— integration tests hit a real database\n');
    expect(read(dir, INDEX)).not.toContain('<<<<<<<');
    expect(await memlintInProcess(dir, ['resolve', '--ours', '--theirs'])).toMatchObject({ code: 2, stderr: 'memlint: choose one of --ours, --theirs and --both (see "memlint resolve --help")\n' });
    expect(await memlintInProcess(dir, ['resolve', '--entry', 'x.md'])).toMatchObject({ code: 2, stderr: 'memlint: --entry needs a choice: --ours, --theirs or --both\n' });
  });

  it('--both on a frontmatter key is refused for that key (it holds one value), with the command that settles it', async () => {
    const { dir, commit } = scratch();
    commit({ '.gitattributes': `${MEM}/*.md merge=memlint\n`, [INDEX]: '- [Role](user_role.md) — lead\n', [ROLE]: topic('Role', 'user', 'Lead.\n') }, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    commit({ [ROLE]: topic('Role', 'user', 'Lead.\n').replace('description: Role', 'description: Lead of payments') }, 'other');
    git(dir, 'checkout', '-q', 'main');
    commit({ [ROLE]: topic('Role', 'user', 'Lead.\n').replace('description: Role', 'description: Lead of billing') }, 'main');
    expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
    const r = await memlintInProcess(dir, ['resolve', '--both']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^conflict {2}\.claude\/memory\/user_role\.md:3 \(description: edited on both sides\): a frontmatter key holds one value: choose --ours or --theirs; settle it: memlint resolve --ours\|--theirs --entry description \.claude\/memory\/user_role\.md\n$/);
    expect(await memlintInProcess(dir, ['resolve', '--theirs', '--entry', 'description'])).toMatchObject({ code: 0 });
    expect(read(dir, ROLE)).toContain('description: Lead of payments\n');
  });
});

describe('--both in an index keeps every word of theirs', () => {
  it("moves theirs' title into the topic when ours' entry names the topic otherwise (fourteenth held-out set)", () => {
    const text = '<<<<<<< ours\n- [Fiscal calendar](fiscal.md) — the ledger closes in March\n=======\n- [Export is template-driven (#41)](fiscal.md) — the ledger closes in March\n>>>>>>> theirs\n';
    const topicText = '---\nname: Fiscal calendar\ndescription: d\ntype: project\n---\nBody.\n';
    const settled = settleBlocks(text, markedBlocks(text)!, () => 'both', { index: true, topicOf: () => ({ rel: 'fiscal.md', text: topicText }) });
    expect(settled.text).toBe('- [Fiscal calendar](fiscal.md) — the ledger closes in March\n');
    expect(settled.topics.get('fiscal.md')).toBe(`${topicText}\n## From the index\n\nExport is template-driven (#41)\n`);
  });
});

/**
 * Both branches edit one index entry's hook and the same line of that entry's topic: git's own line
 * merge (no driver) leaves both files in conflict. `rebase`: the branch is rebased instead of merged.
 */
function entryAndTopicInConflict(how: 'merge' | 'rebase'): string {
  const { dir, commit } = scratch(false);
  const index = (hook: string) => `# Memory\n\n- [Build](build.md) — ${hook}\n`;
  const build = (line: string) => topic('Build', 'project', `${line}\n- step two\n`);
  commit({ [INDEX]: index('how we build'), [`${MEM}/build.md`]: build('We build with make.') }, 'base');
  git(dir, 'checkout', '-q', '-b', 'other');
  commit({ [INDEX]: index('how we build with bazel'), [`${MEM}/build.md`]: build('We build with bazel.') }, 'other');
  git(dir, 'checkout', '-q', 'main');
  commit({ [INDEX]: index('how we build with make'), [`${MEM}/build.md`]: build('We build with make -j8.') }, 'main');
  if (how === 'merge') expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
  else {
    git(dir, 'checkout', '-q', 'other');
    expect(() => git(dir, 'rebase', '-q', 'main')).toThrow();
  }
  return dir;
}

const unmergedFiles = (dir: string) => git(dir, 'diff', '--name-only', '--diff-filter=U').trim().split('\n').filter(Boolean);

describe('resolve --both moves a hook only into a topic that can keep it (a team trial, December 2026)', () => {
  it("with no path: the topic is settled first, so theirs' hook moved into it is kept, and both are staged", async () => {
    const dir = entryAndTopicInConflict('merge');
    const r = await memlintInProcess(dir, ['resolve', '--both']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`resolved  ${INDEX}\nresolved  ${MEM}/build.md\n`);
    expect(read(dir, INDEX)).toBe('# Memory\n\n- [Build](build.md) — how we build with make\n');
    expect(read(dir, `${MEM}/build.md`)).toBe(topic('Build', 'project', 'We build with make -j8.\nWe build with bazel.\n- step two\n\n## From the index\n\nhow we build with bazel\n'));
    expect(unmergedFiles(dir)).toEqual([]);
  });

  it('the index alone: an entry whose topic is still in conflict is left, and the topic stays unmerged and untouched', async () => {
    const dir = entryAndTopicInConflict('merge');
    const topicBefore = read(dir, `${MEM}/build.md`);
    const r = await memlintInProcess(dir, ['resolve', '--both', INDEX]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${MEM}/build.md is in conflict itself: settle it first, then this entry`);
    expect(read(dir, `${MEM}/build.md`)).toBe(topicBefore);
    expect(unmergedFiles(dir)).toEqual([INDEX, `${MEM}/build.md`]);
  });

  it('in a rebase, a topic added with its markers is settled against the picked commit and its parent: the line both sides edited stays a conflict', async () => {
    const dir = entryAndTopicInConflict('rebase');
    git(dir, 'add', `${MEM}/build.md`);
    const r = await memlintInProcess(dir, ['resolve', `${MEM}/build.md`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`conflict  ${MEM}/build.md:7 (build.md line 7: edited on both sides)`);
    expect(read(dir, `${MEM}/build.md`)).toContain('<<<<<<< ours');
  });
});

describe('resolve --both never keeps an entry whose topic file the merge deletes (a team trial, December 2026)', () => {
  it('deleted with its topic on one side, edited on the other: --both is refused for it; --ours drops it', async () => {
    const { dir, commit } = scratch();
    const index = (entries: string[]) => `# Memory\n\n${entries.join('\n')}\n`;
    const keep = '- [Keep](keep.md) — kept';
    commit({ '.gitattributes': `${MEM}/*.md merge=memlint\n`, [INDEX]: index([keep, '- [Old](old.md) — old note']), [`${MEM}/keep.md`]: topic('Keep', 'project', 'Keep.\n'), [`${MEM}/old.md`]: topic('Old', 'project', 'Old.\n') }, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    commit({ [INDEX]: index([keep, '- [Old](old.md) — old note, still true']) }, 'edit');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'rm', '-q', `${MEM}/old.md`);
    commit({ [INDEX]: index([keep]) }, 'delete');
    expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
    // Without a choice, the command offered is one that can settle it.
    const plain = await memlintInProcess(dir, ['resolve']);
    expect(plain.stdout).toContain('settle it: memlint resolve --ours|--theirs --entry old.md');
    const both = await memlintInProcess(dir, ['resolve', '--both']);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('old.md has no topic file here (the merge deletes it): --ours or --theirs chooses whether its entry stays; settle it: memlint resolve --ours|--theirs --entry old.md');
    expect(read(dir, INDEX)).toContain('<<<<<<< ours');
    const ours = await memlintInProcess(dir, ['resolve', '--ours']);
    expect(ours.code).toBe(0);
    expect(read(dir, INDEX)).toBe(index([keep]));
  });
});

/** Two entries of one index, each edited differently on both sides; `driver`: the merge ran memlint's driver. */
function twoEntriesInConflict(driver: boolean): string {
  const { dir, commit } = scratch(driver);
  // Lines enough between the two that git's own line merge leaves two blocks, as the driver does.
  const index = (testing: string, style: string) => `# Memory\n\n- [Testing](feedback_testing.md) — ${testing}\n\n## Project\n\n- [Deploy](project_deploy.md) — the release train\n\n## Feedback\n\n- [Style](feedback_style.md) — ${style}\n`;
  commit({ ...(driver ? { '.gitattributes': `${MEM}/*.md merge=memlint\n` } : {}), [INDEX]: index('tests', 'style'), [TESTING]: topic('Testing', 'feedback', 'Tests.\n'), [`${MEM}/feedback_style.md`]: topic('Style', 'feedback', 'Style.\n'), [`${MEM}/project_deploy.md`]: topic('Deploy', 'project', 'Train.\n') }, 'base');
  git(dir, 'checkout', '-q', '-b', 'other');
  commit({ [INDEX]: index('tests hit the A db', 'A style') }, 'other');
  git(dir, 'checkout', '-q', 'main');
  commit({ [INDEX]: index('tests hit the B db', 'B style') }, 'main');
  expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
  return dir;
}

/** The index's text with the conflict block holding `key` replaced by `line`. */
function settleByHand(dir: string, key: string, line: string): void {
  const lines = read(dir, INDEX).split('\n');
  const starts = lines.flatMap((l, i) => (l.startsWith('<<<<<<<') ? [i] : []));
  const start = starts.find((i) => lines.slice(i, lines.findIndex((l, j) => j > i && l.startsWith('>>>>>>>')) + 1).some((l) => l.includes(`(${key})`)))!;
  const end = lines.findIndex((l, j) => j > start && l.startsWith('>>>>>>>'));
  lines.splice(start, end - start + 1, line);
  writeFileSync(join(dir, INDEX), lines.join('\n'));
}

describe("resolve keeps what the person did in a file still in conflict (a user trial, December 2026)", () => {
  it.each([true, false])('a block settled by hand and a line added stay; the other block takes the choice (driver: %s)', async (driver) => {
    const dir = twoEntriesInConflict(driver);
    settleByHand(dir, 'feedback_testing.md', '- [Testing](feedback_testing.md) — HAND: the A db locally, the B db in CI');
    writeFileSync(join(dir, INDEX), `${read(dir, INDEX)}- [Fresh](project_fresh.md) — written during the merge\n`);
    writeFiles(dir, { [`${MEM}/project_fresh.md`]: topic('Fresh', 'project', 'New.\n') });
    const r = await memlintInProcess(dir, ['resolve', '--theirs']);
    expect(r.code, r.stdout).toBe(0);
    const text = read(dir, INDEX);
    expect(text).toContain('— HAND: the A db locally, the B db in CI\n');
    expect(text).toContain('- [Fresh](project_fresh.md) — written during the merge\n');
    expect(text).toContain('- [Style](feedback_style.md) — A style\n');
    expect(text).not.toContain('<<<<<<<');
    expect(unmergedFiles(dir)).toEqual([]);
  });

  it('every block settled by hand: staged as it is', async () => {
    const dir = twoEntriesInConflict(false);
    settleByHand(dir, 'feedback_testing.md', '- [Testing](feedback_testing.md) — HAND one');
    settleByHand(dir, 'feedback_style.md', '- [Style](feedback_style.md) — HAND two');
    const mine = read(dir, INDEX);
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toBe(`resolved  ${INDEX}\n`);
    expect(read(dir, INDEX)).toBe(mine);
    expect(unmergedFiles(dir)).toEqual([]);
  });

  it.each([true, false])('one --entry choice after another: each stands (driver: %s)', async (driver) => {
    const dir = twoEntriesInConflict(driver);
    const first = await memlintInProcess(dir, ['resolve', '--ours', '--entry', 'feedback_testing.md']);
    expect(first.code).toBe(1);
    const second = await memlintInProcess(dir, ['resolve', '--theirs', '--entry', 'feedback_style.md']);
    expect(second.code, second.stdout).toBe(0);
    const text = read(dir, INDEX);
    expect(text).toContain('- [Testing](feedback_testing.md) — tests hit the B db\n');
    expect(text).toContain('- [Style](feedback_style.md) — A style\n');
    expect(unmergedFiles(dir)).toEqual([]);
  });

  it.each([true, false])('a block settled by hand but for a marker line left: not staged, the line named, exit 1 (a second trial; driver: %s)', async (driver) => {
    const dir = twoEntriesInConflict(driver);
    settleByHand(dir, 'feedback_testing.md', '- [Testing](feedback_testing.md) — HAND\n=======');
    settleByHand(dir, 'feedback_style.md', '- [Style](feedback_style.md) — HAND too');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^conflict {2}\.claude\/memory\/MEMORY\.md: a conflict marker line is left at line 4 /m);
    expect(unmergedFiles(dir)).toEqual([INDEX]);
  });

  it('a revert stopped on the index, a line added by hand: settled against the file\'s own base, so the revert\'s deletion stands (a second trial)', async () => {
    const { dir, commit } = scratch(false);
    const index = (testing: string, extra = '') => `# Memory\n\n- [Testing](feedback_testing.md) — ${testing}\n${extra}\n## Project\n\n- [Role](user_role.md) — the user\n`;
    commit({ [INDEX]: index('a real database') }, 'base');
    commit({ [INDEX]: index('X', '- [E](e.md) — added by X\n') }, 'X');
    commit({ [INDEX]: index('Y', '- [E](e.md) — added by X\n') }, 'Y');
    expect(() => git(dir, 'revert', '--no-edit', 'HEAD~1')).toThrow();
    writeFileSync(join(dir, INDEX), read(dir, INDEX).replace('# Memory\n', '# Memory\n- [Person](person.md) — added during the revert\n'));
    const r = await memlintInProcess(dir, ['resolve', '--ours']);
    expect(r.code, r.stdout).toBe(0);
    expect(read(dir, INDEX)).toBe('# Memory\n- [Person](person.md) — added during the revert\n\n- [Testing](feedback_testing.md) — Y\n\n## Project\n\n- [Role](user_role.md) — the user\n');
  });

  it('a cherry-pick the driver merged, left untouched, settles as the driver left it: the entry deleted with its topic is still a conflict (a second trial)', async () => {
    const { dir, commit } = scratch(true);
    const index = (testing: string, deploy: string | null) => `# Memory\n\n- [Testing](feedback_testing.md) — ${testing}\n\n## Project\n\n${deploy === null ? '' : `- [Deploy](project_deploy.md) — ${deploy}\n`}`;
    commit({ '.gitattributes': `${MEM}/*.md merge=memlint\n`, [INDEX]: index('a real db', 'staging'), [TESTING]: topic('Testing', 'feedback', 'Tests.\n'), [`${MEM}/project_deploy.md`]: topic('Deploy', 'project', 'Staging.\n') }, 'base');
    git(dir, 'checkout', '-q', '-b', 'feat');
    git(dir, 'rm', '-q', `${MEM}/project_deploy.md`);
    commit({ [INDEX]: index('the feat db', null) }, 'feat');
    git(dir, 'checkout', '-q', 'main');
    commit({ [INDEX]: index('the main db', 'prod') }, 'main');
    expect(() => git(dir, 'cherry-pick', 'feat')).toThrow();
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('(project_deploy.md: deleted with its topic file in theirs, edited in ours)');
  });

  it('marker lines of the file\'s own text (a heading\'s underline, an example in a code block) are text: the conflict settled by hand is staged as it is (a third trial)', async () => {
    const { dir, commit } = scratch(false);
    const body = (status: string) => `Notes\n=======\n\nStatus: ${status}.\n\nWhat git writes:\n\n\`\`\`text\n<<<<<<< HEAD\nour line\n=======\ntheir line\n>>>>>>> feat\n\`\`\`\n`;
    commit({ [INDEX]: '- [Testing](feedback_testing.md) — tests\n', [TESTING]: topic('Testing', 'feedback', body('open')) }, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    commit({ [TESTING]: topic('Testing', 'feedback', body('closed by them')) }, 'other');
    git(dir, 'checkout', '-q', 'main');
    commit({ [TESTING]: topic('Testing', 'feedback', body('closed by us')) }, 'main');
    expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
    const settledText = topic('Testing', 'feedback', body('closed, by both'));
    writeFileSync(join(dir, TESTING), settledText);
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout).toBe(0);
    expect(read(dir, TESTING)).toBe(settledText);
    expect(unmergedFiles(dir)).toEqual([]);
  });

  it('marker size 10: a separator left of a block settled by hand keeps the file in conflict (a third trial)', async () => {
    const { dir, commit } = scratch(false);
    commit({ '.gitattributes': `${MEM}/*.md conflict-marker-size=10\n`, [INDEX]: '- [Testing](feedback_testing.md) — tests\n', [TESTING]: topic('Testing', 'feedback', 'Use a real db.\n') }, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    commit({ [TESTING]: topic('Testing', 'feedback', 'Use mocks.\n') }, 'other');
    git(dir, 'checkout', '-q', 'main');
    commit({ [TESTING]: topic('Testing', 'feedback', 'Use the staging db.\n') }, 'main');
    expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
    writeFileSync(join(dir, TESTING), read(dir, TESTING).replace(/^<{10} .*\n/m, '').replace(/^>{10} .*\n/m, ''));
    expect(read(dir, TESTING)).toContain('==========\n');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('a conflict marker line is left at line');
    expect(unmergedFiles(dir)).toEqual([TESTING]);
  });

  it('a file the person deleted during the conflict is not written back; `resolve .` at the top is the whole repository (a third trial)', async () => {
    const dir = twoEntriesInConflict(false);
    const all = await memlintInProcess(dir, ['resolve', '.']);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`conflict  ${INDEX}:`);
    rmSync(join(dir, INDEX));
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`conflict  ${INDEX}: deleted in the working tree while in conflict`);
    expect(existsSync(join(dir, INDEX))).toBe(false);
    expect(unmergedFiles(dir)).toEqual([INDEX]);
  });
});
