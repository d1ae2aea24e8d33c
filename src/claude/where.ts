// Where Claude Code's auto memory is for a folder, placed against the repository memlint runs in:
// the resolution (./auto-memory.ts) and whether the folder lies inside the working tree, is
// committed or is ignored. `memlint where` prints it.
import { repository, type GitContext } from '../git/repo.js';
import { ignoredPaths, listFiles } from '../git/status.js';
import { resolveAutoMemoryPath, type Resolution } from './auto-memory.js';
import type { StrayStore } from './stores.js';
import { isWithin, realOrNearestReal, slashRelative } from '../fs/paths.js';

export interface RepositoryPlacement {
  /** Top of the working tree memlint was run in. */
  root: string;
  /** The memory directory relative to root ('/'-separated), or null when it lies outside. */
  path: string | null;
  /** At least one file under it is committed. */
  committed: boolean;
  /** git ignores it. */
  ignored: boolean;
}

export interface WhereReport extends Resolution {
  insideRepository: boolean;
  repository: RepositoryPlacement | null;
  /** With --all: the repository's other stores, not in use. */
  strayStores?: StrayStore[];
  /** The team's shared memory folder and whether this checkout uses it (src/claude/team-link.ts). */
  teamLink?: TeamLinkReport;
}

export interface TeamLinkReport {
  /** The committed memory folder the repository shares, or null. */
  memdir: string | null;
  /** The config's "link" says the team shares it (every checkout links on npm install). */
  decided: boolean;
  linked: boolean;
  optedOut: string | null;
  /** When Claude Code here uses another folder: the command that fixes it. */
  fix: string | null;
}

export function placeInRepository(dir: string, from: GitContext): RepositoryPlacement | null {
  const top = repository(from)?.root ?? null;
  if (!top) return null;
  const root = realOrNearestReal(top);
  const target = realOrNearestReal(dir.replace(/[/\\]+$/, ''));
  if (!isWithin(target, root)) return { root, path: null, committed: false, ignored: false };
  const relPosix = slashRelative(root, target) || '.';
  const at = { cwd: root, env: from.env };
  const committed = listFiles(at, { untracked: false, pathspec: [relPosix] }).length > 0;
  const ignored = relPosix !== '.' && ignoredPaths(at, [relPosix]).size > 0;
  return { root, path: relPosix, committed, ignored };
}

export function buildWhereReport(cwd: string, env: NodeJS.ProcessEnv, home: string): WhereReport {
  const resolution = resolveAutoMemoryPath({ cwd, env, home });
  const repository = placeInRepository(resolution.resolved, { cwd, env });
  if (repository && realOrNearestReal(resolution.projectRoot) !== repository.root) {
    resolution.notes.unshift(
      `Claude Code reads .claude/settings.local.json from the folder it starts in (${resolution.projectRoot}); "memlint link" writes it at the top of the worktree (${repository.root})`,
    );
  }
  return { ...resolution, insideRepository: !!repository?.path, repository };
}
