// git exports GIT_DIR to the hooks it runs in a linked worktree. With GIT_DIR set and no work tree
// named, git takes the folder it runs in for the top of the working tree, and memlint runs git
// from memory folders too: so the work tree is named as git meant it, the folder memlint started
// in (where git runs hooks), unless core.worktree names one. Imported, for this effect, by the
// modules of src/git that run git from another folder than the process's; src/git/staged.ts, which
// the launcher loads, runs git from the process's folder only and does without it.
import { configValue } from './config.js';

if (process.env.GIT_DIR && !process.env.GIT_WORK_TREE) {
  if (configValue(undefined, 'core.worktree') === null) process.env.GIT_WORK_TREE = process.cwd();
}
