// The lint engine: memdir model -> rules -> messages, with disable comments, severities and
// surgical fixes (text edits applied to the source, never a re-serialized tree).
import { basename, sep } from 'node:path';
import { fileKind, INDEX_FILE, isMemoryPath } from '../memdir/kinds.js';
import { lstatSync } from 'node:fs';
import { ConfigError, UsageError } from '../errors.js';
import { closestName } from '../closest.js';
import { normalizeSeverity, type RuleSetting } from '../config.js';
import { claudeFormat, type ClaudeFormat } from '../memdir/format.js';
import { holdsConflictMarkers, lineTexts } from '../memdir/lines.js';
import { createModel, readBackMemoryText } from '../memdir/model.js';
import { loadMemdir, type FileProblem, type MemdirSource } from '../memdir/read.js';
import { parseMarkdown } from '../memdir/markdown.js';
import { stagedSnapshot, type StagedSnapshot } from '../memdir/staged-snapshot.js';
import { isRootLike, linksBeside, type DiscoveredMemdir } from '../memdir/discover.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { realOrResolved, slashRelative } from '../fs/paths.js';
import { createRepoFacts, type SharedRepoFacts } from './repo-facts.js';
import { lineStarts } from './content-scan.js';
import { createMemdirHistory } from './history.js';
import { parseDirectives, type Directives } from './directives.js';
import { allRules } from './rules/all.js';
import { maskSecrets, secretsOf } from '../content/secrets.js';
import type { Fix, MemdirHistory, Suggestion, RepoFacts, Rule, RuleContext, RuleMessage, TextEdit } from './types.js';
import type { MemdirModel, MemoryFile } from '../memdir/types.js';

export interface LintMessage {
  ruleId: string | null;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  fatal?: boolean;
  fix?: Fix;
  /** Changes the person may choose (never applied by --fix). */
  suggestions?: Suggestion[];
}

export interface FileResult {
  filePath: string;
  messages: LintMessage[];
  errorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
}

export interface EnabledRule {
  rule: Rule;
  severity: 1 | 2;
  options: Record<string, unknown>;
}

export interface LintRunOptions {
  memdirs: DiscoveredMemdir[];
  /** The run's environment (its Io's), which git runs with. */
  env: NodeJS.ProcessEnv;
  rules: EnabledRule[];
  fix?: boolean;
  source?: 'worktree' | 'staged';
  /** Memdir-independent ignore test on absolute paths. */
  ignore?: (absPath: string) => boolean;
  today?: Date;
  /** The archive folder of a memdir (config consolidate.archiveDir), for no-memory-loss. */
  archiveDir?: (memdir: string) => string;
  /**
   * With source 'staged': memory files read only because they name a path the staged change renames
   * or deletes (absolute paths); on them only no-stale-reference runs, for that change alone.
   */
  staleOnly?: Set<string>;
  /** With source 'staged': the index to read (src/memdir/staged-snapshot.ts); without it, each repository's own, read as asked. */
  staged?: StagedSnapshot;
  /**
   * Texts linted in place of the files on disk, by absolute (real) path: a language server's open
   * documents, unsaved edits included. Every file of the memdir is then read, as for --fix: a fix
   * may edit another file, and its offsets count in that file's text.
   */
  texts?: Map<string, string>;
  /** Claude Code's memory format (config `claudeCode`); the newest known when absent. */
  format?: ClaudeFormat;
  /** `write: false` with `fix`: the fixed texts are computed (LintRunResult.fixedTexts), nothing is written. */
  write?: boolean;
  /** Where the stack of a rule that throws goes (the run's stderr under MEMLINT_DEBUG=1); none: not shown. */
  debug?: (text: string) => void;
}

export interface LintRunResult {
  results: FileResult[];
  /** Number of fixes applied (all passes). */
  fixesApplied: number;
  /** Files rewritten by --fix (absolute paths). */
  filesFixed: string[];
  /** Why fixes were not written (a path through a symlink, outside the repository): one line each. */
  refused: string[];
  /** What --fix made of each file it changed (absolute path -> text): written unless `write` is false. */
  fixedTexts: Map<string, string>;
  /** Each memdir as its results were found (the texts a fix's offsets count in). */
  models: MemdirModel[];
}

