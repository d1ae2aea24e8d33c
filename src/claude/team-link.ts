// The team's decision that Claude Code's auto memory is the committed memory folder (config
// "link"), and what it means in one checkout: which folder that is here, whether this person opted
// out, whether Claude Code already resolves it, and the linking itself (the checkout's default
// store adopted first, then autoMemoryDirectory written into .claude/settings.local.json). install
// links, doctor and the SessionStart hook report, where shows it: all from linkState.
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { isWithin, realOrNearestReal, realOrResolved, slashRelative } from '../fs/paths.js';
import { addLocalConfig, configValue, localConfigValues } from '../git/config.js';
import { listFiles } from '../git/status.js';
import { planAdopt } from './adopt.js';
import { isEnvDefinedFalsy, OVERRIDE_VAR, resolveAutoMemoryPath, validateMemoryPath, type Resolution } from './auto-memory.js';
import { AUTO_MEMORY_KEY, LOCAL_SETTINGS, defaultMemdir, parseSettingsText, setLocalLink } from './link.js';
import { readStore, type StrayStore } from './stores.js';
import type { StoreFiles } from './adopt.js';
import { parseTopic } from '../memdir/topic.js';
import { parseIndex } from '../memdir/memory-index.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import type { GitContext } from '../git/repo.js';
import { shellPath } from '../shell.js';

/** A person's opt-out: git config (this clone, or --global for every repository) ... */
export const OPT_OUT_GIT_KEY = 'memlint.link';
/** ... or the environment, for one run (CI, a container). */
export const OPT_OUT_ENV = 'MEMLINT_LINK';
/** Local git config: each store adopted by linking, as "<newest mtime ms> <store folder>". */
export const ADOPTED_KEY = 'memlint.adoptedStore';
/** The folder Claude Code's own convention puts a repository's memory in. */
export const CONVENTIONAL_MEMDIR = '.claude/memory';

const GIT_FALSE = new Set(['false', 'no', 'off', '0', '']);

export interface LinkState {
  root: string;
  /** The environment it was read in, which linking runs git in. */
  env: NodeJS.ProcessEnv;
  /** The team's setting was found (config "link" true or a folder). */
  decided: boolean;
  /** The config file that holds the decision. */
  configFile: string | null;
  /**
   * The memory folder this checkout shares: the setting's folder, else a committed .claude/memory;
   * null when the repository shares none.
   */
  memdir: string | null;
  /** Why this person is not linked on purpose ("git config memlint.link=false"), or null. */
  optedOut: string | null;
  resolution: Resolution;
  /** Claude Code started at the top of this checkout uses memdir. */
  linked: boolean;
  /** Why memdir cannot be linked whatever anyone runs (a symlink on its path: memlint does not follow it), or null. */
  refused: string | null;
}

/** The opt-out in force for root, said the way the person set it, or null. */
export function optOut(root: string, env: NodeJS.ProcessEnv): string | null {
  const fromEnv = env[OPT_OUT_ENV];
  if (isEnvDefinedFalsy(fromEnv)) return `${OPT_OUT_ENV}=${fromEnv}`;
  const fromGit = configValue({ cwd: root, env }, OPT_OUT_GIT_KEY);
  if (fromGit !== null && GIT_FALSE.has(fromGit.trim().toLowerCase())) return `git config ${OPT_OUT_GIT_KEY}=${fromGit === '' ? 'false' : fromGit}`;
  return null;
}

/** The memory folder the team's setting names, in this checkout (absolute), or null when there is no setting. */
export async function settingMemdir(root: string, env: NodeJS.ProcessEnv): Promise<{ dir: string; file: string | null } | null> {
  const loaded = await loadConfig({ cwd: root, stderr: null });
  const link = loaded.config.link;
  if (link === undefined || link === false) return null;
  const dir = typeof link === 'string' ? path.resolve(loaded.dir, link) : await defaultMemdir(root, root, env);
  return { dir, file: loaded.file };
}

