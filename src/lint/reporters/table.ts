// Every report format: a name (src/lint/reporters/formats.ts) to one reporter, a function from
// the run's results and its context to the report's text. The text comes as a sequence of chunks
// (src/lint/reporters/output.ts): writeChunks streams it, joinChunks makes it one string.
import type { FileResult } from '../engine.js';
import type { Rule } from '../types.js';
import type { FormatName } from './formats.js';
import { githubChunks } from './github.js';
import { jsonChunks } from './json.js';
import { joinChunks } from './output.js';
import { sarifChunks } from './sarif.js';
import { stylishChunks } from './stylish.js';

export interface ReportContext {
  /** Where memlint runs: stylish, for people, names files from here. */
  cwd: string;
  /** The repository's top, else cwd: the CI formats name files from here. */
  root: string;
  /** The rules of the run (sarif describes those that reported). */
  rules: Rule[];
  version: string;
  color: boolean;
  /** Whether stylish ends with how many problems `memlint --fix` settles (not when --fix ran). */
  fixHint: boolean;
  /** With --staged: files whose working-tree version already has none of their problems. */
  fixedInWorktree?: ReadonlySet<string>;
  /** With --fix: the line saying what was fixed, printed after the stylish report. */
  fixedSummary?: string;
}

export type Reporter = (results: FileResult[], context: ReportContext) => Iterable<string>;

function* withTail(chunks: Iterable<string>, tail: string | undefined): Generator<string> {
  yield* chunks;
  if (tail) yield tail;
}

export const REPORTERS: Record<FormatName, Reporter> = {
  stylish: (results, c) => withTail(stylishChunks(results.filter((r) => r.messages.length > 0), c), c.fixedSummary),
  json: (results) => withTail(jsonChunks(results), '\n'),
  sarif: (results, c) => withTail(sarifChunks(results, c.rules, c), '\n'),
  github: (results, c) => githubChunks(results, c),
};

/** The whole report as one string: for small outputs and for callers that need the text. */
export function formatReport(format: FormatName, results: FileResult[], context: ReportContext): string {
  return joinChunks(REPORTERS[format](results, context));
}