/** Resolve config rules and --rule overrides into the enabled rules with their severities. */
export function resolveRules(configRules: Record<string, RuleSetting> | undefined, overrides: Record<string, string> = {}): EnabledRule[] {
  const byId = new Map(allRules.map((r) => [r.id, r]));
  const settings = new Map<string, { severity: 'off' | 'warn' | 'error'; options: Record<string, unknown> }>();
  for (const r of allRules) settings.set(r.id, { severity: r.defaultSeverity, options: {} });
  const apply = (id: string, setting: unknown, where: string) => {
    if (!byId.has(id)) {
      const guess = closestName(id, [...byId.keys()]);
      const message = `unknown rule "${id}" in ${where}${guess ? `: did you mean "${guess}"?` : ''} (run "memlint lint --help --rules" for the list)`;
      throw where === 'config' ? new ConfigError(message) : new UsageError(message);
    }
    const sev = normalizeSeverity(Array.isArray(setting) ? setting[0] : setting);
    if (!sev) {
      const message = `rule "${id}" in ${where}: severity must be off, warn or error`;
      throw where === 'config' ? new ConfigError(message) : new UsageError(message);
    }
    const options = Array.isArray(setting) && typeof setting[1] === 'object' && setting[1] !== null ? (setting[1] as Record<string, unknown>) : settings.get(id)!.options;
    settings.set(id, { severity: sev, options });
  };
  for (const [id, s] of Object.entries(configRules ?? {})) apply(id, s, 'config');
  for (const [id, s] of Object.entries(overrides)) apply(id, s, '--rule');
  const out: EnabledRule[] = [];
  for (const [id, s] of settings) {
    if (s.severity === 'off') continue;
    out.push({ rule: byId.get(id)!, severity: s.severity === 'error' ? 2 : 1, options: s.options });
  }
  return out;
}

/**
 * Warnings for rule options in config that no rule reads (a typo such as "maxx" does nothing):
 * each names the rule and the option, with the closest option the rule takes. Unknown rule ids
 * are resolveRules's errors.
 */
export function ruleOptionWarnings(configRules: Record<string, RuleSetting> | undefined): string[] {
  const out: string[] = [];
  for (const [id, setting] of Object.entries(configRules ?? {})) {
    const rule = allRules.find((r) => r.id === id);
    const options = Array.isArray(setting) ? setting[1] : undefined;
    if (!rule || typeof options !== 'object' || options === null || Array.isArray(options)) continue;
    const known = rule.options ?? [];
    for (const key of Object.keys(options)) {
      if (known.includes(key)) continue;
      const guess = closestName(key, known);
      const takes = known.length === 0 ? `; "${id}" takes no options` : guess ? `: did you mean "${guess}"?` : `; "${id}" takes ${known.map((k) => `"${k}"`).join(', ')}`;
      out.push(`unknown option "${key}" of rule "${id}" is ignored${takes}`);
    }
  }
  return out;
}

/** What one file's rules share: its directives and the parses made once. */
export interface FileRun {
  model: MemdirModel;
  changeOnly?: boolean;
  file: MemoryFile;
  repo: RepoFacts | null;
  history: MemdirHistory | null;
  today: Date;
  format: ClaudeFormat;
  directives: Directives;
  cache: { lines?: string[]; offsets?: number[]; tree?: import('mdast').Root };
  /** Where the stack of a rule that throws goes (LintRunOptions.debug). */
  debug?: (text: string) => void;
}

export function fileRun(model: MemdirModel, file: MemoryFile, repo: RepoFacts | null, history: MemdirHistory | null, today: Date, format: ClaudeFormat = claudeFormat()): FileRun {
  return { model, file, repo, history, today, format, directives: parseDirectives(file.text), cache: {} };
}

/**
 * Run one rule on one file, as every door into memlint does (the CLI's engine, the remark preset,
 * the language server): the context a rule is handed, disable comments, and a rule that throws
 * reported on the file rather than stopping the run.
 */
