// memlint's two Claude Code hooks in the team's shared .claude/settings.json: PostToolUse
// (Write|Edit) and SessionStart (startup|resume|clear|compact), both running `memlint hook`.
// install adds them (idempotent, every other key and hook kept), uninstall removes exactly them,
// doctor reports them. The command names memlint relative to $CLAUDE_PROJECT_DIR, so it works in
// every teammate's checkout, and only advises (exit 0) where memlint is not installed.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strayStoresOf } from '../claude/stores.js';
import { CONVENTIONAL_MEMDIR, linkProblem, linkState, notAdopted, shown, type LinkState } from '../claude/team-link.js';
import { checkInsideRepo } from '../fs/inside.js';
import { homeOf, parseSettingsJson, resolveAutoMemoryPath } from '../claude/auto-memory.js';
import { DEFAULT_MEMLINT_BIN } from '../merge/command.js';
import type { Check } from './doctor.js';
import { rewriteJson } from './json-edit.js';
import { parseTree, type Node } from 'jsonc-parser/lib/esm/main.js';
import { UsageError } from '../errors.js';
import { memlintWords, type Action, type Worktree } from './setup.js';
import { withoutBom } from '../memdir/lines.js';

export const CLAUDE_SETTINGS = '.claude/settings.json';

export const CLAUDE_HOOKS = [
  { event: 'PostToolUse', matcher: 'Write|Edit' },
  { event: 'SessionStart', matcher: 'startup|resume|clear|compact' },
] as const;

/** Seconds Claude Code waits for the hook (its default is 600: a stuck hook must not stall the agent that long). */
export const HOOK_TIMEOUT = 30;

const ADVICE = 'memlint is not installed in this checkout (npm install): memory was not checked';

/**
 * The hook command for a way of starting memlint (memlintWords): never fails when memlint is
 * missing. In a linked worktree without node_modules (Claude Code's own agent worktrees under
 * .claude/worktrees/ among them) it runs the main worktree's memlint, as the git hooks and the
 * merge driver do (src/merge/command.ts mainWorktreeCopy).
 */
