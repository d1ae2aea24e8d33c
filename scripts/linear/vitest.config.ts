// `npm run bench`'s last step: time grows linearly with input. These checks compare times (a run
// at 10 KB against one at 100 KB), so they live here and not in `npm test`, where a busy machine
// would fail them; the bench runs when the machine is quiet enough to measure.
import { defineConfig } from 'vitest/config';
import { vitePlugin as micromarkLinear } from '../micromark-linear.mjs';
import { vitePlugin as secretlintLinear } from '../secretlint-linear.mjs';
import { vitePlugin as diff3Linear } from '../node-diff3-linear.mjs';

export default defineConfig({
  plugins: [micromarkLinear, secretlintLinear, diff3Linear],
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['scripts/linear/*.test.ts'],
    testTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 1,
    server: { deps: { inline: [/[\\/]node_modules[\\/](?:remark-parse|mdast-util-from-markdown|micromark|micromark-core-commonmark|@secretlint[\\/]core|node-diff3)[\\/]/] } },
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
