// dist/cli.js: a CommonJS launcher in front of the ES module program (dist/main.mjs).
// Node starts a CommonJS main module several milliseconds sooner than an ES module, and git runs
// three memlint commands on every merge, commit and push. Those answer here when they can: the
// merge driver (dist/merge.cjs, one file), and `--staged` / `consolidate --pre-push` when nothing
// memory-related is involved (no staged or pushed Markdown, or none of it inside a memdir).
// Everything else loads the full program.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitLight } from './git/light.js';
import { candidateIndexes, filesInTree, inIndexFrom, likelyMemdirs, parseNameStatus } from './lint/staged-paths.js';
import type { StagedFacts, StagedSource } from './lint/staged.js';
import type { Given } from './commands/given.js';
import { reportError } from './report-error.js';
import { isFormatName, printsWhenEmpty } from './lint/reporters/formats.js';

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

// Modules that load node:child_process are required where they are needed (esbuild bundles a
// require() of a source module as a lazy initialiser): the fast paths spawn git through gitLight.
const stagedModule = () => require('./lint/staged.js') as typeof import('./lint/staged.js');
const prePushModule = () => require('./consolidate/push-range.js') as typeof import('./consolidate/push-range.js');

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

/** Whether argv is a plain `[lint] --staged` call: no PATH, no --fix, only options that take no files. */
function isPlainStaged(args: string[]): boolean {
  const flags = new Set(['--staged', '--quiet', '--color', '--no-color']);
  // A format that prints an empty report (json, sarif) prints it even when nothing is staged: the program does that.
  const withValue: Record<string, (value: string) => boolean> = {
    '--format': (f) => isFormatName(f) && !printsWhenEmpty(f),
    '--max-warnings': (n) => /^\d+$/.test(n),
    '--config': (file) => /./.test(file),
    '--rule': (r) => /^[\w-]+=(off|warn|error|[012])$/.test(r),
  };
  let staged = false;
  for (let i = args[0] === 'lint' ? 1 : 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--staged') staged = true;
    if (flags.has(a)) continue;
    const accepts = withValue[a];
    if (accepts && i + 1 < args.length && accepts(args[i + 1]!)) {
      i++;
      continue;
    }
    return false;
  }
  return staged;
}

const NO_MEMORY = 'no memory';

/**
 * `memlint --staged`: NO_MEMORY when nothing staged is memory: no staged Markdown (one git call),
 * or none of it under a MEMORY.md in the index (a second, reading HEAD's tree: the index is HEAD
 * plus the staged change, which the first call listed). Otherwise the StagedSource the program is
 * given: the staged paths, and the rest of what it reads from git (src/lint/staged.ts), gathered
 * while it loads. undefined when git failed: the program asks again and explains the failure.
 */
function stagedSource(): StagedSource | typeof NO_MEMORY | undefined {
  const r = gitLight(['diff', '--cached', '--name-status', '-z', '--no-renames']);
  if (!r.ok) return undefined;
  const staged = parseNameStatus(r.stdout);
  const paths = [...staged.keys()];
  const md = paths.filter((p) => p.endsWith('.md'));
  if (md.length === 0) return NO_MEMORY;
  const cwd = process.cwd();
  let facts: Promise<StagedFacts | null>;
  // Staged paths are relative to the top of the working tree, where git runs hooks: a MEMORY.md on
  // disk there is only a guess (git decides), but a good one to start loading the program on.
  const likely = likelyMemdirs(md, (rel) => existsSync(join(cwd, rel)));
  if (likely.length > 0) {
    facts = stagedModule().prefetchStaged(cwd, md, likely);
  } else {
    const indexes = memoryIndexesInIndex(md, staged);
    if (indexes === null) return undefined;
    if (indexes.length === 0) return NO_MEMORY;
    const folders = [...new Set(indexes.map((i) => (i === 'MEMORY.md' ? '' : i.slice(0, -'/MEMORY.md'.length))))];
    facts = stagedModule().prefetchStaged(cwd, md, folders, indexes);
  }
  return { paths, facts: facts.catch(() => null) };
}

/**
 * The MEMORY.md files in the index that could own the staged Markdown files, from HEAD's tree
 * (`ls-tree` reads no index: about half the cost of `ls-files` in a large repository) and the
 * staged change. null when git cannot answer (no commit yet, say).
 */
function memoryIndexesInIndex(md: string[], staged: Map<string, string>): string[] | null {
  const candidates = candidateIndexes(md);
  const unknown = candidates.filter((c) => !staged.has(c));
  let inHead = new Set<string>();
  if (unknown.length > 0) {
    // Literal pathspecs: a folder named "a[1]" is that folder, not a pattern.
    const tree = gitLight(['ls-tree', '--full-tree', '-z', 'HEAD', '--', ...unknown], { env: { GIT_LITERAL_PATHSPECS: '1' } });
    if (!tree.ok) return null;
    inHead = filesInTree(tree.stdout);
  }
  return inIndexFrom(candidates, staged, inHead);
}

/**
 * `consolidate --pre-push`: NO_MEMORY when the pushed commits change no Markdown file; otherwise
 * git's pre-push stdin, read here, for the program to be given.
 */
function prePushInput(): string | typeof NO_MEMORY {
  if (process.env.HUSKY === '0') return NO_MEMORY;
  let stdin = '';
  try {
    stdin = readFileSync(0, 'utf8');
  } catch {
    stdin = '';
  }
  const { changedInPush, parsePushInput } = prePushModule();
  const updates = parsePushInput(stdin);
  if (updates.length === 0) return NO_MEMORY;
  const top = gitLight(['rev-parse', '--show-toplevel']);
  if (!top.ok) return NO_MEMORY;
  const changed = changedInPush(top.stdout.trim(), updates);
  return changed === null || !changed.some((p) => p.endsWith('.md')) ? NO_MEMORY : stdin;
}

const first = argv[0];
if (first === 'merge' && !asksHelp) {
  quietOnClosedPipe();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  finish((require(join(__dirname, 'merge.cjs')) as { run(a: string[]): Promise<number> }).run(argv.slice(1)));
} else if (first === 'update-branch' && !asksHelp) {
  quietOnClosedPipe();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  finish((require(join(__dirname, 'update-branch.cjs')) as { run(a: string[]): Promise<number> }).run(argv.slice(1)));
} else if (isPlainStaged(argv)) {
  const staged = stagedSource();
  if (staged === NO_MEMORY) process.exitCode = 0;
  else runMain(staged ? { staged } : {});
} else if (!asksHelp && first === 'consolidate' && argv.includes('--pre-push')) {
  const stdin = prePushInput();
  if (stdin === NO_MEMORY) process.exitCode = 0;
  else runMain({ prePushStdin: stdin });
} else {
  runMain();
}
