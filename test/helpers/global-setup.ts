// Once per test run: build dist/ (end-to-end tests drive the real CLI bundle), make the empty
// repository that initRepo (test/helpers/repo.ts) copies for every test repository, and a scratch
// folder for what test files share (the npm-packed package, test/merge/hosted.ts). Every temporary
// folder of the run, the tests' and those of the git, npm and memlint processes they start, is
// made inside one folder (TMPDIR, which the workers and their children inherit), removed when the
// run ends; MEMLINT_KEEP_TMP=1 keeps it to look at after a failure.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { makeRepoTemplate, tempDir } from './repo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    repoTemplate: string;
    /** A folder for this run only, removed at its end: what test files make once and share. */
    runScratch: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const run = realpathSync(mkdtempSync(join(tmpdir(), 'memlint-tests-')));
  // Open to everyone as the system's own temporary folder is: test/cli/bad-input.test.ts runs the
  // CLI as an unprivileged user.
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  const template = makeRepoTemplate();
  const scratch = tempDir('memlint-run-');
  project.provide('repoTemplate', template);
  project.provide('runScratch', scratch);
  return () => {
    if (process.env.MEMLINT_KEEP_TMP === '1') process.stderr.write(`memlint tests: temporary folders kept in ${run}\n`);
    else rmSync(run, { recursive: true, force: true });
  };
}
