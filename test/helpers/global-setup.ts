// Once per test run: build dist/ (end-to-end tests drive the real CLI bundle), make the empty
// repository that initRepo (test/helpers/repo.ts) copies for every test repository, and a scratch
// folder for what test files share (the npm-packed package, test/merge/hosted.ts).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
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
  const template = makeRepoTemplate();
  const scratch = tempDir('memlint-run-');
  project.provide('repoTemplate', template);
  project.provide('runScratch', scratch);
  return () => {
    for (const dir of [template, scratch]) rmSync(dir, { recursive: true, force: true });
  };
}
