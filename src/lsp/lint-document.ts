// What the language server knows about one document: whether it is memory (a memory folder of a
// workspace folder's repository, or the folder `memlint where` resolves for it), its findings as
// LSP diagnostics, and the fixes as workspace edits. All of it from the CLI's own engine
// (src/lint/engine.ts): the same rules, config and fixes; the editor's text stands in for the file.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatOf, loadConfig } from '../config.js';
import { findGitRoot, homeOf } from '../claude/auto-memory.js';
import { locateMemdir, type LocatedMemdir } from '../claude/locate.js';
import { isWithin, realOrResolved, slashRelative } from '../fs/paths.js';
import { matcher } from '../glob.js';
import { fixesAlone, lintMemdirs, resolveRules, runToday, type LintMessage } from '../lint/engine.js';
import type { TextEdit } from '../lint/types.js';
import { isClaudeLocation, nearestMemdir } from '../memdir/discover.js';
import { splitLines } from '../memdir/lines.js';

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Diagnostic {
  range: Range;
  severity: 1 | 2;
  source: 'memlint';
  message: string;
  code?: string;
}
export interface LspTextEdit {
  range: Range;
  newText: string;
}
/** Edits by absolute path, each file's edits counted in the text the editor holds. */
export type FileEdits = Map<string, LspTextEdit[]>;

export interface Located extends LocatedMemdir {
  /** The document's real path. */
  file: string;
  /** The folder Claude Code would be started in: config and `where` are read from it. */
  projectDir: string;
}

/**
 * The memory folder a document belongs to, or null: a file in a workspace folder is memory when
 * it lies in a memory folder of its repository (as the hook decides); any other file when it lies
 * in the folder `memlint where` resolves for a workspace folder. The real path decides, so a
 * committed symlink leading out of the repository leads nowhere.
 */
export async function locateDocument(file: string, folders: string[], env: NodeJS.ProcessEnv): Promise<Located | null> {
  const real = realOrResolved(file);
  const home = homeOf(env);
  const inside = folders
    .map((f) => realOrResolved(f))
    .filter((f) => isWithin(real, f))
    .sort((a, b) => b.length - a.length)[0];
  if (inside !== undefined) {
    const root = findGitRoot(path.dirname(real));
    const projectDir = root && (isWithin(root, inside) || isWithin(inside, root)) ? root : inside;
    const memoryDirs = await configuredMemoryDirs(projectDir);
    const located = await locateMemdir(real, projectDir, env, home, memoryDirs);
    if (located) return { ...located, file: real, projectDir };
    if (root) return null;
    // A workspace outside git: the nearest memory folder within it, as `memlint FILE` finds it.
    const dir = nearestMemdir(real, inside);
    if (!dir) return null;
    const rel = slashRelative(inside, dir);
    return { dir, repoRoot: null, confirmLinks: !isClaudeLocation(rel), file: real, projectDir };
  }
  for (const folder of folders) {
    const located = await locateMemdir(real, folder, env, home, []);
    if (located) return { ...located, file: real, projectDir: folder };
  }
  return null;
}

async function configuredMemoryDirs(projectDir: string): Promise<string[]> {
  try {
    const loaded = await loadConfig({ cwd: projectDir, stderr: null });
    return (loaded.config.memoryDirs ?? []).map((d) => path.resolve(loaded.dir, d));
  } catch {
    return []; // a config problem is reported by the lint itself
  }
}

export interface QuickFixes {
  /** Each fixable finding's diagnostic with the edits its fix makes. */
  fixes: Array<{ diagnostic: Diagnostic; ruleId: string; edits: FileEdits }>;
  /** Changes a finding offers that --fix never makes (a date that may be wrong): the person chooses. */
  suggestions: Array<{ diagnostic: Diagnostic; ruleId: string; title: string; edits: FileEdits }>;
  /** Findings in the range had more fixes than the limit: the rest were not worked out. */
  capped: boolean;
}

