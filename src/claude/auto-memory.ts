// Where Claude Code keeps auto memory for a project, reproduced from its own rules:
// the override variable, `autoMemoryDirectory` from policy/local/user settings (never project
// settings), else <config dir>/projects/<slug of the canonical git root>/memory/. Every function
// here is pure or takes its file system explicitly, so tests can point it at any layout.
import nodePath from 'node:path';
import * as nodeFs from 'node:fs';
import os from 'node:os';
import { JsonSyntaxError, parseJsonText } from '../json-text.js';
import { withoutBom } from '../memdir/lines.js';

type PlatformPath = typeof nodePath.posix;

/** The home folder `~` means under this environment, as os.homedir() reads it (HOME; USERPROFILE on Windows). */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return (process.platform === 'win32' ? env.USERPROFILE : env.HOME) || os.homedir();
}

// ---------------------------------------------------------------------------------------------
// Slug

/** Slugs longer than this get a hash suffix (Claude Code's MAX_SANITIZED_LENGTH). */
export const MAX_SANITIZED_LENGTH = 200;

/** The djb2 variant Claude Code uses under Node: seed 0, h*31 + unit, signed 32-bit. */
export function djb2Hash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The project folder name under `projects/`: every UTF-16 unit outside [a-zA-Z0-9] becomes '-'
 * (nothing collapsed). Past 200 units, the first 200 plus '-' and the base-36 hash of the full
 * input. The native (Bun) build hashes with wyhash instead, so long slugs can differ there.
 */
export function sanitizePath(name: string): string {
  const slug = name.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length <= MAX_SANITIZED_LENGTH) return slug;
  return `${slug.slice(0, MAX_SANITIZED_LENGTH)}-${Math.abs(djb2Hash(name)).toString(36)}`;
}

// ---------------------------------------------------------------------------------------------
// validateMemoryPath

export type PathRule = 'empty' | 'home-or-above' | 'not-absolute' | 'root' | 'too-short' | 'drive-root' | 'unc' | 'double-slash' | 'nul';

export type PathCheck = { ok: true; path: string } | { ok: false; rule: PathRule; reason: string };

export interface PathContext {
  /** The home directory `~/` expands to (Claude Code uses os.homedir(), i.e. HOME on POSIX). */
  home: string;
  /** Path semantics to apply (default: this platform's). */
  path?: PlatformPath;
}

const RULE_REASONS: Record<PathRule, string> = {
  empty: 'empty value',
  'home-or-above': 'expands to the home directory itself or above it',
  'not-absolute': 'not an absolute path (relative paths and a bare ~ are not accepted)',
  root: 'the filesystem root',
  'too-short': 'shorter than 3 characters once normalized',
  'drive-root': 'a bare drive root',
  unc: 'a UNC path (starts with \\\\)',
  'double-slash': 'starts with //',
  nul: 'contains a NUL byte',
};

function reject(rule: PathRule): PathCheck {
  return { ok: false, rule, reason: RULE_REASONS[rule] };
}

/**
 * Claude Code's validateMemoryPath: returns the normalized path with exactly one trailing
 * separator (NFC), or the rule that rejects it. When several rules apply, the most specific
 * one is reported (Claude Code itself just ignores the value).
 */
export function validateMemoryPath(raw: string | null | undefined, expandTilde: boolean, ctx: PathContext): PathCheck {
  const p = ctx.path ?? nodePath;
  if (!raw) return reject('empty');
  let candidate = raw;
  if (expandTilde && (candidate.startsWith('~/') || candidate.startsWith('~\\'))) {
    const rest = candidate.slice(2);
    const restNorm = p.normalize(rest || '.');
    if (restNorm === '.' || restNorm === '..') return reject('home-or-above');
    candidate = p.join(ctx.home, rest);
  }
  const normalized = p.normalize(candidate).replace(/[/\\]+$/, '');
  if (normalized.includes('\0')) return reject('nul');
  if (normalized.startsWith('\\\\')) return reject('unc');
  if (normalized.startsWith('//')) return reject('double-slash');
  if (/^[A-Za-z]:$/.test(normalized)) return reject('drive-root');
  if (normalized === '') return reject('root');
  if (!p.isAbsolute(normalized)) return reject('not-absolute');
  if (normalized.length < 3) return reject('too-short');
  return { ok: true, path: (normalized + p.sep).normalize('NFC') };
}

