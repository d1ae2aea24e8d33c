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
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
