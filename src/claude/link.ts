// memlint link, Claude Code's side: the local settings file that holds autoMemoryDirectory, the
// edit of its text that keeps every other key, the .gitignore line that keeps it out of commits,
// and which memory folder of the repository link points at when none is named. The command
// (src/commands/link.ts) checks, writes and reports.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { UsageError } from '../errors.js';
import { isWithin, realOrNearestReal } from '../fs/paths.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { ignoredPaths, listFiles } from '../git/status.js';
import { discoverMemdirs } from '../memdir/discover.js';
import { homeOf, parseSettingsJson, validateMemoryPath } from './auto-memory.js';
import type { GitContext } from '../git/repo.js';

export const LOCAL_SETTINGS = '.claude/settings.local.json';
/** The setting link writes: Claude Code reads it from the local settings, never from the committed ones. */
export const AUTO_MEMORY_KEY = 'autoMemoryDirectory';

/** Whether p is a folder (following symlinks), false when there is nothing there. */
export function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Parse settings text; throws a UsageError naming the file when it is not a JSON object. */
export function parseSettingsText(text: string, file: string): Record<string, unknown> {
  const parsed = parseSettingsJson(text);
  if ('problem' in parsed) throw new UsageError(`${file} is ${parsed.problem}; fix it first`);
  return parsed.data;
}

/**
 * Whether an autoMemoryDirectory value points into the repository at `root` (real path), as link
 * and install --local set it: what unlink and uninstall may take back. Any other value is a
 * person's own.
 */
export function pointsIntoRepo(value: unknown, root: string, env: NodeJS.ProcessEnv): boolean {
  if (typeof value !== 'string') return false;
  const check = validateMemoryPath(value, true, { home: homeOf(env) });
  return check.ok && isWithin(realOrNearestReal(check.path.replace(/[/\\]+$/, '')), root);
}

/** Settings with the key set (or removed when value is undefined), every other key kept in order. */
export function withAutoMemoryDirectory(settings: Record<string, unknown>, value: string | undefined): string {
  const next: Record<string, unknown> = { ...settings };
  if (value === undefined) delete next[AUTO_MEMORY_KEY];
  else next[AUTO_MEMORY_KEY] = value;
  return `${JSON.stringify(next, null, 2)}\n`;
}

/** The line .gitignore needs so git ignores the local settings, appended to the existing text. */
export function appendIgnoreLine(gitignore: string, line: string): string {
  if (gitignore === '') return `${line}\n`;
  const eol = gitignore.includes('\r\n') ? '\r\n' : '\n';
  return `${gitignore}${gitignore.endsWith('\n') ? '' : eol}${line}${eol}`;
}

/** The repository's memory folder: .claude/memory/ when it exists, else the only one, else .claude/memory/. */
export async function defaultMemdir(root: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const conventional = path.join(root, '.claude', 'memory');
  if (existsSync(conventional)) return conventional;
  const loaded = await loadConfig({ cwd, stderr: null });
  const found = discoverMemdirs({ cwd: root, env, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir })
    .map((d) => d.dir)
    .filter((d) => !/[/\\]\.claude[/\\]agent-memory/.test(d) && isWithin(d, root));
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UsageError(`several memory folders (${found.map((d) => path.relative(root, d)).join(', ')}); choose one with --memdir DIR`);
  return conventional;
}

export interface LocalLinkOutcome {
  /** What was (or would be) done, one line each. */
  done: string[];
  /** What still needs a person (the settings file committed, .gitignore behind a symlink). */
  problems: string[];
}

/**
 * Write autoMemoryDirectory = value into this worktree's .claude/settings.local.json (every other
 * key kept) and keep that file out of commits: the one write `memlint link` and the linking of a
 * checkout by install share. The caller has validated value and checked the settings path.
 */
export function setLocalLink(at: GitContext, settings: Record<string, unknown>, value: string, dry: boolean): LocalLinkOutcome {
  const root = at.cwd;
  const settingsFile = path.join(root, ...LOCAL_SETTINGS.split('/'));
  const done: string[] = [];
  const problems: string[] = [];
  if (settings[AUTO_MEMORY_KEY] === value) done.push(`${AUTO_MEMORY_KEY} in ${settingsFile} already is ${value}`);
  else {
    if (!dry) writeInsideRepo(root, settingsFile, withAutoMemoryDirectory(settings, value), { mkdir: true });
    done.push(`${dry ? 'would set' : 'set'} ${AUTO_MEMORY_KEY} = ${value} in ${settingsFile}`);
  }
  // The file holds a path of this machine: keep it out of commits.
  if (listFiles(at, { untracked: false, pathspec: [LOCAL_SETTINGS] }).length > 0) {
    problems.push(`${LOCAL_SETTINGS} is committed; it holds a path of this machine: git rm --cached ${LOCAL_SETTINGS}`);
  } else if (ignoredPaths(at, [LOCAL_SETTINGS]).size === 0) {
    const gitignore = path.join(root, '.gitignore');
    const ignoreSafe = checkInsideRepo(root, gitignore);
    if (!ignoreSafe.ok) problems.push(`${ignoreSafe.reason}; add ${LOCAL_SETTINGS} to it yourself`);
    else {
      const text = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
      if (!dry) writeInsideRepo(root, gitignore, appendIgnoreLine(text, LOCAL_SETTINGS));
      done.push(`${dry ? 'would add' : 'added'} ${LOCAL_SETTINGS} to ${gitignore}`);
    }
  }
  return { done, problems };
}
