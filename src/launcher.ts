// dist/cli.js: a CommonJS launcher in front of the ES module program (dist/main.mjs).
// Node starts a CommonJS main module several milliseconds sooner than an ES module, and git runs
// three memlint commands on every merge, commit and push. Those answer here when they can: the
// merge driver (dist/merge.cjs, one file), and `--staged` / `consolidate --pre-push` /
// `consolidate --post-commit` when nothing memory-related is involved (no staged, pushed or
// committed Markdown, or none of it inside a memdir).
// Everything else loads the full program.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Given } from './commands/given.js';
import type { PushSource } from './consolidate/push-range.js';
import { reportError } from './report-error.js';
import { processIo, type Io } from './io.js';
import { isPlainHook, isPlainStaged } from './commands/options.js';

// A reader that stops early (`memlint consolidate --dry-run | head`) is not an error: stop quietly,
// as Unix tools do, instead of dying with an EPIPE stack trace. Set up only where something is
// printed: opening stdout and stderr as streams costs the silent fast paths a terminal's setup.
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

const argv = process.argv.slice(2);
const asksHelp = argv.includes('--help') || argv.includes('-h');

function finish(p: Promise<number>): void {
  p.then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.exitCode = reportError(err);
    },
  );
}

// Modules that run git (and so load node:child_process) are required where they are needed:
// esbuild bundles a require() of a source module as a lazy initialiser, so the merge driver's path
// loads none of them. They run git as the program does, through src/git/run.ts.
const stagedModule = () => require('./lint/staged.js') as typeof import('./lint/staged.js');
const prePushModule = () => require('./consolidate/push-range.js') as typeof import('./consolidate/push-range.js');
const progressModule = () => require('./git/progress.js') as typeof import('./git/progress.js');

/** The ES module program, given what the launcher learnt on the way (src/commands/given.ts). */
function runMain(given: Given = {}): void {
  quietOnClosedPipe();
  // Node 22.1+ caches compiled modules itself (in the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1
  // turns it off): the ES module program then starts sooner from the second run on. Node 20 has no
  // such cache, and the optional call does nothing there.
  try {
    (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  } catch {
    // an optimisation only: it never stops a run
  }
  finish(import(pathToFileURL(join(__dirname, 'main.mjs')).href).then((m: { main(argv: string[], given: Given): Promise<number> }) => m.main(argv, given)));
}

/**
 * `memlint --staged`: nothing when nothing staged is memory (the process just ends, exit 0);
 * otherwise the program, given the StagedSource made here (src/lint/staged.ts). When git fails
 * the program runs without it, asks again and explains the failure.
 */
function staged(): void {
  const { NO_MEMORY, stagedSource } = stagedModule();
  let source: ReturnType<typeof stagedSource>;
  try {
    source = stagedSource({ cwd: process.cwd(), env: process.env });
  } catch {
    runMain();
    return;
  }
  if (source === NO_MEMORY) process.exitCode = 0;
  else runMain({ staged: source });
}

/**
 * `consolidate --pre-push`: git's pre-push stdin read here, and the push it describes
 * (src/consolidate/push-range.ts); null when there is nothing to do: HUSKY=0, or no Markdown file
 * changed by the pushed commits.
 */
function prePushSource(): PushSource | null {
  if (process.env.HUSKY === '0') return null;
  let stdin = '';
  try {
    stdin = readFileSync(0, 'utf8');
  } catch {
    stdin = '';
  }
  const { NO_PUSHED_MEMORY, pushSource } = prePushModule();
  const push = pushSource({ cwd: process.cwd(), env: process.env }, stdin);
  return push === NO_PUSHED_MEMORY ? null : push;
}

const first = argv[0];
if (first === 'merge' && !asksHelp) {
  // No quietOnClosedPipe: the driver writes its few lines with writeSync(2) and never opens the
  // streams, whose set-up the driver, started once per merged file, would pay every time
  // (src/commands/merge.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  finish((require(join(__dirname, 'merge.cjs')) as { run(a: string[], io: Io): Promise<number> }).run(argv.slice(1), processIo()));
} else if (first === 'update-branch' && !asksHelp) {
  quietOnClosedPipe();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  finish((require(join(__dirname, 'update-branch.cjs')) as { run(a: string[], io: Io): Promise<number> }).run(argv.slice(1), processIo()));
} else if (isPlainStaged(argv)) {
  staged();
} else if (!asksHelp && isPlainHook(argv, 'pre-push')) {
  const push = prePushSource();
  if (push === null) process.exitCode = 0;
  else runMain({ push });
} else if (!asksHelp && isPlainHook(argv, 'post-commit')) {
  // After every commit: one git call, and the program only when the commit changed Markdown on a
  // branch with nothing in progress. A rebase or cherry-pick replays its commits on a detached
  // HEAD, and consolidation waits for it to end: a second git call says so before the program
  // loads for each replayed commit. The program is handed both answers, and asks neither again.
  const at = { cwd: process.cwd(), env: process.env };
  const committed = process.env.HUSKY === '0' ? null : prePushModule().headCommitFiles(at);
  const worktree = committed?.some((p) => p.endsWith('.md')) ? progressModule().worktreeState(at) : null;
  if (committed === null || !worktree || worktree.operation !== null || worktree.branch === null) process.exitCode = 0;
  else runMain({ committed, worktree });
} else {
  runMain();
}
