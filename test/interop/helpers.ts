// Hermetic environment for the interop tests: HOME, CLAUDE_CONFIG_DIR and every CLAUDE_* variable
// are set per test, nothing leaks in from the machine running the tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { CLI, tempDir } from '../helpers/repo.js';

export interface Hermetic {
  home: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh HOME and CLAUDE_CONFIG_DIR; every CLAUDE_* variable of the outer environment removed. */
export function hermetic(extra: Record<string, string> = {}): Hermetic {
  const home = tempDir('memlint-home-');
  const configDir = join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  // Git's own variables go (a hook's GIT_DIR would point every command elsewhere), but not the run's
  // choices of no system config and a template without sample hooks (test/helpers/global-setup.ts).
  const kept = new Set(['GIT_CONFIG_NOSYSTEM', 'GIT_TEMPLATE_DIR']);
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('CLAUDE_') || (k.startsWith('GIT_') && !kept.has(k)) || k.startsWith('MEMLINT_')) continue;
    env[k] = v;
  }
  Object.assign(env, { HOME: home, CLAUDE_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra });
  return { home, configDir, env };
}

/** The same environment as a plain record, for calling resolveAutoMemoryPath directly. */
export function claudeEnv(h: Hermetic): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h.env)) if (k.startsWith('CLAUDE_')) out[k] = v;
  return out;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(cwd: string, args: string[], h: Hermetic): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: h.env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The same run in this process (test/helpers/in-process.ts: the same main()), with exactly the hermetic environment. */
export function cliInProcess(cwd: string, args: string[], h: Hermetic): Promise<Run> {
  return memlintInProcess(cwd, args, { exactEnv: h.env });
}
