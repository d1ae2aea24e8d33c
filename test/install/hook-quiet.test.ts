// The hooks that give memory files their mtimes back (post-checkout, post-merge, post-rewrite run
// `memlint touch`) print nothing when all went well: a checkout is not the place for a report of
// mtimes set (trial, cosmetic: "memlint touch: set N mtimes" on every checkout, even
// `git checkout -- .memlintrc.json`). `memlint touch` by hand (in this process: test/helpers/in-process.ts) still says what it did.
import { describe, expect, it } from 'vitest';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git } from '../helpers/repo.js';
import { project, run } from './helpers.js';

const env = { MEMLINT_TODAY: '2026-11-29', HUSKY: '' };
const ROLE = '.claude/memory/user_role.md';

describe('touch from the hooks', () => {
  it('a checkout and a merge that set mtimes print nothing; touch by hand still reports', async () => {
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'memlint install');
    git(dir, 'switch', '-q', '-c', 'side');
    writeFileSync(join(dir, ROLE), '---\nname: Role\ndescription: Backend lead on payments\ntype: user\n---\n\nReads diffs first.\n');
    const dated = { ...env, GIT_AUTHOR_DATE: '2022-05-01T00:00:00Z', GIT_COMMITTER_DATE: '2022-05-01T00:00:00Z' };
    expect(run(dir, ['commit', '-q', '-am', 'role'], dated).code).toBe(0);

    const back = run(dir, ['checkout', '-q', 'main'], env);
    expect(back).toEqual({ code: 0, out: '' });
    const there = run(dir, ['checkout', '-q', 'side'], env);
    expect(there).toEqual({ code: 0, out: '' });
    // The hook did its work, silently: the file has its commit's date, not the checkout's.
    expect(statSync(join(dir, ROLE)).mtime.toISOString()).toBe('2022-05-01T00:00:00.000Z');
    expect(run(dir, ['checkout', '-q', '--', '.gitignore'], env)).toEqual({ code: 0, out: '' });
    git(dir, 'switch', '-q', 'main');
    expect(run(dir, ['merge', '-q', '--no-edit', 'side'], env)).toEqual({ code: 0, out: '' });

    // By hand, touch says what it set.
    utimesSync(join(dir, ROLE), new Date(), new Date());
    const byHand = await memlintInProcess(dir, ['touch']);
    expect(byHand.code).toBe(0);
    expect(byHand.stdout).toMatch(/^memlint touch: set 1 mtime \(0 from "modified", 1 from commits\) in 1 memory folder\n$/);
  });
});
