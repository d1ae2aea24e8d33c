// One git command, synchronously, for the launcher's fast paths: `memlint --staged` with nothing
// memory-related staged runs on every commit and must answer in about the time Node takes to
// start. Loading node:child_process (with net and streams behind it) costs a twentieth of that, so
// this calls the binding child_process.spawnSync itself uses, with the options it would build.
// Anything unexpected (no binding, another shape, git missing, git failing) falls back to
// child_process: the fast way can only make a run slower, never wrong. Only for CommonJS
// bundles (the launcher): it needs `require`.

interface SpawnSyncBinding {
  spawn(options: Record<string, unknown>): { status?: unknown; output?: unknown; error?: unknown };
}

export interface LightResult {
  ok: boolean;
  stdout: string;
}

export interface LightOptions {
  cwd?: string;
  /** Added to the environment git runs in. */
  env?: Record<string, string>;
}

export function gitLight(args: string[], opts: LightOptions = {}): LightResult {
  return viaBinding(args, opts) ?? viaChildProcess(args, opts);
}

function viaChildProcess(args: string[], { cwd, env }: LightOptions): LightResult {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const r = spawnSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? '' };
}

// process.binding warns under --pending-deprecation; then the documented way is taken.
function pendingDeprecation(): boolean {
  return (
    process.env.NODE_PENDING_DEPRECATION === '1' ||
    process.execArgv.includes('--pending-deprecation') ||
    (process.env.NODE_OPTIONS ?? '').includes('--pending-deprecation')
  );
}

/** The binding alone (exported for its test): null where child_process must answer instead. */
export function viaBinding(args: string[], { cwd, env }: LightOptions = {}): LightResult | null {
  if (pendingDeprecation()) return null;
  try {
    const binding = (process as unknown as { binding(name: string): SpawnSyncBinding }).binding('spawn_sync');
    const envPairs: string[] = [];
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) envPairs.push(`${k}=${v}`);
    const r = binding.spawn({
      file: 'git',
      args: ['git', ...args],
      cwd,
      envPairs,
      stdio: [{ type: 'ignore' }, { type: 'pipe', readable: false, writable: true }, { type: 'pipe', readable: false, writable: true }],
      detached: false,
      windowsHide: true,
      windowsVerbatimArguments: false,
      killSignal: undefined,
      maxBuffer: 1 << 28,
    });
    const out = Array.isArray(r.output) ? (r.output[1] as unknown) : undefined;
    if (r.error !== undefined || r.status !== 0 || !Buffer.isBuffer(out)) return null;
    return { ok: true, stdout: out.toString('utf8') };
  } catch {
    return null;
  }
}
