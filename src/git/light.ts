// One git command, synchronously, for the launcher's fast paths (dist/cli.js): `memlint --staged`
// with nothing memory-related staged runs on every commit and must answer in about the time Node
// takes to start. node:child_process is required on the first call, not when the launcher loads:
// the paths that never run git (the merge driver, most commands) do not pay for loading it. Only
// for CommonJS bundles (the launcher): it needs `require`. The program itself runs git through
// src/git/index.ts.

export interface LightResult {
  ok: boolean;
  stdout: string;
}

export interface LightOptions {
  cwd?: string;
  /** Added to the environment git runs in. */
  env?: Record<string, string>;
}

/** Run git once; ok when it started and exited 0. */
export function gitLight(args: string[], { cwd, env }: LightOptions = {}): LightResult {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const r = spawnSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? '' };
}