export function claudeHookCommand(words: string): string {
  const inProject = (file: string, test: '-x' | '-f', run: string) =>
    `m="$CLAUDE_PROJECT_DIR/${file}"; if [ ! ${test} "$m" ]; then m=$(git -C "$CLAUDE_PROJECT_DIR" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || :); case $m in */.git) m=\${m%/.git}/${file} ;; *) m= ;; esac; fi; if [ -n "$m" ] && [ ${test} "$m" ]; then ${run} hook; else echo "${ADVICE}" >&2; fi`;
  if (words === DEFAULT_MEMLINT_BIN) return inProject(DEFAULT_MEMLINT_BIN, '-x', '"$m"');
  if (words.startsWith('node ')) return inProject(words.split(/\s+/)[1]!.replace(/^\.\//, ''), '-f', 'node "$m"');
  return `if command -v ${words} >/dev/null 2>&1; then ${words} hook; else echo "${ADVICE}" >&2; fi`;
}

/** The commands memlint wrote before the main worktree's fallback: recognised, and brought up to date by install. */
function earlierHookCommand(words: string): string {
  if (words === DEFAULT_MEMLINT_BIN) return `m="$CLAUDE_PROJECT_DIR/${DEFAULT_MEMLINT_BIN}"; if [ -x "$m" ]; then "$m" hook; else echo "${ADVICE}" >&2; fi`;
  const script = words.split(/\s+/)[1]!.replace(/^\.\//, '');
  return `m="$CLAUDE_PROJECT_DIR/${script}"; if [ -f "$m" ]; then node "$m" hook; else echo "${ADVICE}" >&2; fi`;
}

/** Every command memlint may have installed (any way of starting it), so a change of layout is recognised. */
function ownCommands(): Set<string> {
  return new Set([
    claudeHookCommand(DEFAULT_MEMLINT_BIN),
    claudeHookCommand('node ./dist/cli.js'),
    claudeHookCommand('memlint'),
    earlierHookCommand(DEFAULT_MEMLINT_BIN),
    earlierHookCommand('node ./dist/cli.js'),
  ]);
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function isOwnHandler(h: unknown, own: Set<string>): boolean {
  return isRecord(h) && h.type === 'command' && typeof h.command === 'string' && own.has(h.command);
}

export function parseSettings(text: string | null, file: string): Json {
  const parsed = parseSettingsJson(text ?? '');
  if ('problem' in parsed) throw new Error(`${file} is ${parsed.problem}; fix it, then run install again`);
  const twice = text ? duplicateKey(text) : null;
  // JSON.parse keeps the last of two equal keys, as Claude Code does, while an edit lands on the
  // first: memlint's hooks would be written where Claude Code never reads them.
  if (twice) throw new UsageError(`${file}:${twice.line}: key ${JSON.stringify(twice.key)} appears twice in one object (Claude Code keeps the last); remove one, then run install again`);
  return parsed.data;
}

/** The first key that appears twice in one object of a JSON text, with the 1-based line of its second appearance. */
function duplicateKey(text: string): { key: string; line: number } | null {
  const visit = (node: Node | undefined): { key: string; offset: number } | null => {
    if (!node) return null;
    if (node.type === 'object') {
      const seen = new Set<string>();
      for (const prop of node.children ?? []) {
        const keyNode = prop.children?.[0];
        if (!keyNode || typeof keyNode.value !== 'string') continue;
        if (seen.has(keyNode.value)) return { key: keyNode.value, offset: keyNode.offset };
        seen.add(keyNode.value);
      }
    }
    for (const child of node.children ?? []) {
      const found = visit(child);
      if (found) return found;
    }
    return null;
  };
  const body = withoutBom(text);
  const found = visit(parseTree(body));
  return found ? { key: found.key, line: body.slice(0, found.offset).split('\n').length } : null;
}

/** The settings text with memlint's hooks present and current: other keys, groups and handlers as they were. */
export function withClaudeHooks(text: string | null, command: string, file = CLAUDE_SETTINGS): string {
  const settings = parseSettings(text, file);
  const own = ownCommands();
  if (settings.hooks !== undefined && !isRecord(settings.hooks)) throw new Error(`${file}: "hooks" is not an object; fix it, then run install again`);
  const hooks: Json = isRecord(settings.hooks) ? { ...settings.hooks } : {};
  for (const { event, matcher } of CLAUDE_HOOKS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    if (hooks[event] !== undefined && !Array.isArray(hooks[event])) throw new Error(`${file}: hooks.${event} is not a list; fix it, then run install again`);
    const handler = { type: 'command', command, timeout: HOOK_TIMEOUT };
    const at = groups.findIndex((g) => isRecord(g) && g.matcher === matcher && Array.isArray(g.hooks) && g.hooks.some((h) => isOwnHandler(h, own)));
    // Handlers of memlint's under another matcher (edited by hand) are taken out: one per event.
    const cleaned = groups.flatMap((g, i) => {
      if (i === at || !isRecord(g) || !Array.isArray(g.hooks) || !g.hooks.some((h) => isOwnHandler(h, own))) return [g];
      const rest = g.hooks.filter((h) => !isOwnHandler(h, own));
      return rest.length ? [{ ...g, hooks: rest }] : [];
    });
    if (at >= 0) {
      const g = groups[at] as Json;
      const idx = cleaned.indexOf(g);
      const list = (g.hooks as unknown[]).map((h) => (isOwnHandler(h, own) ? { ...(h as Json), command } : h));
      cleaned[idx] = { ...g, hooks: list };
    } else cleaned.push({ matcher, hooks: [handler] });
    hooks[event] = cleaned;
  }
  const next = { ...settings, hooks };
  // Unchanged in substance: keep the bytes as they are (a second install changes nothing).
  if (text !== null && JSON.stringify(parseSettings(text, file)) === JSON.stringify(next)) return text;
  if (text === null || text.trim() === '') return `${JSON.stringify(next, null, 2)}\n`;
  return rewriteJson(text, settings, next);
}

/** The settings text without memlint's hooks (null: the file held nothing else, remove it). */
export function withoutClaudeHooks(text: string, file = CLAUDE_SETTINGS): string | null {
  const settings = parseSettings(text, file);
  if (!isRecord(settings.hooks)) return text;
  const own = ownCommands();
  const hooks: Json = { ...settings.hooks };
  let changed = false;
  for (const { event } of CLAUDE_HOOKS) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept = groups.flatMap((g) => {
      if (!isRecord(g) || !Array.isArray(g.hooks) || !g.hooks.some((h) => isOwnHandler(h, own))) return [g];
      changed = true;
      const rest = g.hooks.filter((h) => !isOwnHandler(h, own));
      return rest.length ? [{ ...g, hooks: rest }] : [];
    });
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!changed) return text;
  const next: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  if (Object.keys(next).length === 0) return null;
  return rewriteJson(text, settings, next);
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** install --claude: the change to .claude/settings.json, if any. */
export function planClaudeInstall(wt: Worktree): Action[] {
  const path = join(wt.root, ...CLAUDE_SETTINGS.split('/'));
  const safe = checkInsideRepo(wt.root, path);
  if (!safe.ok) return [{ kind: 'note', what: `${safe.reason}: ${CLAUDE_SETTINGS} left as it is` }];
  const before = readText(path);
  const after = withClaudeHooks(before, claudeHookCommand(memlintWords(wt.root)), path);
  if (after === before) return [];
  return [{ kind: 'file', rel: CLAUDE_SETTINGS, path, before, after, what: 'Claude Code hooks: memlint hook after Write|Edit and at SessionStart' }];
}

/** uninstall: memlint's hooks out of .claude/settings.json, every other key and hook kept. */
export function planClaudeUninstall(wt: Worktree): Action[] {
  const path = join(wt.root, ...CLAUDE_SETTINGS.split('/'));
  if (!checkInsideRepo(wt.root, path).ok) return [];
  const before = readText(path);
  if (before === null) return [];
  let after: string | null;
  try {
    after = withoutClaudeHooks(before, path);
  } catch {
    return []; // not JSON: nothing of memlint's can be told apart in it
  }
  if (after === before) return [];
  return [{ kind: 'file', rel: CLAUDE_SETTINGS, path, before, after, what: 'memlint hooks removed' }];
}

/** doctor: whether both hooks are in .claude/settings.json and their command can start memlint here. */
export function checkClaudeHooks(wt: Worktree): Check {
  const part = 'claude hooks';
  const path = join(wt.root, ...CLAUDE_SETTINGS.split('/'));
  let settings: Json;
  try {
    settings = parseSettings(readText(path), path);
  } catch (err) {
    return { part, ok: false, detail: (err as Error).message.replace(/; fix it, then run install again$/, ''), fix: `fix ${CLAUDE_SETTINGS}, then memlint install --claude` };
  }
  const own = ownCommands();
  const hooks = isRecord(settings.hooks) ? settings.hooks : {};
  const found = CLAUDE_HOOKS.map(({ event, matcher }) => {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const group = groups.find((g) => isRecord(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isOwnHandler(h, own))) as Json | undefined;
    return { event, matcher, group };
  });
  if (found.every((f) => !f.group)) {
    return { part, ok: true, detail: `not set up (optional: "memlint install --claude" lets the agent hear about its memory mistakes at once)` };
  }
  const missing = found.filter((f) => !f.group).map((f) => f.event);
  if (missing.length) return { part, ok: false, detail: `${CLAUDE_SETTINGS} has memlint's hook for ${found.filter((f) => f.group).map((f) => f.event).join(', ')} but not for ${missing.join(', ')}`, fix: 'memlint install --claude' };
  const wrong = found.filter((f) => f.group!.matcher !== f.matcher);
  if (wrong.length) return { part, ok: false, detail: wrong.map((f) => `${f.event} matcher is ${JSON.stringify(f.group!.matcher)}, not "${f.matcher}"`).join('; '), fix: 'memlint install --claude' };
  const words = memlintWords(wt.root);
  const bin = words === DEFAULT_MEMLINT_BIN ? join(wt.root, DEFAULT_MEMLINT_BIN) : words.startsWith('node ') ? join(wt.root, words.split(/\s+/)[1]!) : null;
  if (bin !== null) {
    try {
      accessSync(bin, words.startsWith('node ') ? constants.R_OK : constants.X_OK);
    } catch {
      // A linked worktree without node_modules: the command runs the main worktree's memlint, if
      // the command is this version's and the main worktree has one.
      const program = bin.slice(wt.root.length + 1);
      const mainBin = wt.isLinked && wt.mainRoot ? join(wt.mainRoot, program) : null;
      const commands = found.flatMap((f) => (f.group!.hooks as unknown[]).filter((h) => isOwnHandler(h, own)).map((h) => (h as Json).command));
      const current = commands.every((c) => c === claudeHookCommand(words));
      if (mainBin !== null && existsSync(mainBin)) {
        if (current) return { part, ok: true, detail: `${CLAUDE_SETTINGS} runs "memlint hook" after Write|Edit and at SessionStart; this worktree has no ${program}, so they run the main worktree's (${mainBin})` };
        return { part, ok: false, detail: `${CLAUDE_SETTINGS} runs memlint hook with a command written before it could use the main worktree's memlint, and this worktree has no ${program}: the hooks only advise here`, fix: 'memlint install --claude (in any worktree), then commit .claude/settings.json' };
      }
      return { part, ok: false, detail: `${CLAUDE_SETTINGS} runs memlint hook, but ${bin} is missing in this worktree: the hooks only advise until it is installed`, fix: existsSync(join(wt.root, 'package.json')) ? 'npm install' : 'npm install -g memlint' };
    }
  }
  return { part, ok: true, detail: `${CLAUDE_SETTINGS} runs "memlint hook" after Write|Edit and at SessionStart (startup|resume|clear|compact)` };
}

/** doctor: memory stranded in another Claude Code store of this repository (where --all). */
export function checkStrayStores(wt: Worktree): Check {
  const { env } = wt;
  const part = 'stray stores';
  const resolution = resolveAutoMemoryPath({ cwd: wt.root, env, home: homeOf(env) });
  const stray = notAdopted(strayStoresOf(resolution, env), { cwd: wt.root, env });
  if (stray.length === 0) return { part, ok: true, detail: `none: Claude Code's memory for this repository is ${resolution.resolved}` };
  const files = stray.reduce((n, s) => n + s.mdFiles, 0);
  return {
    part,
    ok: false,
    detail: `${stray.length} Claude Code memory store${stray.length === 1 ? '' : 's'} of this repository not in use, ${files} .md file${files === 1 ? '' : 's'} (${stray.map((s) => s.dir).join(', ')})`,
    fix: 'memlint where --all, then memlint adopt',
  };
}

/**
 * doctor: the team's memory is the memory Claude Code uses here. An error when the repository
 * commits a memory folder (or its config "link" names one) and Claude Code in this checkout
 * resolves another, naming both and the fix; a person's opt-out is said, not failed.
 */
export async function checkLink(wt: Worktree): Promise<Check> {
  const { env } = wt;
  const part = 'link';
  let state: LinkState;
  try {
    state = await linkState(wt.root, env, homeOf(env));
  } catch (err) {
    return { part, ok: false, detail: (err as Error).message.split('\n')[0]!, fix: 'fix the config, then memlint install --local' };
  }
  const here = shownLinkPath(state.resolution.resolved, wt.root);
  if (!state.memdir) return { part, ok: true, detail: `the repository commits no ${CONVENTIONAL_MEMDIR} and its config sets no "link": Claude Code keeps memory in ${here}` };
  const committed = shownLinkPath(state.memdir, wt.root);
  if (!state.resolution.autoMemoryEnabled.value) return { part, ok: true, detail: `auto memory is off here (${state.resolution.autoMemoryEnabled.source}): Claude Code reads no memory folder` };
  if (state.linked) return { part, ok: true, detail: `Claude Code uses the committed ${committed} in this checkout (${state.resolution.source})${state.decided ? '' : '; "memlint install --link" makes every checkout link on npm install'}` };
  if (state.optedOut) return { part, ok: true, detail: `opted out (${state.optedOut}): Claude Code uses ${here}, not the team's ${committed}` };
  const problem = linkProblem(state)!;
  if (state.refused !== null) return { part, ok: false, detail: `the repository's memory folder ${committed} cannot be linked: ${state.refused}; Claude Code here uses ${here}`, fix: problem.fix };
  return { part, ok: false, detail: `the repository shares its memory in ${problem.committed}, but Claude Code in this checkout uses ${problem.resolved} (${state.resolution.source}): what the agent remembers here is not shared, and it does not read the team's memory`, fix: problem.fix };
}

function shownLinkPath(p: string, root: string): string {
  return p.replace(/[/\\]+$/, '') === root ? root : shown(p, root);
}
