// `npm run test:e2e`: the files that install or drive an external tool (INSTALLS in
// vitest.config.ts), with the same workers, setup and timeouts as npm test.
import { configDefaults, defineConfig } from 'vitest/config';
import base, { INSTALLS } from './vitest.config.js';

export default defineConfig({
  ...base,
  test: { ...base.test, include: INSTALLS, exclude: [...configDefaults.exclude] },
});
