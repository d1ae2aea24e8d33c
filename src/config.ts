// Configuration: .memlintrc.json, .memlintrc.yaml/.yml, memlint.config.mjs or package.json "memlint",
// the nearest one found upward from the working directory (or the file given with --config).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './errors.js';

export type SeverityName = 'off' | 'warn' | 'error';
export type RuleSetting = SeverityName | 0 | 1 | 2 | [SeverityName | 0 | 1 | 2, Record<string, unknown>?];

export interface ConsolidateConfig {
  minHours?: number;
  minCommits?: number;
  staleDays?: number;
  archiveDir?: string;
  command?: string;
  onPush?: 'consolidate' | 'check';
  /** Memory folders (globs) consolidation leaves alone unless named on the command line. */
  exclude?: string[];
  [key: string]: unknown;
}

export interface MemlintConfig {
  memoryDirs?: string[];
  rules?: Record<string, RuleSetting>;
  /** Globs (relative to the config's folder) of files memlint leaves alone. */
  ignore?: string[];
  consolidate?: ConsolidateConfig;
  [key: string]: unknown;
}

export interface LoadedConfig {
  config: MemlintConfig;
  /** The file it came from, or null when none was found. */
  file: string | null;
  /** Folder that relative paths in the config are resolved against. */
  dir: string;
}

const CANDIDATES = ['.memlintrc.json', '.memlintrc.yaml', '.memlintrc.yml', 'memlint.config.mjs', 'package.json'];

/**
 * import() of a memlint.config.mjs. dist/lint.cjs runs inside node:vm (src/code-cache.ts), where
 * import() is not available: the launcher hands in its own.
 */
function importModule(url: string): Promise<unknown> {
  const handed = (globalThis as { __memlintImport?: (url: string) => Promise<unknown> }).__memlintImport;
  return handed ? handed(url) : import(url);
}

async function readConfigFile(file: string): Promise<MemlintConfig | undefined> {
  const base = file.split(/[\\/]/).pop()!;
  try {
    if (base.endsWith('.mjs') || base.endsWith('.js')) {
      const mod = (await importModule(pathToFileURL(file).href)) as { default?: unknown };
      return mod.default as MemlintConfig;
    }
    const text = readFileSync(file, 'utf8');
    if (base === 'package.json') {
      const pkg = JSON.parse(text) as Record<string, unknown>;
      return pkg.memlint as MemlintConfig | undefined;
    }
    if (base.endsWith('.yaml') || base.endsWith('.yml')) {
      const { parseYaml } = await import('./memdir/topic.js');
      const { data, error } = parseYaml(text);
      if (error) throw new Error(`line ${error.line}: ${error.message}`);
      return data as MemlintConfig;
    }
    return JSON.parse(text) as MemlintConfig;
  } catch (err) {
    throw new UsageError(`cannot read config ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function validateConfig(config: unknown, file: string): MemlintConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(`config ${file}: expected an object`);
  }
  const c = config as MemlintConfig;
  if (c.memoryDirs !== undefined && (!Array.isArray(c.memoryDirs) || c.memoryDirs.some((d) => typeof d !== 'string'))) {
    throw new UsageError(`config ${file}: "memoryDirs" must be a list of folder paths`);
  }
  if (c.ignore !== undefined && (!Array.isArray(c.ignore) || c.ignore.some((d) => typeof d !== 'string'))) {
    throw new UsageError(`config ${file}: "ignore" must be a list of globs`);
  }
  if (c.rules !== undefined) {
    if (typeof c.rules !== 'object' || c.rules === null || Array.isArray(c.rules)) throw new UsageError(`config ${file}: "rules" must be an object`);
    for (const [id, setting] of Object.entries(c.rules)) {
      const sev = Array.isArray(setting) ? setting[0] : setting;
      if (normalizeSeverity(sev) === undefined) {
        throw new UsageError(`config ${file}: rule "${id}" has severity ${JSON.stringify(sev)}; use "off", "warn" or "error"`);
      }
    }
  }
  return c;
}

export function normalizeSeverity(v: unknown): SeverityName | undefined {
  // '0', '1', '2' arrive as strings from `--rule ID=2`.
  if (v === 'off' || v === 0 || v === '0' || v === false) return 'off';
  if (v === 'warn' || v === 'warning' || v === 1 || v === '1') return 'warn';
  if (v === 'error' || v === 2 || v === '2' || v === true) return 'error';
  return undefined;
}

export async function loadConfig(opts: { cwd: string; file?: string }): Promise<LoadedConfig> {
  if (opts.file) {
    const file = resolve(opts.cwd, opts.file);
    if (!existsSync(file)) throw new UsageError(`config file not found: ${opts.file}`);
    const config = await readConfigFile(file);
    if (config === undefined) throw new UsageError(`config ${file}: no "memlint" settings in it`);
    return { config: validateConfig(config, file), file, dir: dirname(file) };
  }
  let dir = resolve(opts.cwd);
  for (;;) {
    for (const name of CANDIDATES) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      const config = await readConfigFile(file);
      if (config === undefined) continue; // a package.json without "memlint"
      return { config: validateConfig(config, file), file, dir };
    }
    if (existsSync(join(dir, '.git'))) break; // do not wander above the repository
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { config: {}, file: null, dir: resolve(opts.cwd) };
}