export function runRule(run: FileRun, { rule, severity, options }: EnabledRule, messages: LintMessage[]): void | Promise<void> {
  const { file, cache, directives: d } = run;
  const ctx: RuleContext = {
    file,
    memdir: run.model,
    repo: run.repo,
    history: run.history,
    ...(run.changeOnly ? { changeOnly: true } : {}),
    options,
    today: run.today,
    format: run.format,
    lines: () => (cache.lines ??= lineTexts(file.text)),
    lineOffsets: () => (cache.offsets ??= lineStarts(file.text)),
    blocks: () => run.model.blocks(file),
    tree: () => (cache.tree ??= parseMarkdown(file.text)),
    report: (m: RuleMessage) => {
      if (d.isDisabled(rule.id, m.line)) return;
      const msg: LintMessage = { ruleId: rule.id, severity: m.severity === 'warn' ? 1 : severity, message: m.message, line: m.line, column: m.column };
      if (m.endLine !== undefined) msg.endLine = m.endLine;
      if (m.endColumn !== undefined) msg.endColumn = m.endColumn;
      if (m.fix && rule.fixable) msg.fix = m.fix;
      if (m.suggest && m.suggest.length > 0) msg.suggestions = m.suggest;
      messages.push(msg);
    },
  };
  // One rule failing on one file must not stop the rest of the run: say so on that file.
  const failed = (err: unknown) => {
    run.debug?.(`${(err as Error)?.stack ?? String(err)}\n`);
    const reason = ((err as Error)?.message ?? String(err)).split('\n')[0];
    messages.push({ ruleId: rule.id, severity: 2, message: `rule ${rule.id} failed on this file (${reason}); the file was not fully checked`, line: 1, column: 1, fatal: true });
  };
  // Most rules are synchronous: only a rule that returns a promise is waited for (a wait per rule
  // and file was a fifth of a --fix pass over thousands of small topics).
  try {
    const pending = rule.check(ctx);
    if (pending) return pending.then(undefined, failed);
  } catch (err) {
    failed(err);
  }
}

async function runRules(model: MemdirModel, repo: RepoFacts | null, rules: EnabledRule[], today: Date, only: Set<string> | undefined, history: MemdirHistory | null, format: ClaudeFormat, staleOnly?: Set<string>, debug?: (text: string) => void) {
  const perFile = new Map<string, LintMessage[]>();
  for (const file of model.files) {
    if (only && !only.has(file.path)) continue;
    const messages: LintMessage[] = [];
    perFile.set(file.path, messages);
    const run = fileRun(model, file, repo, history, today, format);
    const changeOnly = staleOnly?.has(file.path) ?? false;
    if (changeOnly) run.changeOnly = true;
    if (debug) run.debug = debug;
    for (const enabled of rules) {
      if (!enabled.rule.appliesTo.includes(file.kind)) continue;
      if (changeOnly && enabled.rule.id !== 'no-stale-reference') continue;
      const pending = runRule(run, enabled, messages);
      if (pending) await pending;
    }
  }
  return perFile;
}

/**
 * Each fix as --fix would apply it on its own: its edits by file, or null when --fix would not make
 * it (an edit of a file the model did not read, a path through a symlink or out of `bound`). The
 * files read and each path's check are worked out once for all the findings of a run: a topic of
 * 25,000 fixable findings checked its path on disk 25,000 times.
 */
export function fixesAlone(model: MemdirModel, bound: string): (fix: Fix, file: string) => Map<string, TextEdit[]> | null {
  const read = new Set(model.files.map((f) => f.path));
  const refusals = new Map<string, string | null>();
  return (fix, file) => {
    const { byPath, count } = chooseFixes([{ fix, file }], read, bound, new Set(), refusals);
    return count === 1 ? byPath : null;
  };
}

/** Apply edits to a text: sorted, and an edit overlapping an earlier one is dropped. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  // Joined once: thousands of edits added one by one made a deep rope, flattened when next read.
  const parts: string[] = [];
  let pos = 0;
  for (const e of sorted) {
    if (e.start < pos) continue;
    parts.push(text.slice(pos, e.start), e.text);
    pos = e.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/**
 * The spans of the edits accepted in one file, sorted by start, then end: pairwise non-overlapping,
 * so their ends rise too, and an edit overlaps one of them exactly when the last span starting
 * before its end reaches past its start (one binary search, not a scan of every accepted edit:
 * thousands of duplicate entries made --fix quadratic).
 */
class AcceptedSpans {
  private starts: number[] = [];
  private ends: number[] = [];