function sameFolder(a: string, b: string): boolean {
  return realOrNearestReal(a.replace(/[/\\]+$/, '')) === realOrNearestReal(b.replace(/[/\\]+$/, ''));
}

export async function linkState(root: string, env: NodeJS.ProcessEnv, home: string): Promise<LinkState> {
  const setting = await settingMemdir(root, env);
  let memdir = setting?.dir ?? null;
  if (!memdir && listFiles({ cwd: root, env }, { untracked: false, pathspec: [CONVENTIONAL_MEMDIR] }).length > 0) memdir = path.join(root, ...CONVENTIONAL_MEMDIR.split('/'));
  const resolution = resolveAutoMemoryPath({ cwd: root, env, home });
  return {
    root,
    env,
    decided: !!setting,
    configFile: setting?.file ?? null,
    memdir,
    optedOut: optOut(root, env),
    resolution,
    linked: memdir !== null && sameFolder(resolution.resolved, memdir),
    refused: memdir !== null && isWithin(memdir, root) ? refusedFolder(root, memdir) : null,
  };
}

/** Why memlint leaves this folder of the checkout alone (a symlink on its path), or null. */
function refusedFolder(root: string, dir: string): string | null {
  const safe = checkInsideRepo(root, dir.replace(/[/\\]+$/, ''));
  return safe.ok ? null : safe.reason;
}

/** A path for one line: relative to root when inside it. */
export function shown(p: string, root: string): string {
  const clean = p.replace(/[/\\]+$/, '');
  return isWithin(clean, root) ? slashRelative(root, clean) || '.' : clean;
}

// ---------------------------------------------------------------------------------------------
// Adopted stores

/** The stores linking (or adopt) brought in, each with the newest mtime it held then. */
export function adoptedStores(at: GitContext): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of localConfigValues(at, ADOPTED_KEY)) {
    const space = v.indexOf(' ');
    const ms = Number(v.slice(0, space));
    if (space > 0 && Number.isFinite(ms)) out.set(v.slice(space + 1), Math.max(ms, out.get(v.slice(space + 1)) ?? 0));
  }
  return out;
}

/** Note that a store was adopted with everything it held up to newestMs. */
export function recordAdopted(at: GitContext, store: string, newestMs: number): void {
  if ((adoptedStores(at).get(realOrResolved(store)) ?? -1) >= Math.round(newestMs)) return;
  addLocalConfig(at, ADOPTED_KEY, `${Math.round(newestMs)} ${realOrResolved(store)}`);
}

/** The stray stores still holding memory not brought in: not adopted, or written since. */
export function notAdopted(stores: StrayStore[], at: GitContext): StrayStore[] {
  const adopted = adoptedStores(at);
  return stores.filter((s) => {
    const adoptedAt = adopted.get(realOrResolved(s.dir));
    return adoptedAt === undefined || (s.newest !== null && Date.parse(s.newest) > adoptedAt);
  });
}

/** The newest mtime (ms) of these files of dir; 0 when none can be read. */
export function newestMtime(dir: string, rels: Iterable<string>): number {
  let newest = 0;
  for (const rel of rels) {
    try {
      newest = Math.max(newest, lstatSync(path.join(dir, ...rel.split('/'))).mtimeMs);
    } catch {
      // vanished meanwhile
    }
  }
  return newest;
}

// ---------------------------------------------------------------------------------------------
// Linking one checkout

/**
 * A store without its `user` memories (Claude Code: "always private", they describe one person)
 * and their index entries: linking puts a store into the team's shared folder, where they would
 * reach the shared branch with the next "git add". team/ holds what a person shared on purpose.
 */
export function withoutPersonal(store: StoreFiles): { store: StoreFiles; personal: string[] } {
  const personal = [...store.files.entries()].filter(([rel, text]) => rel !== INDEX_FILE && !rel.startsWith('team/') && parseTopic(text).type === 'user').map(([rel]) => rel);
  if (personal.length === 0) return { store, personal };
  const drop = new Set(personal);
  const files = new Map([...store.files].filter(([rel]) => !drop.has(rel)));
  const index = files.get(INDEX_FILE);
  if (index !== undefined) {
    files.set(INDEX_FILE, parseIndex(index).lines.filter((l) => !(l.entry && drop.has(l.entry.key))).map((l) => l.text + l.eol).join(''));
  }
  return { store: { ...store, files }, personal };
}

