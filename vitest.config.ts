import { defineConfig } from 'vitest/config';

export default defineConfig({
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
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
