// Once per test run: build dist/ unless it was built from these very sources (end-to-end tests drive
// the real CLI bundle), make the empty repository that initRepo (test/helpers/repo.ts) copies for
// every test repository, and a scratch folder for what test files share (the npm-packed package,
// test/merge/hosted.ts). Every temporary folder of the run, the tests' and those of the git, npm
// and memlint processes they start, is made inside one folder (TMPDIR, which the workers and their
// children inherit), removed once the run ends (by a process of its own); MEMLINT_KEEP_TMP=1 keeps
// it to look at after a failure. Repositories are made from a git template without the sample hooks.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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

/**
 * Nothing the machine happens to hold reaches a test: HOME is a folder of the run's own, whose
 * .gitconfig holds an identity, maintenance.auto = false and receive.autogc = false and nothing
 * else, git reads no system config, so a developer's ~/.claude settings, ~/.gitconfig hooks or
 * aliases change no result. npm keeps the cache and user config it had (the tests' npm runs are
 * --offline, from what npm ci cached).
 */
function hermeticHome(run: string): void {
  const home = join(run, 'home');
  mkdirSync(home);
  process.env.npm_config_cache ??= join(homedir(), '.npm');
  process.env.npm_config_userconfig ??= join(homedir(), '.npmrc');
  // maintenance.auto off: git starts no `git maintenance run --auto` after each commit, merge,
  // fetch or rebase (a second process for every commit of the run; the repositories are too small
  // for it ever to do anything). receive.autogc off: nor a `git gc --auto` after each push.
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = memlint tests\n\temail = tests@memlint.invalid\n[maintenance]\n\tauto = false\n[receive]\n\tautogc = false\n');
  delete process.env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.CLAUDE_CONFIG_DIR;
}

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // Built again only when dist/ was not built from these very sources (CI has just built it).
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-changed'], { cwd: root, stdio: 'inherit' });
  const run = realpathSync(mkdtempSync(join(tmpdir(), 'memlint-tests-')));
  // Open to everyone as the system's own temporary folder is: test/cli/bad-input.test.ts runs the
  // CLI as an unprivileged user.
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  // Repositories made without git's sample hooks: a template of only info/exclude, which git's own
  // template also has. About 15 fewer files for every git init, clone and initRepo copy to write,
  // and for the end of the run to remove.
  const gitTemplate = tempDir('memlint-git-template-');
  mkdirSync(join(gitTemplate, 'info'));
  writeFileSync(
    join(gitTemplate, 'info', 'exclude'),
    "# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\n",
  );
  process.env.GIT_TEMPLATE_DIR = gitTemplate;
  hermeticHome(run);
  // Node 20 loads the certificates NODE_EXTRA_CA_CERTS names when it starts, before any code runs,
  // whether or not the process ever opens a TLS connection: on this machine, where it is set,
  // `node -e 0` takes 52 ms of CPU with it and 17 ms without. The run starts ~700 Node processes
  // (workers, the CLI under git's hooks and driver, npm) and none of them connects anywhere (npm
  // runs --offline), so they start without it: npm test went from ~57 s to ~47 s.
  delete process.env.NODE_EXTRA_CA_CERTS;
  const template = makeRepoTemplate();
  const scratch = tempDir('memlint-run-');
  project.provide('repoTemplate', template);
  project.provide('runScratch', scratch);
  return () => {
    if (process.env.MEMLINT_KEEP_TMP === '1') process.stderr.write(`memlint tests: temporary folders kept in ${run}\n`);
    // Removed by a process of its own that outlives the run: its 100,000-odd entries take 2-3 s to
    // remove, which npm test need not wait for.
    else spawn(process.execPath, ['-e', `require('node:fs').rmSync(${JSON.stringify(run)}, { recursive: true, force: true })`], { detached: true, stdio: 'ignore' }).unref();
  };
}