/** What linking and adopt say of the user memories they leave in a store. */
export function personalNote(personal: string[], store: string, dry = false): string {
  return `${personal.length} user memor${personal.length === 1 ? 'y' : 'ies'} (about you: ${personal.slice(0, 3).join(', ')}${personal.length > 3 ? ', …' : ''}) ${dry ? 'would be ' : ''}left in ${store}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)`;
}

export interface CheckoutLink {
  /** The one line the run prints. */
  line: string;
  /** Linked (or already linked). */
  linked: boolean;
}

/**
 * Link this checkout as the team decided: the target validated as Claude Code validates
 * autoMemoryDirectory and kept inside the checkout; the checkout's default store (the memory
 * Claude Code kept for it so far) adopted first, or named when it cannot be adopted cleanly;
 * then autoMemoryDirectory written. Never throws for a reason of the checkout's: says why not.
 */
export async function linkCheckout(state: LinkState, home: string, dry: boolean): Promise<CheckoutLink> {
  const { root, resolution } = state;
  const at = { cwd: root, env: state.env };
  const head = 'memlint link:';
  const would = dry ? 'would ' : '';
  const no = (why: string): CheckoutLink => ({ line: `${head} not linked: ${why}`, linked: false });
  if (!state.memdir) return no('no memory folder to link to');
  const target = state.memdir.replace(/[/\\]+$/, '');
  const rel = shown(target, root);
  if (state.optedOut) {
    if (state.linked) return { line: `${head} you opted out (${state.optedOut}), but this checkout was linked before: left as it is ("memlint link --unlink" undoes it)`, linked: true };
    return no(`you opted out (${state.optedOut}); Claude Code keeps using ${shown(resolution.resolved, root)}`);
  }
  if (state.linked) return { line: `${head} already linked: Claude Code uses ${rel} here (${resolution.source})`, linked: true };
  const check = validateMemoryPath(target, false, { home });
  if (!check.ok) return no(`Claude Code would reject ${target} as ${AUTO_MEMORY_KEY}: ${check.reason}`);
  if (!isWithin(target, root)) return no(`${target} lies outside this checkout (${root}); the setting "link" must name a folder inside it`);
  const targetSafe = checkInsideRepo(root, target);
  if (!targetSafe.ok) return no(targetSafe.reason); // the reason says memlint does not write or read through it
  const settingsFile = path.join(root, ...LOCAL_SETTINGS.split('/'));
  const settingsSafe = checkInsideRepo(root, settingsFile);
  if (!settingsSafe.ok) return no(`${settingsSafe.reason}; ${LOCAL_SETTINGS} left as it is`);
  // What outranks the local settings file would make the link a dead letter.
  if (resolution.source === OVERRIDE_VAR || resolution.source === 'policySettings') {
    return no(`${resolution.source} decides where Claude Code keeps memory here (${resolution.resolved}), over ${LOCAL_SETTINGS}`);
  }
  let settings: Record<string, unknown>;
  try {
    settings = parseSettingsText(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '', settingsFile);
  } catch (err) {
    return no((err as Error).message);
  }

  // The default store is this checkout's memory so far: adopted first, so linking strands nothing.
  // A store named in user settings serves every project: left alone, and named.
  let adoptedNote = '';
  const previous = resolution.resolved.replace(/[/\\]+$/, '');
  if (resolution.source === 'default' && !isWithin(realOrResolved(previous), root) && existsSync(previous)) {
    const whole = await readStore(previous);
    // Everything the store holds now counts as seen: its private part is named, not adopted.
    const newest = newestMtime(previous, [...whole.files.keys(), ...whole.unreadable.map((u) => u.rel)]);
    const { store, personal } = withoutPersonal(whole);
    const recorded = adoptedStores(at).get(realOrResolved(previous));
    if (store.files.size > 0 && !(recorded !== undefined && newest <= recorded)) {
      const plan = planAdopt([store], (r) => {
        try {
          return readFileSync(path.join(target, ...r.split('/')), 'utf8');
        } catch {
          return null;
        }
      });
      const conflicted = plan.ops.filter((o) => o.conflicts.length > 0).map((o) => o.rel);
      const blocked = plan.skipped.filter((s) => s.blocking).map((s) => s.rel);
      if (conflicted.length + blocked.length > 0) {
        return no(`Claude Code's memory for this checkout so far (${previous}) conflicts with ${rel} (${[...conflicted, ...blocked].slice(0, 3).join(', ')}): run "memlint adopt", settle what it marks, then "memlint install --local"`);
      }
      for (const op of plan.ops) {
        const file = path.join(target, ...op.rel.split('/'));
        const safe = checkInsideRepo(root, file);
        if (!safe.ok) return no(`${safe.reason}; nothing adopted from ${previous}`);
      }
      if (!dry) {
        for (const op of plan.ops) writeInsideRepo(root, path.join(target, ...op.rel.split('/')), op.after, { mkdir: true });
        recordAdopted(at, previous, newest);
      }
      const notes: string[] = [];
      if (plan.ops.length > 0) notes.push(`${would}adopted ${plan.ops.length} file${plan.ops.length === 1 ? '' : 's'} from ${previous} first (the store is unchanged)`);
      const unread = plan.skipped.filter((s) => !s.blocking).length;
      if (unread > 0) notes.push(`${unread} file${unread === 1 ? '' : 's'} of it not adopted ("memlint adopt --dry-run" names ${unread === 1 ? 'it' : 'them'})`);
      if (personal.length > 0) notes.push(personalNote(personal, previous));
      adoptedNote = notes.map((n) => `; ${n}`).join('');
    }
  } else if (resolution.source === 'userSettings') {
    adoptedNote = `; your user settings' ${AUTO_MEMORY_KEY} (${previous}) serves every project and is left as it is ("memlint adopt ${shellPath(previous)}" brings its memory in)`;
  }

  const outcome = setLocalLink(at, settings, target, dry);
  const problems = outcome.problems.length ? `; but ${outcome.problems.join('; ')}` : '';
  return { line: `${head} ${would}linked: Claude Code ${dry ? 'would keep' : 'now keeps'} this checkout's memory in ${rel} (${AUTO_MEMORY_KEY} in ${LOCAL_SETTINGS})${adoptedNote}${problems}`, linked: true };
}

