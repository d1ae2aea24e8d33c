// The package.json prepare script: "husky" (hooks in every clone after npm install) and
// "memlint install --local" (the merge driver in every clone's git config). Edited in place:
// only the scripts that change are rewritten, in the file's own indentation and line endings.
// Beside it, in npm's "config" object, install notes the prepare script the project had before
// (`"memlintPreparedFrom": ""` when it had none): the note travels with the file, so uninstall in
// any clone gives back the same original.
import { rewriteJson } from './json-edit.js';

type Scripts = Record<string, string>;

/** The key of package.json's "config" object that holds the original prepare script. */
export const PREPARED_FROM = 'memlintPreparedFrom';

/** What install noted in package.json: the prepare script before memlint's part ('' for none). */
export interface PackageNote {
  preparedFrom?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function editScripts(text: string, edit: (scripts: Scripts, note: PackageNote) => void): string {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text;
  }
  const before: Scripts = isObject(json.scripts) ? { ...(json.scripts as Scripts) } : {};
  const scripts: Scripts = { ...before };
  const config = isObject(json.config) ? json.config : {};
  const noted = typeof config[PREPARED_FROM] === 'string' ? (config[PREPARED_FROM] as string) : undefined;
  const note: PackageNote = noted === undefined ? {} : { preparedFrom: noted };
  edit(scripts, note);
  const scriptsChanged = JSON.stringify(scripts) !== JSON.stringify(before);
  if (!scriptsChanged && note.preparedFrom === noted) return text;
  const next: Record<string, unknown> = { ...json };
  if (scriptsChanged) {
    next.scripts = scripts;
    if (Object.keys(scripts).length === 0) delete next.scripts;
  }
  if (note.preparedFrom !== noted) {
    const nextConfig: Record<string, unknown> = { ...config };
    if (note.preparedFrom === undefined) delete nextConfig[PREPARED_FROM];
    else nextConfig[PREPARED_FROM] = note.preparedFrom;
    next.config = nextConfig;
    if (Object.keys(nextConfig).length === 0) delete next.config;
  }
  return rewriteJson(text, json, next);
}

const HUSKY_RE = /(^|[\s;&|(])husky($|[\s;&|)])/;

/** memlint's part of a project's prepare script, unguarded (as installs before the guard wrote it). */
export const PROJECT_PREPARE = 'memlint install --local';

/**
 * memlint's part guarded: memlint is a devDependency, absent after `npm ci --omit=dev` or
 * `NODE_ENV=production npm ci`, where an unguarded prepare fails the install (exit 127). `|| exit 0`
 * reads the same in sh and in cmd.exe (npm's script shells); in parentheses after the project's
 * own prepare, so a failure of the project's own part is not hidden. The husky memlint adds goes
 * inside the guard, since husky is a devDependency too.
 */
export function guardedPart(husky: boolean, alone: boolean): string {
  const body = `${husky ? 'husky && ' : ''}${PROJECT_PREPARE} || exit 0`;
  return alone ? body : `(${body})`;
}

/** The prepare script as installs before the guard made it: what a new install upgrades, and uninstall recognises. */
function unguardedScript(existing: string | undefined, ours: string, withHusky: boolean): string {
  const husky = withHusky ? 'husky && ' : '';
  if (!existing || existing.trim() === '') return `${husky}${ours}`;
  if (existing.includes(ours)) return withHusky && !HUSKY_RE.test(existing) ? existing.replace(ours, `husky && ${ours}`) : existing;
  return HUSKY_RE.test(existing) ? `${existing} && ${ours}` : `${existing} && ${husky}${ours}`;
}

/**
 * The prepare script with husky (when the project depends on it: a prepare that runs a missing
 * husky fails npm install) and memlint's part, added once. In a project memlint's part is guarded
 * (guardedPart), and an older install's unguarded part is upgraded where it stands; the project's
 * own prepare is kept as it is.
 */