  /** How many spans come before (start, end), ordered by start, then end (`end` omitted: by start only). */
  private before(start: number, end = -1): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const s = this.starts[mid]!;
      if (s < start || (s === start && this.ends[mid]! <= end)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  overlaps(e: TextEdit): boolean {
    const i = this.before(e.end);
    return i > 0 && this.ends[i - 1]! > e.start;
  }

  add(e: TextEdit): void {
    const i = this.before(e.start, e.end);
    this.starts.splice(i, 0, e.start);
    this.ends.splice(i, 0, e.end);
  }
}

/**
 * Choose fixes that do not overlap each other, whole fixes only (all of a fix's edits or none).
 * `read`: the files of the memdir the model holds, the only ones a fix may edit.
 */
function chooseFixes(fixes: Array<{ fix: Fix; file: string }>, read: Set<string>, bound: string, refused: Set<string>, refusals = new Map<string, string | null>()): { byPath: Map<string, TextEdit[]>; count: number } {
  const accepted = new Map<string, TextEdit[]>();
  const refusal = (path: string): string | null => {
    let r = refusals.get(path);
    if (r === undefined) {
      const c = checkInsideRepo(bound, path);
      refusals.set(path, (r = c.ok ? null : c.reason));
    }
    return r;
  };
  let count = 0;
  // Two insertions at one point do not overlap: they are applied in the order the fixes came.
  const spans = new Map<string, AcceptedSpans>();
  const overlapsAccepted = (e: TextEdit & { path: string }) => spans.get(e.path)?.overlaps(e) ?? false;
  for (const { fix, file } of fixes) {
    const targets = fix.edits.map((e) => ({ ...e, path: e.path ?? file }));
    // Fixes edit the memdir's files that were read, and nothing else (not a file it ignored or
    // could not read as text, nothing outside it).
    if (targets.some((e) => !read.has(e.path))) continue;
    // Never through a symlink at any level (src/fs/inside.ts): the rename would replace the link
    // with a file, or write where it points. The problem stays reported, and so does the refusal.
    const why = targets.map((e) => refusal(e.path)).find((r) => r !== null);
    if (why) {
      refused.add(why);
      continue;
    }
    if (targets.some(overlapsAccepted)) continue;
    count++;
    for (const e of targets) {
      const list = accepted.get(e.path) ?? [];
      list.push(e);
      accepted.set(e.path, list);
      let s = spans.get(e.path);
      if (!s) spans.set(e.path, (s = new AcceptedSpans()));
      s.add(e);
    }
  }
  return { byPath: accepted, count };
}

function toResult(filePath: string, messages: LintMessage[]): FileResult {
  messages.sort((a, b) => a.line - b.line || a.column - b.column || (a.ruleId ?? '').localeCompare(b.ruleId ?? ''));
  let errorCount = 0;
  let warningCount = 0;
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  for (const m of messages) {
    if (m.severity === 2) {
      errorCount++;
      if (m.fix) fixableErrorCount++;
    } else {
      warningCount++;
      if (m.fix) fixableWarningCount++;
    }
  }
  return { filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount };
}

/**
 * No message prints a secret (docs/security.md), whatever rule made it: a link target with a password,
 * a token as a `type` value, a file named after a token. Masked here, in one place, against the
 * secrets of the memdir's files.
 */
export async function maskMessages(results: FileResult[], model: MemdirModel): Promise<void> {
  if (!results.some((r) => r.messages.length > 0)) return;
  const known = await secretsOf(model.files.map((f) => f.text));
  // Messages repeat (a rule words each finding of one kind the same way, 25,000 findings of a dated
  // topic hold a few dozen texts): each distinct text is masked once.
  const done = new Map<string, string>();
  const mask = (text: string) => {
    let out = done.get(text);
    if (out === undefined) done.set(text, (out = maskSecrets(text, known)));
    return out;
  };
  for (const r of results) {
    // A file named after a secret is reported under a masked name: the path is printed too.
    r.filePath = mask(r.filePath);
    // no-secrets words its own findings with the value masked already; masked again, a password
    // that is a word of the message ("password") would garble it.
    for (const m of r.messages) if (m.ruleId !== 'no-secrets') m.message = mask(m.message);
  }
}

/** "Today" for a run: MEMLINT_TODAY=YYYY-MM-DD (tests), else now. */
/** git's conflict markers (default size): an opening and a closing marker line. */

export function runToday(env: NodeJS.ProcessEnv): Date {
  return env.MEMLINT_TODAY ? dayOf(env.MEMLINT_TODAY) : new Date();
}

/** A day given as YYYY-MM-DD, at its noon (local time): the form "today" is pinned in. */
export function dayOf(day: string): Date {
  return new Date(`${day}T12:00:00`);
}

export async function lintMemdirs(opts: LintRunOptions): Promise<LintRunResult> {
  const today = opts.today ?? new Date();
  const format = opts.format ?? claudeFormat();
  const results: FileResult[] = [];
  let fixesApplied = 0;
  const filesFixed = new Set<string>();
  const refused = new Set<string>();
  // History (renames, deletions) is read once per run and repository, whatever the memdirs and passes.
  const shared = new Map<string, SharedRepoFacts>();
  const sharedFor = (root: string) => shared.get(root) ?? shared.set(root, {}).get(root)!;
  const allFixedTexts = new Map<string, string>();
  const models: MemdirModel[] = [];
  for (const d of opts.memdirs) {
    const source: MemdirSource = opts.source === 'staged' && d.repoRoot ? { kind: 'staged', snapshot: opts.staged?.root === d.repoRoot ? opts.staged : stagedSnapshot({ cwd: d.repoRoot, env: opts.env }) } : { kind: 'worktree' };
    const ignore = opts.ignore ? (rel: string) => opts.ignore!(`${d.dir}${sep}${rel.split('/').join(sep)}`) : undefined;
    // Read only the files that are reported (and MEMORY.md); the rest of the memdir is known by
    // its paths, which is all the memdir-wide rules need. --fix, and a run given editor texts,
    // read everything: a fix may write into another file (a hook's tail moved into its topic file).
    const only = source.kind === 'staged' || (!opts.fix && !opts.texts) ? d.onlyFiles : undefined;
    let { model, problems } = loadMemdir(d.dir, { source, repoRoot: d.repoRoot, ignore, ...(only ? { only } : {}) });
    // --fix runs its passes in memory, as ESLint's verifyAndFix does: the fixed texts make the next
    // pass's model, and each changed file is written once, after the last pass.
    const fixedTexts = new Map<string, string>();
    const realPaths = new Map<string, string>();
    const real = (path: string) => realPaths.get(path) ?? realPaths.set(path, realOrResolved(path)).get(path)!;
    if (opts.texts && source.kind === 'worktree') {
      ({ model } = withUnsavedFiles(model, opts.texts, d.onlyFiles, ignore));
      const read = new Set(model.files.map((f) => f.path));
      const given = new Map([...opts.texts].filter(([path]) => read.has(path)));
      if (given.size > 0) ({ model, problems } = withFixedTexts(model, problems, given, real));
    }
    let passes = 0;
    for (;;) {
      if (d.confirmLinks && !linksBeside(model.index?.text ?? '', '', model.allPaths, d.repoRoot ? isRootLike(slashRelative(d.repoRoot, d.dir)) : false)) break;
      const pass = model;
      const repo = d.repoRoot ? createRepoFacts({ cwd: d.repoRoot, env: opts.env }, d.dir, { revision: source.kind, shared: sharedFor(d.repoRoot), texts: () => pass.files.map((f) => f.text) }) : null;
      const history = source.kind === 'staged' && d.repoRoot && d.changed ? createMemdirHistory(source.snapshot, model, d.changed, opts.archiveDir ? opts.archiveDir(d.dir) : null) : null;
      const perFile = await runRules(model, repo, opts.rules, today, d.onlyFiles, history, format, opts.staleOnly, opts.debug);
      // A file holding conflict markers is the person's to settle (memlint resolve): no fix edits
      // it, so no finding that would is counted fixable, and --fix says why in one line.
      const marked = new Set(model.files.filter((f) => holdsConflictMarkers(f.text)).map((f) => f.path));
      if (marked.size > 0) {
        for (const [file, msgs] of perFile) {
          for (const m of msgs) if (m.fix && m.fix.edits.some((e) => marked.has(e.path ?? file))) delete m.fix;
        }
        if (opts.fix && source.kind === 'worktree') {
          for (const path of marked) refused.add(`${slashRelative(d.repoRoot ?? d.dir, path)} holds conflict markers, so --fix changes nothing in it; settle them first ("memlint resolve")`);
        }
      }
      if (opts.fix && source.kind === 'worktree' && passes < 10) {
        const fixes: Array<{ fix: Fix; file: string }> = [];
        for (const [file, msgs] of perFile) for (const m of msgs) if (m.fix) fixes.push({ fix: m.fix, file });
        const texts = new Map(model.files.map((f) => [f.path, f.text]));
        const { byPath: chosen, count } = chooseFixes(fixes, new Set(texts.keys()), d.repoRoot ?? d.dir, refused);
        const changed = new Map<string, string>();
        for (const [path, edits] of chosen) {
          const before = texts.get(path)!;
          const after = applyEdits(before, edits);
          if (after !== before) changed.set(path, after);
        }
        if (changed.size > 0) {
          for (const [path, text] of changed) {
            fixedTexts.set(path, text);
            filesFixed.add(path);
          }
          ({ model, problems } = withFixedTexts(model, problems, changed, real));
          fixesApplied += count;
          passes++;
          continue;
        }
      }
      const fileResults: FileResult[] = [];
      for (const p of problems) {
        if (d.onlyFiles && !d.onlyFiles.has(p.path)) continue;
        fileResults.push(toResult(p.path, [{ ruleId: null, severity: 2, message: p.message, line: 1, column: 1, fatal: true }]));
      }
      for (const [file, msgs] of perFile) fileResults.push(toResult(file, msgs));
      await maskMessages(fileResults, model);
      for (const r of fileResults) results.push(r);
      models.push(model);
      break;
    }
    // Topics before indexes: a fix that moves an index entry's hook into its topic must find the
    // text in one of the two if it is killed between the writes (contract §14).
    const writeOrder = [...fixedTexts].sort(([a], [b]) => Number(basename(a) === INDEX_FILE) - Number(basename(b) === INDEX_FILE));
    for (const [path, text] of writeOrder) {
      allFixedTexts.set(path, text);
      if (opts.write !== false) writeInsideRepo(d.repoRoot ?? d.dir, path, text, { mkdir: true });
    }
  }
  results.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  return { results, fixesApplied, filesFixed: [...filesFixed].sort(), refused: [...refused].sort(), fixedTexts: allFixedTexts, models };
}

/**
 * The memdir with the files an editor holds that are not on disk yet (a new, unsaved file): each
 * is read as the memory file it will be once saved, its text filled in by
 * withFixedTexts. A path the loader would pass over (not a memory file, ignored, under
 * node_modules, outside the memdir) stays out.
 */
function withUnsavedFiles(model: MemdirModel, texts: Map<string, string>, reported: Set<string> | undefined, ignore: ((rel: string) => boolean) | undefined): { model: MemdirModel } {
  const known = new Set(model.files.map((f) => f.path));
  const nested = [...model.allPaths].filter((p) => p.endsWith(`/${INDEX_FILE}`)).map((p) => p.slice(0, -INDEX_FILE.length));
  const inNestedMemdir = (rel: string) => nested.some((n) => rel.startsWith(n));
  const added: MemoryFile[] = [];
  // Every open file not on disk yet, not only the reported ones: the index, linted while a new topic
  // is open, must find the file its entry names (the topic itself is linted as the file it will be).
  for (const path of new Set([...(reported ?? []), ...texts.keys()])) {
    // Anything on disk under that name (a dangling symlink too) is the loader's to judge.
    if (known.has(path) || !texts.has(path) || lstatSync(path, { throwIfNoEntry: false })) continue;
    const rel = slashRelative(model.dir, path);
    if (rel.startsWith('../') || !isMemoryPath(rel) || rel.split('/').includes('node_modules') || model.allPaths.has(rel) || ignore?.(rel) || inNestedMemdir(rel)) continue;
    added.push({ path, rel, text: '', ...fileKind(rel) });
  }
  if (added.length === 0) return { model };
  const allPaths = new Set(model.allPaths);
  for (const f of added) allPaths.add(f.rel);
  return { model: createModel(model.dir, [...model.files, ...added], allPaths, model) };
}

/**
 * The memdir as loading it again would find it once `changed` (path -> fixed text) were written:
 * the text read back as the loader decodes it, and a file reached through a symlink to a changed
 * file (a.md -> b.md) showing the new text too.
 */
function withFixedTexts(model: MemdirModel, problems: FileProblem[], changed: Map<string, string>, real: (path: string) => string): { model: MemdirModel; problems: FileProblem[] } {
  const realChanged = new Map([...changed].map(([path, text]) => [real(path), text]));
  const files: MemoryFile[] = [];
  const unreadable: FileProblem[] = [];
  for (const f of model.files) {
    const text = changed.get(f.path) ?? realChanged.get(real(f.path));
    if (text === undefined) {
      files.push(f);
      continue;
    }
    const decoded = readBackMemoryText(text);
    if ('problem' in decoded) unreadable.push({ path: f.path, message: decoded.problem });
    else files.push({ ...f, text: decoded.text });
  }
  return { model: createModel(model.dir, files, model.allPaths, model), problems: [...problems, ...unreadable] };
}

export type { MemoryFile };