// ---------------------------------------------------------------------------------------------
// File system seam

export interface ClaudeFs {
  /** File text; throws when missing, unreadable or a directory. */
  readText(file: string): string;
  /** realpath; throws when missing. */
  realpath(file: string): string;
  /** Whether the path exists as a file or directory, following symlinks (statSync). */
  exists(file: string): boolean;
  /** Names in a directory; [] when it cannot be read. */
  list(dir: string): string[];
}

export const nodeClaudeFs: ClaudeFs = {
  readText: (file) => nodeFs.readFileSync(file, 'utf8'),
  realpath: (file) => nodeFs.realpathSync(file),
  exists: (file) => {
    try {
      const st = nodeFs.statSync(file);
      return st.isFile() || st.isDirectory();
    } catch {
      return false;
    }
  },
  list: (dir) => {
    try {
      return nodeFs.readdirSync(dir);
    } catch {
      return [];
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Canonical git root

/** Claude Code's findGitRoot: walk up from start to the first folder holding `.git` (file or directory). */
export function findGitRoot(start: string, fs: ClaudeFs = nodeClaudeFs, p: PlatformPath = nodePath): string | null {
  let current = p.resolve(start);
  for (;;) {
    if (fs.exists(p.join(current, '.git'))) return current.normalize('NFC');
    const parent = p.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

export type CanonicalKind = 'main' | 'linked-worktree' | 'bare-worktree' | 'own-root';

export interface CanonicalRoot {
  /** The directory whose slug names the project. */
  root: string;
  kind: CanonicalKind;
  /** Why this root: one line. */
  reason: string;
}

/**
 * Claude Code's resolveCanonicalRoot: from a linked worktree follow `.git` -> gitdir -> commondir
 * to the main repository, but only when the layout is the one `git worktree add` makes (the
 * worktree's git dir sits directly in <common>/worktrees/, and its `gitdir` file points back to
 * this worktree's `.git`). A bare repository's worktrees resolve to the common dir itself.
 */
export function resolveCanonicalRoot(gitRoot: string, fs: ClaudeFs = nodeClaudeFs, p: PlatformPath = nodePath): CanonicalRoot {
  const own = (reason: string): CanonicalRoot => ({ root: gitRoot, kind: 'own-root', reason });
  let gitContent: string;
  try {
    gitContent = fs.readText(p.join(gitRoot, '.git')).trim();
  } catch {
    return { root: gitRoot, kind: 'main', reason: '.git is a directory: the main working tree' };
  }
  if (!gitContent.startsWith('gitdir:')) return own('.git is a file without "gitdir:"');
  const worktreeGitDir = p.resolve(gitRoot, gitContent.slice('gitdir:'.length).trim());
  let commonDir: string;
  try {
    commonDir = p.resolve(worktreeGitDir, fs.readText(p.join(worktreeGitDir, 'commondir')).trim());
  } catch {
    return own(`no commondir in ${worktreeGitDir} (a submodule or separate git dir keeps its own root)`);
  }
  if (p.resolve(p.dirname(worktreeGitDir)) !== p.join(commonDir, 'worktrees')) {
    return own(`safety check failed: ${worktreeGitDir} is not directly inside ${p.join(commonDir, 'worktrees')}`);
  }
  try {
    const backlink = fs.realpath(fs.readText(p.join(worktreeGitDir, 'gitdir')).trim());
    if (backlink !== p.join(fs.realpath(gitRoot), '.git')) {
      return own(`safety check failed: ${p.join(worktreeGitDir, 'gitdir')} does not point back to this worktree`);
    }
  } catch {
    return own(`safety check failed: ${p.join(worktreeGitDir, 'gitdir')} is missing or points nowhere`);
  }
  if (p.basename(commonDir) !== '.git') {
    return { root: commonDir.normalize('NFC'), kind: 'bare-worktree', reason: `worktree of the bare repository ${commonDir}: the common dir names the project` };
  }
  const main = p.dirname(commonDir).normalize('NFC');
  return { root: main, kind: 'linked-worktree', reason: `linked worktree of ${main}: all worktrees share the main repository's memory` };
}

// ---------------------------------------------------------------------------------------------
// Settings

export type SettingsSource = 'policySettings' | 'localSettings' | 'projectSettings' | 'userSettings';

export interface SettingsFile {
  source: SettingsSource;
  file: string;
  exists: boolean;
  /** Parsed object; null when missing or unusable. */
  data: Record<string, unknown> | null;
  /** Why the file cannot be used (invalid JSON, wrong value types). */
  error: string | null;
}

/** Where Claude Code looks for managed (policy) settings on each platform. */
export function managedSettingsDir(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

export interface SettingsLocations {
  /** The folder Claude Code is started in: project and local settings live in its `.claude/`. */
  projectDir: string;
  /** CLAUDE_CONFIG_DIR or ~/.claude: user settings live there. */
  configDir: string;
  /** The managed settings folder (managed-settings.json and managed-settings.d/*.json). */
  managedDir: string;
  /** The user settings file name: settings.json, or cowork_settings.json in Cowork mode. */
  userSettingsName?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The object a Claude Code settings file holds (a byte order mark and an empty file allowed), or
 * what is wrong with it in a few words ("not valid JSON (...)", "not a JSON object").
 */
export function parseSettingsJson(text: string): { data: Record<string, unknown> } | { problem: string } {
  const body = withoutBom(text);
  if (body.trim() === '') return { data: {} };
  let data: unknown;
  try {
    data = parseJsonText(body);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { problem: `not valid JSON at line ${err.line}, column ${err.column} (${err.reason})` };
  }
  return isRecord(data) ? { data } : { problem: 'not a JSON object' };
}

/** Read one settings file. A value of the wrong type makes Claude Code's schema reject the whole file. */
export function readSettingsFile(source: SettingsSource, file: string, fs: ClaudeFs): SettingsFile {
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return { source, file, exists: false, data: null, error: null };
  }
  const parsed = parseSettingsJson(text);
  if ('problem' in parsed) return { source, file, exists: true, data: null, error: parsed.problem };
  const data = parsed.data;
  if (data.autoMemoryDirectory !== undefined && typeof data.autoMemoryDirectory !== 'string') {
    return { source, file, exists: true, data: null, error: 'autoMemoryDirectory is not a string, so the file fails validation' };
  }
  if (data.autoMemoryEnabled !== undefined && typeof data.autoMemoryEnabled !== 'boolean') {
    return { source, file, exists: true, data: null, error: 'autoMemoryEnabled is not a boolean, so the file fails validation' };
  }
  return { source, file, exists: true, data, error: null };
}

/**
 * Policy settings: managed-settings.json, then the drop-ins of managed-settings.d/ (*.json, not
 * hidden, in name order), each later one overriding the keys it sets.
 */
export function readPolicySettings(managedDir: string, fs: ClaudeFs, p: PlatformPath = nodePath): SettingsFile[] {
  const files = [readSettingsFile('policySettings', p.join(managedDir, 'managed-settings.json'), fs)];
  const dropInDir = p.join(managedDir, 'managed-settings.d');
  const names = fs
    .list(dropInDir)
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .sort();
  for (const name of names) files.push(readSettingsFile('policySettings', p.join(dropInDir, name), fs));
  return files;
}

export function readAllSettings(loc: SettingsLocations, fs: ClaudeFs = nodeClaudeFs, p: PlatformPath = nodePath): SettingsFile[] {
  return [
    ...readPolicySettings(loc.managedDir, fs, p),
    readSettingsFile('localSettings', p.join(loc.projectDir, '.claude', 'settings.local.json'), fs),
    readSettingsFile('projectSettings', p.join(loc.projectDir, '.claude', 'settings.json'), fs),
    readSettingsFile('userSettings', p.join(loc.configDir, loc.userSettingsName ?? 'settings.json'), fs),
  ];
}

/** The value a source contributes for a key: the last file of that source that sets it. */
function sourceValue(files: SettingsFile[], source: SettingsSource, key: string): { value: unknown; file: string } | undefined {
  let found: { value: unknown; file: string } | undefined;
  for (const f of files) {
    if (f.source !== source || !f.data || f.data[key] === undefined || f.data[key] === null) continue;
    found = { value: f.data[key], file: f.file };
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Enable / disable

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off']);

export function isEnvTruthy(v: string | undefined): boolean {
  return v !== undefined && TRUTHY.has(v.trim().toLowerCase());
}

export function isEnvDefinedFalsy(v: string | undefined): boolean {
  return v !== undefined && FALSY.has(v.trim().toLowerCase());
}

export type Env = Record<string, string | undefined>;

export interface EnabledState {
  value: boolean;
  /** The variable or settings source that decided, or "default". */
  source: string;
  file?: string;
}

/** Claude Code's isAutoMemoryEnabled: the first rule that matches wins. */
export function autoMemoryEnabled(env: Env, settings: SettingsFile[]): EnabledState {
  const flag = env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (isEnvTruthy(flag)) return { value: false, source: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY' };
  if (isEnvDefinedFalsy(flag)) return { value: true, source: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY' };
  if (isEnvTruthy(env.CLAUDE_CODE_SIMPLE)) return { value: false, source: 'CLAUDE_CODE_SIMPLE' };
  if (isEnvTruthy(env.CLAUDE_CODE_REMOTE) && !env.CLAUDE_CODE_REMOTE_MEMORY_DIR) {
    return { value: false, source: 'CLAUDE_CODE_REMOTE (without CLAUDE_CODE_REMOTE_MEMORY_DIR)' };
  }
  // Merged settings: policy over local over project over user (project settings may opt out).
  for (const source of ['policySettings', 'localSettings', 'projectSettings', 'userSettings'] as const) {
    const v = sourceValue(settings, source, 'autoMemoryEnabled');
    if (v && typeof v.value === 'boolean') return { value: v.value, source, file: v.file };
  }
  return { value: true, source: 'default' };
}

// ---------------------------------------------------------------------------------------------
// Resolution

export const OVERRIDE_VAR = 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE';

export interface Candidate {
  /** OVERRIDE_VAR, a settings source, or "default". */
  source: string;
  file: string | null;
  value: string;
  accepted: boolean;
  /** The normalized path, when accepted. */
  path: string | null;
  /** Why it was not used; null when it is the one used. */
  reason: string | null;
  rule: PathRule | 'shadowed' | 'project-settings' | 'not-reached' | null;
}

export interface Resolution {
  /** The auto memory directory, with one trailing separator. */
  resolved: string;
  source: string;
  candidates: Candidate[];
  autoMemoryEnabled: EnabledState;
  projectRoot: string;
  gitRoot: string | null;
  canonicalRoot: string;
  canonicalRootKind: CanonicalKind | 'no-git';
  canonicalRootReason: string;
  slug: string;
  memoryBaseDir: string;
  defaultPath: string;
  settingsFiles: Array<{ source: SettingsSource; file: string; exists: boolean; error: string | null }>;
  notes: string[];
}

export interface ResolveInput {
  /** Where Claude Code would be started. */
  cwd: string;
  env: Env;
  home: string;
  platform?: NodeJS.Platform;
  /** Overrides the platform's managed settings folder (tests). */
  managedDir?: string;
  fs?: ClaudeFs;
  path?: PlatformPath;
}

const PROJECT_SETTINGS_REASON =
  'project settings (.claude/settings.json, committed) are ignored: a repository could otherwise point memory at ~/.ssh; newer Claude Code honours it only in a folder you have trusted';

/** The whole of Claude Code's getAutoMemPath, with every candidate and why it won or lost. */
export function resolveAutoMemoryPath(input: ResolveInput): Resolution {
  const fs = input.fs ?? nodeClaudeFs;
  const p = input.path ?? nodePath;
  const env = input.env;
  const platform = input.platform ?? process.platform;
  const ctx: PathContext = { home: input.home, path: p };
  const notes: string[] = [];

  let projectRoot: string;
  try {
    projectRoot = fs.realpath(input.cwd).normalize('NFC');
  } catch {
    projectRoot = p.resolve(input.cwd).normalize('NFC');
  }
  const gitRoot = findGitRoot(projectRoot, fs, p);
  const canonical: CanonicalRoot | null = gitRoot ? resolveCanonicalRoot(gitRoot, fs, p) : null;
  const canonicalRoot = canonical ? canonical.root : projectRoot;

  const configDir = env.CLAUDE_CONFIG_DIR || p.join(input.home, '.claude');
  const memoryBaseDir = env.CLAUDE_CODE_REMOTE_MEMORY_DIR || configDir;
  const slug = sanitizePath(canonicalRoot);
  const defaultPath = (p.join(memoryBaseDir, 'projects', slug, 'memory') + p.sep).normalize('NFC');

  // Cowork mode (CLAUDE_CODE_USE_COWORK_PLUGINS) keeps user settings in cowork_settings.json.
  const userSettingsName = isEnvTruthy(env.CLAUDE_CODE_USE_COWORK_PLUGINS) ? 'cowork_settings.json' : 'settings.json';
  const settings = readAllSettings({ projectDir: projectRoot, configDir, managedDir: input.managedDir ?? managedSettingsDir(platform), userSettingsName }, fs, p);
  const candidates: Candidate[] = [];
  let resolved: { path: string; source: string } | null = null;

  // 1. The override variable (no ~ expansion). An invalid one falls through to the settings.
  const override = env[OVERRIDE_VAR];
  if (override !== undefined) {
    const check = validateMemoryPath(override, false, ctx);
    if (check.ok) resolved = { path: check.path, source: OVERRIDE_VAR };
    candidates.push({
      source: OVERRIDE_VAR,
      file: null,
      value: override,
      accepted: check.ok,
      path: check.ok ? check.path : null,
      reason: check.ok ? null : check.reason,
      rule: check.ok ? null : check.rule,
    });
  }

  // 2. autoMemoryDirectory: the first source that sets it is the only one validated; an invalid
  //    value there falls back to the default, the sources below it are never consulted.
  let settingChosen: string | null = null;
  for (const source of ['policySettings', 'localSettings', 'userSettings'] as const) {
    const v = sourceValue(settings, source, 'autoMemoryDirectory');
    if (!v) continue;
    const value = String(v.value);
    if (resolved) {
      candidates.push({ source, file: v.file, value, accepted: false, path: null, reason: `not reached: ${resolved.source} already decided`, rule: 'not-reached' });
      continue;
    }
    if (settingChosen) {
      candidates.push({
        source,
        file: v.file,
        value,
        accepted: false,
        path: null,
        reason: `shadowed by ${settingChosen}: Claude Code validates only the first autoMemoryDirectory it finds`,
        rule: 'shadowed',
      });
      continue;
    }
    settingChosen = source;
    const check = validateMemoryPath(value, true, ctx);
    if (check.ok) resolved = { path: check.path, source };
    candidates.push({
      source,
      file: v.file,
      value,
      accepted: check.ok,
      path: check.ok ? check.path : null,
      reason: check.ok ? null : check.reason,
      rule: check.ok ? null : check.rule,
    });
  }
  const projectValue = sourceValue(settings, 'projectSettings', 'autoMemoryDirectory');
  if (projectValue) {
    candidates.push({
      source: 'projectSettings',
      file: projectValue.file,
      value: String(projectValue.value),
      accepted: false,
      path: null,
      reason: PROJECT_SETTINGS_REASON,
      rule: 'project-settings',
    });
  }

  // 3. The default.
  candidates.push({
    source: 'default',
    file: null,
    value: defaultPath,
    accepted: !resolved,
    path: defaultPath,
    reason: resolved ? `not used: ${resolved.source} decided` : null,
    rule: resolved ? 'not-reached' : null,
  });
  if (!resolved) resolved = { path: defaultPath, source: 'default' };

  for (const f of settings) if (f.error) notes.push(`${f.file}: ${f.error}; Claude Code ignores this file`);
  if (env.CLAUDE_CODE_PROJECT_DIR_NAME) {
    notes.push(`CLAUDE_CODE_PROJECT_DIR_NAME is set: Claude Code 2.1.234 and later use "${env.CLAUDE_CODE_PROJECT_DIR_NAME}" instead of the slug "${slug}"`);
  }
  if (slug.length > MAX_SANITIZED_LENGTH) {
    notes.push('the slug is longer than 200 characters: its hash suffix is the one Claude Code computes under Node; the native build (Bun) hashes differently');
  }
  notes.push('not visible to memlint: --settings flags, MDM (plist/registry) and server-managed policies');

  return {
    resolved: resolved.path,
    source: resolved.source,
    candidates,
    autoMemoryEnabled: autoMemoryEnabled(env, settings),
    projectRoot,
    gitRoot,
    canonicalRoot,
    canonicalRootKind: canonical ? canonical.kind : 'no-git',
    canonicalRootReason: canonical ? canonical.reason : 'not inside a git repository: the project root is used',
    slug,
    memoryBaseDir,
    defaultPath,
    settingsFiles: settings.map((f) => ({ source: f.source, file: f.file, exists: f.exists, error: f.error })),
    notes,
  };
}