export function preparedScript(existing: string | undefined, ours: string, withHusky = true): string {
  if (ours !== PROJECT_PREPARE) return unguardedScript(existing, ours, withHusky);
  if (!existing || existing.trim() === '') return guardedPart(withHusky, true);
  // Today's form, alone or after the project's own part: husky added into it when it arrived since.
  for (const alone of [true, false]) {
    if (alone ? existing === guardedPart(true, true) : existing.includes(guardedPart(true, false))) return existing;
    const bare = guardedPart(false, alone);
    if (alone ? existing === bare : existing.includes(bare)) {
      const rest = alone ? '' : existing.replace(bare, '');
      return withHusky && !HUSKY_RE.test(rest) ? existing.replace(bare, guardedPart(true, alone)) : existing;
    }
  }
  // An older install's unguarded part: the whole script (husky and memlint, as that install wrote
  // it with no prepare before), else its part after the project's own prepare.
  if (existing === PROJECT_PREPARE || existing === `husky && ${PROJECT_PREPARE}`) return guardedPart(withHusky || existing.startsWith('husky'), true);
  const olderWithHusky = `husky && ${PROJECT_PREPARE}`;
  if (existing.includes(olderWithHusky) && !HUSKY_RE.test(existing.replace(olderWithHusky, ''))) return existing.replace(olderWithHusky, guardedPart(true, false));
  if (existing.includes(PROJECT_PREPARE)) return existing.replace(PROJECT_PREPARE, guardedPart(withHusky && !HUSKY_RE.test(existing), false));
  return `${existing} && ${guardedPart(withHusky && !HUSKY_RE.test(existing), false)}`;
}

/** memlint's part of the prepare script in memlint's own repository. */
export const OWN_REPO_PREPARE = 'node scripts/build.mjs --if-changed && node ./dist/cli.js install --local --quiet';
/** The forms memlint's own repository's prepare had before, which uninstall and a new install still recognise. */
export const OWN_REPO_PREPARE_BEFORE = ['(test -f dist/cli.js || node scripts/build.mjs) && node ./dist/cli.js install --local --quiet', '(test ! -f dist/cli.js || node ./dist/cli.js install --local)'];

// memlint's part: in a project, and in memlint's own repository (today's form and the older ones).
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first: today's guarded forms (with the husky install put inside the guard), then the older ones.
const OURS_FORMS = [guardedPart(true, false), guardedPart(false, false), guardedPart(true, true), guardedPart(false, true), PROJECT_PREPARE, OWN_REPO_PREPARE, ...OWN_REPO_PREPARE_BEFORE];
const OURS = new RegExp(`\\s*(?:&&\\s*)?(?:${OURS_FORMS.map(escape).join('|')})`);

/** Whether a prepare script already runs memlint's part (an earlier install wrote it). */
export function runsMemlintInstall(script: string | undefined): boolean {
  return script !== undefined && OURS.test(script);
}

/**
 * The prepare script without what install added: back to the noted original when the script is
 * still exactly what install made of it, else with memlint's part cut out. undefined: no script.
 */
export function unpreparedScript(current: string | undefined, notedOriginal: string | null): string | undefined {
  if (current === undefined) return undefined;
  const ours = OURS;
  if (notedOriginal !== null) {
    const part = current.match(ours)?.[0].replace(/^\s*(?:&&\s*)?/, '') ?? '';
    const original = notedOriginal || undefined;
    // What this install or an older one (before the guard) made of the original.
    // (and an older one's, upgraded by a later install).
    const made = [true, false].some(
      (h) =>
        preparedScript(original, PROJECT_PREPARE, h) === current ||
        unguardedScript(original, part, h) === current ||
        preparedScript(unguardedScript(original, PROJECT_PREPARE, h), PROJECT_PREPARE, h) === current ||
        preparedScript(original, part, h) === current,
    );
    if (made) return notedOriginal === '' ? undefined : notedOriginal;
  }
  const cut = current.replace(ours, '').trim();
  if (cut === current.trim()) return current;
  return cut === '' ? undefined : cut;
}
