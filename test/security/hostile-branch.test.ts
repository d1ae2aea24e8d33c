// A branch is untrusted input (README "Security"): checking it out or pushing it, with memlint's hooks
// installed, must run nothing it brings. Its config tries: a memlint.config.mjs (post-checkout runs
// `memlint touch`, which reads config) and a consolidate.command with the gates opened (pre-push
// runs `memlint consolidate --pre-push`). Either would create a marker file outside the repository.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, memlint, writeFiles } from '../helpers/repo.js';
import { installedWithRemote, run, topic } from '../install/helpers.js';
import { sentinel } from './helpers.js';

const gitRun = (cwd: string, args: string[]) => run(cwd, args, { HUSKY: '' });

describe('a branch whose config tries to run code', () => {
  it('git checkout of a branch with memlint.config.mjs runs none of it, and says so in one line', async () => {
    const outside = sentinel();
    const marker = join(outside.dir, 'ran-on-checkout');
    const { repo } = await installedWithRemote({ HUSKY: '' });
    git(repo, 'switch', '-q', '-c', 'evil');
    writeFiles(repo, {
      'memlint.config.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default {};\n`,
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'config');
    git(repo, 'switch', '-q', 'main');
    const before = outside.state();

    const r = gitRun(repo, ['checkout', 'evil']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('memlint.config.mjs is not read: memlint runs no code from the repository');
    for (const args of [['touch'], ['show'], ['doctor'], ['consolidate', '--check'], ['install', '--dry-run'], []]) memlint(repo, args);
    expect(existsSync(marker)).toBe(false);
    expect(outside.state()).toEqual(before);
  });

  it('git push of a branch whose .memlintrc.json sets consolidate.command and opens the gates runs nothing', async () => {
    const outside = sentinel();
    const marker = join(outside.dir, 'ran-on-push');
    const { repo } = await installedWithRemote({ HUSKY: '' });
    git(repo, 'switch', '-q', '-c', 'evil');
    writeFiles(repo, {
      '.memlintrc.json': JSON.stringify({ consolidate: { minHours: 0, minCommits: 0, command: `touch ${JSON.stringify(marker)}` } }),
      // An orphan topic: consolidation has something to do, so the agent step would be reached.
      '.claude/memory/project_orphan.md': topic('Orphan', 'project', 'A topic with no index entry', 'Body.\n'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '--no-verify', '-m', 'hostile config'); // made elsewhere, without the hooks
    const before = outside.state();

    const r = gitRun(repo, ['push', '-u', 'origin', 'evil']);
    expect(r.out).toContain('consolidate.command in');
    expect(r.out).toContain('is ignored: memlint runs no command from the repository');
    expect(existsSync(marker)).toBe(false);
    // The explicit command runs nothing from the repository either.
    memlint(repo, ['consolidate', '--force']);
    expect(existsSync(marker)).toBe(false);
    expect(outside.state()).toEqual(before);
  });

  it("the agent step runs the user's git config memlint.consolidateCommand", async () => {
    const outside = sentinel();
    const marker = join(outside.dir, 'user-command-ran');
    const { repo } = await installedWithRemote({ HUSKY: '' });
    writeFiles(repo, { '.claude/memory/project_orphan.md': topic('Orphan', 'project', 'A topic with no index entry', 'Body.\n') });
    git(repo, 'config', 'memlint.consolidateCommand', `touch ${JSON.stringify(marker)}`);
    expect(memlint(repo, ['consolidate', '--force']).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