/** Whether two ranges share a position (a range that is not two positions overlaps everything). */
function overlaps(a: Range, b: Range | undefined): boolean {
  if (typeof b !== 'object' || b === null || typeof b.start !== 'object' || b.start === null || typeof b.end !== 'object' || b.end === null) return true;
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

export interface DocumentLint {
  diagnostics: Diagnostic[];
  /**
   * The quick fixes of the findings in `range` (all without one), at most `limit` of them in all:
   * each finding's are worked out when a code action first asks for them (most lints only publish).
   */
  quickFixes(range?: Range, limit?: number): QuickFixes;
  /** Whether any finding of the document has a fix (--fix would change something). */
  hasFix(): boolean;
  /** `memlint --fix FILE`'s edits, computed on first use. */
  fixAll(): Promise<FileEdits>;
}

/** A document's lint with nothing to fix: a notice, a failure. */
export function noticeLint(message: string): DocumentLint {
  return { diagnostics: [noticeDiagnostic(message)], quickFixes: () => ({ fixes: [], suggestions: [], capped: false }), hasFix: () => false, fixAll: () => Promise.resolve(new Map()) };
}

/**
 * Lint one memory document; null when memlint leaves it alone after all (config `ignore`, a folder
 * whose MEMORY.md links to nothing beside it). `text`: the editor's text; `texts`: every open
 * document's text by real path (a fix may edit another open file, counted in the editor's text of
 * it). Nothing is written.
 */
/** `debug`: where a rule's stack goes when it throws (LintRunOptions.debug). */
export async function lintDocument(located: Located, text: string, texts: Map<string, string>, env: NodeJS.ProcessEnv, debug?: (text: string) => void): Promise<DocumentLint | null> {
  const loaded = await loadConfig({ cwd: located.projectDir, stderr: null });
  if (loaded.config.ignore?.length && matcher(loaded.config.ignore)(slashRelative(loaded.dir, located.file))) return null;
  // no-memory-loss judges a staged change: it has nothing to say about an editor's buffer.
  const rules = resolveRules(loaded.config.rules).filter((r) => r.rule.id !== 'no-memory-loss');
  const all = new Map(texts);
  all.set(located.file, text);
  const options = {
    memdirs: [{ dir: located.dir, repoRoot: located.repoRoot, onlyFiles: new Set([located.file]), reason: 'path' as const, ...(located.confirmLinks ? { confirmLinks: true } : {}) }],
    env,
    rules,
    source: 'worktree' as const,
    today: runToday(env),
    format: formatOf(loaded.config),
    texts: all,
    ...(debug ? { debug } : {}),
  };
  const run = await lintMemdirs(options);
  const model = run.models[0];
  if (!model) return null;
  const lines = lineTable(text);
  const bound = located.repoRoot ?? located.dir;
  const messages = run.results.flatMap((r) => r.messages);
  const diagnostics = messages.map((m) => toDiagnostic(m, lines));
  type Fix = QuickFixes['fixes'][number];
  type Suggestion = QuickFixes['suggestions'][number];
  let fixAlone: ReturnType<typeof fixesAlone> | null = null;
  // Each file's line table, made once: a fix's edits are placed in it (one table per fix made
  // 370,000 dated lines of a 4 MiB topic take 40 s).
  const tables = new Map<string, LineTable>();
  const tableOf = (file: string) => {
    let table = tables.get(file);
    if (!table) tables.set(file, (table = lineTable(model.files.find((f) => f.path === file)?.text ?? '')));
    return table;
  };
  // Each finding's fix and suggestions, worked out the first time a request's range holds it.
  const worked: Array<{ fix: Fix | null; suggestions: Suggestion[] } | undefined> = [];
  const workOut = (i: number) => {
    const m = messages[i]!;
    const diagnostic = diagnostics[i]!;
    fixAlone ??= fixesAlone(model, bound);
    const suggestions: Suggestion[] = [];
    for (const sug of m.suggestions ?? []) {
      const edits = m.ruleId ? fixAlone(sug.fix, located.file) : null;
      if (edits) suggestions.push({ diagnostic, ruleId: m.ruleId!, title: sug.desc, edits: toFileEdits(edits, tableOf) });
    }
    const edits = m.fix && m.ruleId ? fixAlone(m.fix, located.file) : null;
    return { fix: edits ? { diagnostic, ruleId: m.ruleId!, edits: toFileEdits(edits, tableOf) } : null, suggestions };
  };
  const quickFixes = (range?: Range, limit = Infinity): QuickFixes => {
    const quick: QuickFixes = { fixes: [], suggestions: [], capped: false };
    for (let i = 0; i < messages.length; i++) {
      if (range && !overlaps(diagnostics[i]!.range, range)) continue;
      const m = messages[i]!;
      if (!m.fix && !m.suggestions?.length) continue;
      const found = (worked[i] ??= workOut(i));
      const count = (found.fix ? 1 : 0) + found.suggestions.length;
      if (count === 0) continue;
      if (quick.fixes.length + quick.suggestions.length + count > limit) {
        quick.capped = true;
        break;
      }
      if (found.fix) quick.fixes.push(found.fix);
      quick.suggestions.push(...found.suggestions);
    }
    return quick;
  };
  let fixable: boolean | undefined;
  const hasFix = () => (fixable ??= messages.some((m, i) => m.fix !== undefined && (worked[i] ??= workOut(i)).fix !== null));
  let all_: Promise<FileEdits> | null = null;
  const fixAll = () =>
    (all_ ??= lintMemdirs({ ...options, fix: true, write: false }).then((fixed) => {
      const out: FileEdits = new Map();
      for (const [file, after] of fixed.fixedTexts) {
        const before = model.files.find((f) => f.path === file)?.text;
        if (before === undefined || before === after) continue;
        out.set(file, [replacement(before, after)]);
      }
      return out;
    }));
  return { diagnostics, quickFixes, hasFix, fixAll };
}

/** One diagnostic saying why a document is not linted (too large, a config problem, a failure). */
export function noticeDiagnostic(message: string): Diagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, source: 'memlint', message };
}

