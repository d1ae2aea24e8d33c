import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { vitePlugin as micromarkLinear } from './scripts/micromark-linear.mjs';
import { vitePlugin as secretlintLinear } from './scripts/secretlint-linear.mjs';
import { vitePlugin as diff3Linear } from './scripts/node-diff3-linear.mjs';

// The end-to-end files (npm installs, real hooks, the packed package) take seconds each: they
// start first, so neither worker is left running one alone at the end. vitest orders files by
// their last durations when it has them, and by size when it does not (a fresh clone, as CI's),
// which left the 6 s npm install test to start last.
const END_TO_END = /[\\/]test[\\/](?:install|action)[\\/]|[\\/](?:one-program|update-branch|hostile-branch|consolidate[\\/]cli)\.test\.ts$/;

/**
 * The second tier, `npm run test:e2e` (vitest.e2e.config.ts), run by .ci/run right after npm test:
 * the files whose job is to install or drive an external tool (npm pack, npm ci and npm install of
 * the tarball, Debian's pre-commit try-repo, the GitHub action's npm install, claude plugin
 * validate). Each takes tens of seconds of npm or pre-commit, more than the rest of the suite.
 */
export const INSTALLS = [
  'test/install/package.test.ts',
  'test/install/pre-commit.test.ts',
  'test/install/npm-week.test.ts',
  'test/install/prepare-omit-dev.test.ts',
  'test/install/claude-plugin.test.ts',
  'test/action/action.test.ts',
];

class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => END_TO_END.test(f.moduleId)), ...sorted.filter((f) => !END_TO_END.test(f.moduleId))];
  }
}

export default defineConfig({
  // The tests run micromark with the same linear patches as the bundles (the one-pass text join,
  // the code (text) runs remembered), secretlint with its one-pass duplicate filter and node-diff3
  // with its halving search: vitest must transform them rather than load them as they are.
  plugins: [micromarkLinear, secretlintLinear, diff3Linear],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...INSTALLS],
    // A guard against a hang, not a measure of speed: a test must pass on a machine busy enough to
    // run it ten times slower than a quiet one.
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // vitest 4 runs one fork on a 2-core machine by default; the suite is CPU-bound, so two.
    maxWorkers: 2,
    // Test files share a worker's loaded modules (each file still runs its own module): loading
    // vitest and the program once per worker instead of once per file. Safe while no test leaves
    // state behind: in-process runs borrow no working folder, environment or stream (they hand the
    // program a context of their own), and the program keeps no state between runs that a test
    // could see (test/helpers/in-process.ts).
    isolate: false,
    server: { deps: { inline: [/[\\/]node_modules[\\/](?:remark-parse|mdast-util-from-markdown|micromark|micromark-core-commonmark|@secretlint[\\/]core|node-diff3)[\\/]/] } },
    globalSetup: ['test/helpers/global-setup.ts'],
    sequence: { sequencer: EndToEndFirst },
    // A full collection after a file that leaves a big heap keeps the shared workers small
    // (test/helpers/collect-garbage.ts). A larger young generation than V8's default: the workers
    // allocate far more than a CLI run, mostly short-lived (parsed documents, git's output), and
    // each scavenge of a small one copies what is still alive; with room for a whole test's
    // garbage, most of it dies before a scavenge comes.
    execArgv: ['--expose-gc', '--max-semi-space-size=64'],
    setupFiles: ['test/helpers/collect-garbage.ts'],
  },
});
