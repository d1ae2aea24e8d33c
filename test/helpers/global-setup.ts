// Once per test run: build dist/ (end-to-end tests drive the real CLI bundle), and make the empty
// repository that initRepo (test/helpers/repo.ts) copies for every test repository.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { makeRepoTemplate } from './repo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    repoTemplate: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const template = makeRepoTemplate();
  project.provide('repoTemplate', template);
  return () => rmSync(template, { recursive: true, force: true });
}