interface LineTable {
  /** UTF-16 offset of each line's start. */
  starts: number[];
  /** Each line's length without its ending. */
  lengths: number[];
}

function lineTable(text: string): LineTable {
  const lines = [...splitLines(text)];
  if (lines.length === 0 || lines[lines.length - 1]!.eol !== '') lines.push({ text: '', eol: '', offset: text.length });
  return { starts: lines.map((l) => l.offset), lengths: lines.map((l) => l.text.length) };
}

function clampPosition(lines: LineTable, line: number, character: number): Position {
  const l = Math.min(Math.max(line, 0), lines.starts.length - 1);
  return { line: l, character: Math.min(Math.max(character, 0), lines.lengths[l]!) };
}

function toDiagnostic(m: LintMessage, lines: LineTable): Diagnostic {
  const start = clampPosition(lines, m.line - 1, m.column - 1);
  // A finding without an end marks the rest of its line, as an editor shows a whole-line problem.
  const end = m.endLine !== undefined && m.endColumn !== undefined ? clampPosition(lines, m.endLine - 1, m.endColumn - 1) : { line: start.line, character: lines.lengths[start.line]! };
  return { range: { start, end }, severity: m.severity === 2 ? 1 : 2, source: 'memlint', message: m.message, ...(m.ruleId ? { code: m.ruleId } : {}) };
}

/** A UTF-16 offset as an LSP position (lines cut at \n, \r\n or a lone \r, as LSP cuts them). */
function positionAt(lines: LineTable, offset: number): Position {
  let lo = 0;
  let hi = lines.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - lines.starts[lo]! };
}

function toFileEdits(byPath: Map<string, TextEdit[]>, tableOf: (file: string) => LineTable): FileEdits {
  const out: FileEdits = new Map();
  for (const [file, edits] of byPath) {
    const lines = tableOf(file);
    out.set(
      file,
      edits.map((e) => ({ range: { start: positionAt(lines, e.start), end: positionAt(lines, e.end) }, newText: e.text })),
    );
  }
  return out;
}

/** The one edit that turns `before` into `after`: the span between their common start and end. */
function replacement(before: string, after: string): LspTextEdit {
  let head = 0;
  const max = Math.min(before.length, after.length);
  while (head < max && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  // A surrogate pair is not cut in two.
  if (head > 0 && head < max && isHighSurrogate(before.charCodeAt(head - 1))) head--;
  let tail = 0;
  while (tail < max - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  if (tail > 0 && tail < max - head && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;
  const lines = lineTable(before);
  return { range: { start: positionAt(lines, head), end: positionAt(lines, before.length - tail) }, newText: after.slice(head, after.length - tail) };
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A file URI for a path, in the client's spelling of it when the client named the file or its folder through another path. */
export function uriOf(file: string, spelling: Map<string, string>): string {
  const known = spelling.get(file);
  if (known) return known;
  for (const [real, uri] of spelling) {
    const dir = path.dirname(real);
    if (isWithin(file, dir)) return pathToFileURL(path.join(path.dirname(fileURLToPath(uri)), path.relative(dir, file))).href;
  }
  return pathToFileURL(file).href;
}
