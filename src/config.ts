// Configuration: .memlintrc.json, .memlintrc.yaml/.yml or package.json "memlint", the nearest one
// found upward from the working directory (or the file given with --config). Data only: a
// repository is untrusted input (docs/security.md), so no config file is ever executed. A JavaScript
// config (memlint.config.mjs and the like) is named in one line and not read.
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from './errors.js';
import type { Output } from './io.js';
import { claudeFormat, NEWEST_KNOWN, parseVersion, type ClaudeFormat } from './memdir/format.js';

export type SeverityName = 'off' | 'warn' | 'error';
export type RuleSetting = SeverityName | 0 | 1 | 2 | [SeverityName | 0 | 1 | 2, Record<string, unknown>?];

export interface ConsolidateConfig {
  minHours?: number;
  minCommits?: number;
  staleDays?: number;
  archiveDir?: string;
  /** Ignored, with a warning: the agent step's command comes only from git config memlint.consolidateCommand. */
  command?: string;
  /** A push while consolidation is due: "advise" (default: one line, the push goes on), "check" (stop it), "block" (consolidate, commit, stop it); "consolidate" (pre-v3) reads as "advise". */
  onPush?: 'advise' | 'check' | 'block' | 'consolidate';
  /** "consolidate" (default): the post-commit hook consolidates a due memdir after a memory commit; "off": it does not. */
  onCommit?: 'consolidate' | 'off';
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
  /** The Claude Code version whose memory format applies (src/memdir/format.ts); default the newest known. */
  claudeCode?: string;
  /** The memdirs' index is generated at load time (Claude Code's gated variant): docs/format.md. */
  generatedIndex?: boolean;
  /**
   * The team's decision that Claude Code's auto memory is the committed memory folder: true (the
   * repository's memory folder) or that folder, relative to the config's folder. Every checkout is
   * then linked by "memlint install --local" (docs/install.md, "Linking every checkout").
   */
  link?: boolean | string;
  [key: string]: unknown;
}

export interface LoadedConfig {
  config: MemlintConfig;
  /** The file it came from, or null when none was found. */
  file: string | null;
  /** Folder that relative paths in the config are resolved against. */
  dir: string;
}

const CANDIDATES = ['.memlintrc.json', '.memlintrc.yaml', '.memlintrc.yml', 'package.json'];
/** Executable config that earlier versions imported: now named and never run. */
export const CODE_CONFIGS = ['memlint.config.mjs', 'memlint.config.js', 'memlint.config.cjs', 'memlint.config.ts', 'memlint.config.mts', 'memlint.config.cts', '.memlintrc.js', '.memlintrc.cjs', '.memlintrc.mjs'];

export function codeConfigMessage(file: string): string {
  return `${file} is not read: memlint runs no code from the repository; put its settings in .memlintrc.json, .memlintrc.yaml or package.json "memlint"`;
}

// The runs' outputs already told of a code config: each run is told once, however often it loads config.
const toldAboutCodeConfig = new WeakSet<Output>();
function tellAboutCodeConfig(file: string, stderr: Output | null): void {
  if (stderr === null || toldAboutCodeConfig.has(stderr)) return;
  toldAboutCodeConfig.add(stderr);
  stderr.write(`memlint: ${codeConfigMessage(file)}\n`);
}

const LEADS_OUT = 'it is a symlink that leads out of the repository; memlint does not read through it';

/**
 * A config file's text, or null for a symlink that leads out of the repository (the folder above
 * that holds `.git`): a cloned repository may commit its config as one, and no file of the
 * machine's is parsed, or quoted in a parse error, as memlint's config. A package.json symlinked
 * out counts as one without a "memlint" key (install leaves such a file alone too); any other
 * config file symlinked out is an error.
 */
function readConfigText(file: string): string | null {
  if (lstatSync(file).isSymbolicLink()) {
    let top = dirname(file);
    while (!existsSync(join(top, '.git')) && dirname(top) !== top) top = dirname(top);
    const rel = relative(realpathSync(top), realpathSync(file));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  }
  return readFileSync(file, 'utf8');
}

