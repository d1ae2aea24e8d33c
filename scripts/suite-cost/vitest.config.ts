// What each test file of `npm test` costs (docs/development.md, "What the suite costs"): the main
// tier as vitest.config.ts runs it, plus a setup file that writes each file's CPU seconds. Run it
// under strace to count the processes each file starts; report.mjs puts the two together.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    root: new URL('../..', import.meta.url).pathname,
    setupFiles: [...(base.test!.setupFiles as string[]), 'scripts/suite-cost/file-cpu.ts'],
  },
});
