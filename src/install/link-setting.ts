// install --link: the team's decision recorded where memlint's other settings live, so every
// checkout links on its own: "link": "<memory folder>" in .memlintrc.json (created when there is
// no config) or package.json "memlint". A YAML config is not rewritten: a note says the line to add.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadConfig } from '../config.js';
import { checkInsideRepo } from '../fs/inside.js';
import { defaultMemdir } from '../claude/link.js';
import { rewriteJson } from './json-edit.js';
import type { Action } from './setup.js';
import { slashRelative } from '../fs/paths.js';
import { withoutBom } from '../memdir/lines.js';

/** Paths a person's private Claude Code files live at, ignored once a team shares its memory (docs/interop.md). */
export const PRIVATE_GITIGNORE_LINES = ['.claude/settings.local.json', '.claude/agent-memory-local/', 'CLAUDE.local.md'];

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
