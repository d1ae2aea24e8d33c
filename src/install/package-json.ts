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

/**
 * The prepare script with husky (when the project depends on it: a prepare that runs a missing
 * husky fails npm install) and memlint's part, added once.
 */
export function preparedScript(existing: string | undefined, ours: string, withHusky = true): string {
  const husky = withHusky ? 'husky && ' : '';
  if (!existing || existing.trim() === '') return `${husky}${ours}`;
  if (existing.includes(ours)) return withHusky && !HUSKY_RE.test(existing) ? existing.replace(ours, `husky && ${ours}`) : existing;
  return HUSKY_RE.test(existing) ? `${existing} && ${ours}` : `${existing} && ${husky}${ours}`;
}

/** memlint's part of the prepare script in memlint's own repository. */
export const OWN_REPO_PREPARE = 'node scripts/build.mjs --if-changed && node ./dist/cli.js install --local --quiet';
/** The forms memlint's own repository's prepare had before, which uninstall and a new install still recognise. */
export const OWN_REPO_PREPARE_BEFORE = ['(test -f dist/cli.js || node scripts/build.mjs) && node ./dist/cli.js install --local --quiet', '(test ! -f dist/cli.js || node ./dist/cli.js install --local)'];

// memlint's part: in a project, and in memlint's own repository (today's form and the older ones).
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OURS = new RegExp(`\\s*(?:&&\\s*)?(?:${['memlint install --local', OWN_REPO_PREPARE, ...OWN_REPO_PREPARE_BEFORE].map(escape).join('|')})`);

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
    if ([true, false].some((h) => preparedScript(notedOriginal || undefined, part, h) === current)) return notedOriginal === '' ? undefined : notedOriginal;
  }
  const cut = current.replace(ours, '').trim();
  if (cut === current.trim()) return current;
  return cut === '' ? undefined : cut;
}
