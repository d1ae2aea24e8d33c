// Shared bits of the CLI end-to-end tests: a temporary repository holding a small memdir.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

export const topic = (name: string, type = 'project', body = 'Deploys wait for the standup.\n\n**Why:** the on-call engineer is in the room.\n**How to apply:** schedule deploys after 10:00 on Tuesdays.\n') =>
  `---\nname: ${name}\ndescription: ${name} in one line\ntype: ${type}\n---\n${body}`;

export const CLEAN_INDEX = '# Memory\n\n## Project\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n';

/**
 * A repository with a clean memdir at .claude/memory (and `extra` files in it), committed. Made by
 * git once per worker for each `extra` and copied for every caller (timestamps kept): the add and
 * the commit are two git processes, the same for every caller, and no caller sees what another
 * did to its copy.
 */
export function cleanRepo(extra: Record<string, string> = {}): { repo: string; memdir: string } {
  const key = JSON.stringify(extra);
  let made = cleanMade.get(key);
  if (!made) cleanMade.set(key, (made = makeCleanRepo(extra)));
  const repo = tempDir('memlint-cli-');
  cpSync(made, repo, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return { repo, memdir: join(repo, '.claude', 'memory') };
}

const cleanMade = new Map<string, string>();

function makeCleanRepo(extra: Record<string, string>): string {
  const repo = initRepo(tempDir('memlint-cli-'));
  writeFiles(join(repo, '.claude', 'memory'), { 'MEMORY.md': CLEAN_INDEX, 'project_deploys.md': topic('Deploys'), ...extra });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'memory');
  return repo;
}

/** No stack trace, no Node internals: one line per problem. */
export function expectNoStack(stderr: string): void {
  if (/\n\s+at .+\(.+:\d+:\d+\)|node:internal|Error: .*\n\s+at /.test(stderr)) throw new Error(`stack trace on stderr:\n${stderr}`);
}
