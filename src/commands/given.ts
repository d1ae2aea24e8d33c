// What the launcher (dist/cli.js) learnt before the program loaded, passed down as a value to the
// command that can use it (src/cli.ts's main takes it and hands it on). Without the launcher
// (tests calling main, the program started directly) it is empty and each command asks itself.
import type { PushSource } from '../consolidate/push-range.js';
import type { StagedSource } from '../lint/staged.js';
import type { WorktreeState } from '../git/progress.js';

export interface Given {
  /** `--staged`: the staged paths, and what the launcher started reading about them. */
  staged?: StagedSource;
  /** `consolidate --pre-push`: the push git's stdin described, read to see whether memory is pushed. */
  push?: PushSource;
  /** `consolidate --post-commit`: the files HEAD's commit changes. */
  committed?: string[];
  /** `consolidate --post-commit`: the worktree the commit was made in, asked when it changed Markdown. */
  worktree?: WorktreeState;
}
