// install --link: the team's decision recorded where memlint's other settings live, so every
// checkout links on its own: "link": "<memory folder>" in .memlintrc.json (created when there is
// no config) or package.json "memlint". A YAML config is not rewritten: a note says the line to add.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadConfig } from '../config.js';
import { checkInsideRepo } from '../fs/inside.js';
import { AUTO_MEMORY_KEY, LOCAL_SETTINGS, defaultMemdir, pointsIntoRepo } from '../claude/link.js';
import { parseSettingsJson } from '../claude/auto-memory.js';
import { rewriteJson } from './json-edit.js';
import type { Action } from './setup.js';
import { realOrNearestReal, slashRelative } from '../fs/paths.js';
import { withoutBom } from '../memdir/lines.js';

export async function planLinkSetting(root: string, env: NodeJS.ProcessEnv): Promise<Action[]> {
  const loaded = await loadConfig({ cwd: root, stderr: null });
  if (loaded.config.link !== undefined && loaded.config.link !== false) return [];
  const memdir = await defaultMemdir(root, root, env);
  const base = loaded.file ? loaded.dir : root;
  const value = slashRelative(base, memdir);
  const what = `"link": "${value}": the team's memory is the committed ${value}; every checkout links it on npm install`;
  if (!loaded.file) {
    const path = join(root, '.memlintrc.json');
    const safe = checkInsideRepo(root, path);
    if (!safe.ok) return [{ kind: 'note', what: `${safe.reason}: .memlintrc.json left as it is; add "link": "${value}" to memlint's config yourself` }];
    return [{ kind: 'file', rel: '.memlintrc.json', path, before: null, after: `${JSON.stringify({ link: value }, null, 2)}\n`, what }];
  }
  const name = basename(loaded.file);
  const rel = slashRelative(root, loaded.file);
  const safe = checkInsideRepo(root, loaded.file);
  if (!safe.ok) return [{ kind: 'note', what: `${safe.reason}: ${rel} left as it is; add "link": "${value}" to it yourself` }];
  if (name !== 'package.json' && !name.endsWith('.json')) return [{ kind: 'note', what: `${rel} is YAML, which install does not rewrite: add the line  link: ${value}  to it, and commit it` }];
  const before = readFileSync(loaded.file, 'utf8');
  const data = JSON.parse(withoutBom(before)) as Record<string, unknown>;
  const next = name === 'package.json' ? { ...data, memlint: { ...(data.memlint as Record<string, unknown>), link: value } } : { ...data, link: value };
  return [{ kind: 'file', rel, path: loaded.file, before, after: rewriteJson(before, data, next), what }];
}

/**
 * What `uninstall` takes back of the team link: the "link" setting install --link recorded, a
 * folder (the .memlintrc.json it created goes when nothing else is left in it; a "link": false,
 * which install never writes, is the person's own and stays), and this checkout's
 * autoMemoryDirectory when it points into the repository, as link and install --local set it. A
 * value pointing elsewhere is the person's own and stays.
 */
export async function planLinkUninstall(root: string, env: NodeJS.ProcessEnv): Promise<Action[]> {
  const actions: Action[] = [];
  // A config memlint cannot read stops nothing else uninstall does: it is left as it is, and said.
  const loaded = await loadConfig({ cwd: root, stderr: null }).catch((err: Error) => {
    actions.push({ kind: 'note', what: `${err.message.split('\n')[0]}: its "link" setting, if any, left as it is` });
    return null;
  });
  if (loaded?.file && typeof loaded.config.link === 'string') {
    const name = basename(loaded.file);
    const rel = slashRelative(root, loaded.file);
    const safe = checkInsideRepo(root, loaded.file);
    if (!safe.ok) actions.push({ kind: 'note', what: `${safe.reason}: ${rel} left as it is; remove its "link" setting yourself` });
    else if (name !== 'package.json' && !name.endsWith('.json')) actions.push({ kind: 'note', what: `${rel} is YAML, which uninstall does not rewrite: remove its line  link: ...  yourself` });
    else {
      const before = readFileSync(loaded.file, 'utf8');
      const data = JSON.parse(withoutBom(before)) as Record<string, unknown>;
      let next: Record<string, unknown>;
      if (name === 'package.json') {
        const { link: _link, ...rest } = (data.memlint ?? {}) as Record<string, unknown>;
        const { memlint: _memlint, ...others } = data;
        next = Object.keys(rest).length > 0 ? { ...data, memlint: rest } : others;
      } else {
        const { link: _link, ...rest } = data;
        next = rest;
      }
      const after = name !== 'package.json' && Object.keys(next).length === 0 ? null : rewriteJson(before, data, next);
      actions.push({ kind: 'file', rel, path: loaded.file, before, after, what: after === null ? 'removed (it held only the "link" setting)' : '"link" setting removed' });
    }
  }
  const settingsPath = join(root, ...LOCAL_SETTINGS.split('/'));
  const settingsSafe = checkInsideRepo(root, settingsPath);
  if (!settingsSafe.ok) return [...actions, { kind: 'note', what: `${settingsSafe.reason}: ${LOCAL_SETTINGS} left as it is` }];
  if (!existsSync(settingsPath)) return actions;
  const text = readFileSync(settingsPath, 'utf8');
  const parsed = parseSettingsJson(text);
  if ('problem' in parsed) return [...actions, { kind: 'note', what: `${LOCAL_SETTINGS} is ${parsed.problem}: its ${AUTO_MEMORY_KEY} left as it is` }];
  const current = parsed.data[AUTO_MEMORY_KEY];
  if (!pointsIntoRepo(current, realOrNearestReal(root), env)) return actions;
  const { [AUTO_MEMORY_KEY]: _dir, ...rest } = parsed.data;
  const after = Object.keys(rest).length === 0 ? null : rewriteJson(text, parsed.data, rest);
  actions.push({ kind: 'file', rel: LOCAL_SETTINGS, path: settingsPath, before: text, after, what: `${AUTO_MEMORY_KEY} (${current}) removed: Claude Code goes back to its default store` });
  return actions;
}
