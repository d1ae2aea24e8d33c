// Configuration: .memlintrc.json, .memlintrc.yaml/.yml or package.json "memlint", the nearest one
// found upward from the working directory (or the file given with --config). Data only: a
// repository is untrusted input (docs/security.md), so no config file is ever executed. A JavaScript
// config (memlint.config.mjs and the like) is named in one line and not read.
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { JsonSyntaxError, parseJsonText } from './json-text.js';
import { ConfigError, UsageError } from './errors.js';
import { closestName } from './closest.js';
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

/** A config that does not parse, where the parser stopped: named as file:line:col. */
class ConfigSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number | null,
  ) {
    super(message);
  }
}

/** JSON.parse, its error placed (src/json-text.ts). */
function parseJson(text: string): unknown {
  try {
    return parseJsonText(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigSyntaxError(err.reason, err.line, err.column);
    throw err;
  }
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
      const pkg = parseJson(text) as Record<string, unknown>;
      return pkg.memlint as MemlintConfig | undefined;
    }
    if (base.endsWith('.yaml') || base.endsWith('.yml')) {
      const { parseYaml } = await import('./memdir/topic.js');
      const { data, error } = parseYaml(text);
      // parseYaml counts lines as in a topic file, from the opening fence it puts before the text.
      if (error) throw new ConfigSyntaxError(error.message, Math.max(1, error.line - 1), error.column);
      return data as MemlintConfig;
    }
    return parseJson(text) as MemlintConfig;
  } catch (err) {
    if (err instanceof ConfigSyntaxError) throw new ConfigError(`cannot read config ${file}:${err.line}${err.column === null ? '' : `:${err.column}`}: ${err.message}`);
    throw new ConfigError(`cannot read config ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function isCodeConfig(file: string): boolean {
  const base = basename(file);
  return CODE_CONFIGS.includes(base) || /\.[cm]?[jt]s$/.test(base);
}

/** The keys a config may hold at its top level, and in `consolidate` (docs/lint.md, docs/consolidate.md). */
export const CONFIG_KEYS = ['memoryDirs', 'rules', 'ignore', 'consolidate', 'claudeCode', 'generatedIndex', 'link'] as const;
export const CONSOLIDATE_KEYS = ['minHours', 'minCommits', 'staleDays', 'archiveDir', 'command', 'onPush', 'onCommit', 'exclude'] as const;
/** Keys editors and schema tools add, which memlint leaves alone. */
const TOLERATED_KEYS = ['$schema', '$comment'];
export const ON_PUSH_VALUES = ['advise', 'check', 'block'] as const;
export const ON_COMMIT_VALUES = ['consolidate', 'off'] as const;

const quoteList = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(values.length === 2 ? ' or ' : ', ').replace(/, ([^,]*)$/, ' or $1');
const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** Warnings for keys memlint does not know, with the closest known key when one is near. */
function unknownKeys(obj: Record<string, unknown>, known: readonly string[], prefix: string): string[] {
  const out: string[] = [];
  for (const key of Object.keys(obj)) {
    if (known.includes(key) || TOLERATED_KEYS.includes(key)) continue;
    const guess = closestName(key, known);
    out.push(`unknown key "${prefix}${key}" is ignored${guess ? `: did you mean "${prefix}${guess}"?` : ''}`);
  }
  return out;
}

export interface ConfigProblems {
  /** What makes the config unusable: each a config error (exit 2), named by its key with the values allowed. */
  errors: string[];
  /** What is ignored: unknown keys (with "did you mean"). */
  warnings: string[];
}

/**
 * The one validation of a config's data, used by every command through loadConfig (and by doctor,
 * which reports it instead of failing). Rule ids and rule options are checked against the rules
 * by the linter (src/lint/engine.ts resolveRules, ruleOptionWarnings).
 */
export function configProblems(config: unknown): ConfigProblems {
  const errors: string[] = [];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return { errors: ['expected an object'], warnings: [] };
  const c = config as MemlintConfig;
  const warnings = unknownKeys(c, CONFIG_KEYS, '');
  if (c.memoryDirs !== undefined && (!Array.isArray(c.memoryDirs) || c.memoryDirs.some((d) => typeof d !== 'string'))) {
    errors.push('"memoryDirs" must be a list of folder paths');
  }
  if (c.link !== undefined && typeof c.link !== 'boolean') {
    const bad = typeof c.link !== 'string' || c.link.trim() === '' || isAbsolute(c.link) || /^[A-Za-z]:/.test(c.link) || c.link.split(/[/\\]/).includes('..');
    if (bad) errors.push('"link" must be true, false or the memory folder as a path inside the repository (like ".claude/memory")');
  }
  if (c.ignore !== undefined && (!Array.isArray(c.ignore) || c.ignore.some((d) => typeof d !== 'string'))) {
    errors.push('"ignore" must be a list of globs');
  }
  if (c.claudeCode !== undefined && (typeof c.claudeCode !== 'string' || !parseVersion(c.claudeCode))) {
    errors.push(`"claudeCode" must be a Claude Code version such as "${NEWEST_KNOWN}"`);
  }
  if (c.generatedIndex !== undefined && typeof c.generatedIndex !== 'boolean') {
    errors.push('"generatedIndex" must be true or false');
  }
  if (c.rules !== undefined) {
    if (typeof c.rules !== 'object' || c.rules === null || Array.isArray(c.rules)) errors.push('"rules" must be an object');
    else {
      for (const [id, setting] of Object.entries(c.rules)) {
        const sev = Array.isArray(setting) ? setting[0] : setting;
        if (normalizeSeverity(sev) === undefined) errors.push(`rule "${id}" has severity ${shown(sev)}; use "off", "warn" or "error"`);
        else if (Array.isArray(setting) && setting[1] !== undefined && (typeof setting[1] !== 'object' || setting[1] === null || Array.isArray(setting[1]))) {
          errors.push(`rule "${id}": its options must be an object, as in ["error", {"max": 150}]`);
        }
      }
    }
  }
  if (c.consolidate !== undefined) {
    const k = c.consolidate;
    if (typeof k !== 'object' || k === null || Array.isArray(k)) errors.push('"consolidate" must be an object');
    else {
      for (const w of unknownKeys(k, CONSOLIDATE_KEYS, 'consolidate.')) warnings.push(w);
      for (const name of ['minHours', 'minCommits', 'staleDays'] as const) {
        const v = k[name];
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) errors.push(`consolidate.${name} is ${shown(v)}; it must be a number >= 0`);
      }
      // "consolidate", the default before v3, is still read (as "advise"), and not offered.
      if (k.onPush !== undefined && !([...ON_PUSH_VALUES, 'consolidate'] as unknown[]).includes(k.onPush)) errors.push(`consolidate.onPush is ${shown(k.onPush)}; use ${quoteList(ON_PUSH_VALUES)}`);
      if (k.onCommit !== undefined && !(ON_COMMIT_VALUES as readonly unknown[]).includes(k.onCommit)) errors.push(`consolidate.onCommit is ${shown(k.onCommit)}; use ${quoteList(ON_COMMIT_VALUES)}`);
      if (k.archiveDir !== undefined && (typeof k.archiveDir !== 'string' || k.archiveDir.trim() === '')) errors.push('consolidate.archiveDir must be a folder path');
      if (k.exclude !== undefined && (!Array.isArray(k.exclude) || k.exclude.some((d) => typeof d !== 'string'))) errors.push('consolidate.exclude must be a list of globs');
    }
  }
  return { errors, warnings };
}

export function validateConfig(config: unknown, file: string): MemlintConfig {
  const { errors } = configProblems(config);
  if (errors.length > 0) throw new ConfigError(`config ${file}: ${errors[0]}`);
  return config as MemlintConfig;
}

/** The warnings of a loaded config, each a line naming its file. */
export function configWarnings(loaded: LoadedConfig): string[] {
  return loaded.file === null ? [] : configProblems(loaded.config).warnings.map((w) => `config ${loaded.file}: ${w}`);
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