async function readConfigFile(file: string): Promise<MemlintConfig | undefined> {
  const base = basename(file);
  try {
    const text = readConfigText(file);
    if (text === null) {
      if (base === 'package.json') return undefined;
      throw new Error(LEADS_OUT);
    }
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

function isCodeConfig(file: string): boolean {
  const base = basename(file);
  return CODE_CONFIGS.includes(base) || /\.[cm]?[jt]s$/.test(base);
}

export function validateConfig(config: unknown, file: string): MemlintConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(`config ${file}: expected an object`);
  }
  const c = config as MemlintConfig;
  if (c.memoryDirs !== undefined && (!Array.isArray(c.memoryDirs) || c.memoryDirs.some((d) => typeof d !== 'string'))) {
    throw new UsageError(`config ${file}: "memoryDirs" must be a list of folder paths`);
  }
  if (c.link !== undefined && typeof c.link !== 'boolean') {
    const bad = typeof c.link !== 'string' || c.link.trim() === '' || isAbsolute(c.link) || /^[A-Za-z]:/.test(c.link) || c.link.split(/[/\\]/).includes('..');
    if (bad) throw new UsageError(`config ${file}: "link" must be true, false or the memory folder as a path inside the repository (like ".claude/memory")`);
  }
  if (c.ignore !== undefined && (!Array.isArray(c.ignore) || c.ignore.some((d) => typeof d !== 'string'))) {
    throw new UsageError(`config ${file}: "ignore" must be a list of globs`);
  }
  if (c.claudeCode !== undefined && (typeof c.claudeCode !== 'string' || !parseVersion(c.claudeCode))) {
    throw new UsageError(`config ${file}: "claudeCode" must be a Claude Code version such as "${NEWEST_KNOWN}"`);
  }
  if (c.generatedIndex !== undefined && typeof c.generatedIndex !== 'boolean') {
    throw new UsageError(`config ${file}: "generatedIndex" must be true or false`);
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

/**
 * `stderr`: the run's, where a code config that is not read is named (once a run); null for a
 * lookup on the side of a run that tells the person nothing (a Claude Code hook's answer, the
 * language server, a setting looked up again).
 */
export async function loadConfig(opts: { cwd: string; file?: string; stderr: Output | null }): Promise<LoadedConfig> {
  if (opts.file) {
    const file = resolve(opts.cwd, opts.file);
    if (!existsSync(file)) throw new UsageError(`config file not found: ${opts.file}`);
    if (isCodeConfig(file)) throw new UsageError(codeConfigMessage(file));
    const config = await readConfigFile(file);
    if (config === undefined) throw new UsageError(`config ${file}: no "memlint" settings in it`);
    return { config: withLinkDefaults(validateConfig(config, file)), file, dir: dirname(file) };
  }
  let dir = resolve(opts.cwd);
  for (;;) {
    for (const name of CANDIDATES) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      const config = await readConfigFile(file);
      if (config === undefined) continue; // a package.json without "memlint"
      return { config: withLinkDefaults(validateConfig(config, file)), file, dir };
    }
    // The nearest config was code: said once, not run, and no farther config stands in for it.
    const code = CODE_CONFIGS.map((name) => join(dir, name)).find((f) => existsSync(f));
    if (code) {
      tellAboutCodeConfig(code, opts.stderr);
      return { config: withLinkDefaults({}), file: null, dir };
    }
    if (existsSync(join(dir, '.git'))) break; // do not wander above the repository
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { config: withLinkDefaults({}), file: null, dir: resolve(opts.cwd) };
}

/**
 * private-memory guards a memory folder the agent writes into and the team shares: it is on (at
 * its default) once the team's "link" says so, off otherwise unless the config names it.
 */
export function withLinkDefaults(config: MemlintConfig): MemlintConfig {
  if ((config.link !== undefined && config.link !== false) || config.rules?.['private-memory'] !== undefined) return config;
  return { ...config, rules: { ...config.rules, 'private-memory': 'off' } };
}

/**
 * Config `claudeCode` alone, found as loadConfig finds the config (the nearest of CANDIDATES up to
 * the repository's top; a code config ends the search), read without the YAML parser: the merge
 * driver's one file stays free of it. A `.memlintrc.yaml` gives its top-level `claudeCode:` scalar.
 * undefined when unset or unreadable: the caller uses the newest known.
 */
export function configuredClaudeCode(cwd: string): string | undefined {
  const version = (v: unknown) => (typeof v === 'string' && parseVersion(v) ? v : undefined);
  for (let dir = resolve(cwd); ; ) {
    for (const name of CANDIDATES) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      try {
        const text = readConfigText(file);
        if (text === null && name === 'package.json') continue;
        if (text === null) return undefined;
        if (name === 'package.json') {
          const settings = (JSON.parse(text) as Record<string, unknown>).memlint as Record<string, unknown> | undefined;
          if (settings === undefined) continue;
          return version(settings?.claudeCode);
        }
        if (name.endsWith('.json')) return version((JSON.parse(text) as Record<string, unknown>).claudeCode);
        return version(/^claudeCode[ \t]*:[ \t]*(["']?)([^"'#\s]+)\1[ \t]*(?:#.*)?$/m.exec(text)?.[2]);
      } catch {
        return undefined;
      }
    }
    if (CODE_CONFIGS.some((name) => existsSync(join(dir, name))) || existsSync(join(dir, '.git'))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The memory format a config selects (src/memdir/format.ts). */
export function formatOf(config: MemlintConfig): ClaudeFormat {
  return claudeFormat(config.claudeCode ?? NEWEST_KNOWN, { generatedIndex: config.generatedIndex === true });
}
