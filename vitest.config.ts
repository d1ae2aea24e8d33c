import { defineConfig } from 'vitest/config';
import { vitePlugin as micromarkLinear } from './scripts/micromark-linear.mjs';

export default defineConfig({
  // The tests run micromark with the same one-pass text join as the bundles: vitest must
  // transform it rather than load it as it is.
  plugins: [micromarkLinear],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Processes, not threads: test/helpers/in-process.ts changes the working folder (process.chdir).
    pool: 'forks',
    // vitest 4 runs one fork on a 2-core machine by default; the suite is CPU-bound, so two.
    maxWorkers: 2,
    // Test files share a worker's loaded modules (each file still runs its own module): loading
    // vitest and the program once per worker instead of once per file. Safe while no test leaves
    // state behind: tests restore the working folder, the environment and every spy they set, and
    // the program keeps no state between runs that a test could see (test/helpers/in-process.ts).
    isolate: false,
    server: { deps: { inline: [/[\\/]node_modules[\\/](?:remark-parse|mdast-util-from-markdown|micromark)[\\/]/] } },
    globalSetup: ['test/helpers/global-setup.ts'],
    // A full collection after each file keeps the shared workers small (test/helpers/collect-garbage.ts).
    execArgv: ['--expose-gc'],
    setupFiles: ['test/helpers/collect-garbage.ts'],
  },
});