// ---------------------------------------------------------------------------------------------
// What doctor and the SessionStart hook say

/** The mismatch, when the repository shares a memory folder and Claude Code here uses another; else null. */
export function linkProblem(state: LinkState): { committed: string; resolved: string; fix: string } | null {
  if (!state.memdir || state.linked || state.optedOut || !state.resolution.autoMemoryEnabled.value) return null;
  const src = state.resolution.source;
  if (state.refused !== null) {
    // No command links a folder memlint does not follow: the folder itself has to be there.
    return { committed: state.memdir.replace(/[/\\]+$/, ''), resolved: state.resolution.resolved.replace(/[/\\]+$/, ''), fix: `put a real folder at ${shown(state.memdir, state.root)}, with the memory files in it, in place of the symlink (memlint does not follow one)` };
  }
  const fix =
    src === OVERRIDE_VAR
      ? `unset ${OVERRIDE_VAR}`
      : src === 'policySettings'
        ? 'ask whoever manages the policy settings: they set autoMemoryDirectory'
        : state.decided
          ? 'memlint install --local (links this checkout as the team decided)'
          : 'memlint install --link (the team decides once; every checkout then links on npm install) or memlint link (this checkout only)';
  return { committed: state.memdir.replace(/[/\\]+$/, ''), resolved: state.resolution.resolved.replace(/[/\\]+$/, ''), fix };
}
