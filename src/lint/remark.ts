// `memlint/remark`: memlint's rules as a unified preset of remark-lint rules, for remark-cli,
// `.remarkrc*` and language servers. Each plugin is a thin adapter around the rule module the CLI
// runs (src/lint/rules/*): it builds what the engine hands a rule (the file, the memdir it lies
// in, read from the file's path, and the repository facts) and reports on the vfile with the same
// line and column as `memlint`. The file's text is the vfile's (an editor's unsaved buffer); the
// rest of the memdir is read from disk. Severity is memlint's default (error: fatal, warn: not),
// and `[plugin, [severity, options]]` in remark's config sets both, as for any remark-lint rule.
import { dirname, resolve } from 'node:path';
import type { Root } from 'mdast';
import type { Plugin, Processor } from 'unified';
import { lintRule } from 'unified-lint-rule';
import type { VFile } from 'vfile';
import type { VFileMessage } from 'vfile-message';
import { discoverMemdirs } from '../memdir/discover.js';
import { createModel } from '../memdir/model.js';
import { loadMemdir } from '../memdir/read.js';
import { dayOf, fileRun, maskMessages, runRule, type FileRun, type LintMessage } from './engine.js';
import { createRepoFacts } from './repo-facts.js';
import { allRules } from './rules/all.js';
import type { Rule } from './types.js';

/** What every rule of one vfile shares: its memdir, parses and repository facts, made once. */
const runs = new WeakMap<VFile, Promise<FileRun | null>>();

function runOf(file: VFile): Promise<FileRun | null> {
  let run = runs.get(file);
  if (!run) {
    run = Promise.resolve().then(() => openRun(file));
    runs.set(file, run);
  }
  return run;
}

/** The file as memlint sees it inside its memdir; null when it is not a memory file. */
function openRun(file: VFile): FileRun | null {
  if (!file.path) return null;
  const abs = resolve(file.cwd, file.path);
  // A plugin in someone else's pipeline: this process's environment is the one there is.
  const env = process.env;
  let found;
  try {
    found = discoverMemdirs({ cwd: dirname(abs), env, paths: [abs] });
  } catch {
    return null; // not inside a memory folder (or a path memlint does not follow): nothing to say
  }
  const memdir = found[0];
  if (!memdir) return null;
  const { model } = loadMemdir(memdir.dir, { repoRoot: memdir.repoRoot, only: new Set([abs]) });
  const onDisk = model.files.find((f) => f.path === abs);
  if (!onDisk) return null; // not Markdown, or not text memlint reads
  const text = String(file.value);
  let run = model;
  let memoryFile = onDisk;
  if (onDisk.text !== text) {
    memoryFile = { ...onDisk, text };
    run = createModel(memdir.dir, model.files.map((f) => (f === onDisk ? memoryFile : f)), model.allPaths);
  }
  const repo = memdir.repoRoot ? createRepoFacts({ cwd: memdir.repoRoot, env }, memdir.dir) : null;
  // Today is the day it runs, unless a rule's options pin it (todayOf).
  return fileRun(run, memoryFile, repo, null, new Date());
}

/**
 * A rule's options without `today`, and the day it pins: a plugin of someone else's unified
 * pipeline is handed no environment, so the day relative dates count from is an option
 * (`[rules['absolute-dates'], {today: 'YYYY-MM-DD'}]`), as MEMLINT_TODAY pins it for the CLI.
 */
function todayOf(options: Record<string, unknown> | undefined): { today: Date | null; options: Record<string, unknown> } | { error: string } {
  const { today, ...rest } = options ?? {};
  if (today === undefined) return { today: null, options: rest };
  if (typeof today !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(dayOf(today).getTime())) {
    return { error: `memlint/remark: option "today" must be a day as YYYY-MM-DD, not ${JSON.stringify(today)?.slice(0, 40)}` };
  }
  return { today: dayOf(today), options: rest };
}

/** Messages a rule capped at a warning (RuleMessage.severity 'warn'): never fatal, whatever the rule's level. */
const capped = new WeakSet<VFileMessage>();

type Transformer = (tree: Root, file: VFile, next: (error?: Error | null) => void) => void;

function rulePlugin(rule: Rule): Plugin<[unknown?], Root> {
  const level = rule.defaultSeverity === 'error' ? 'error' : 'warn';
  const attacher = lintRule<Root, Record<string, unknown> | undefined>({ origin: `memlint:${rule.id}` }, async (_tree, file, options) => {
    const pinned = todayOf(options);
    // A bad option is the person's config error: one fatal message, as a rule reports, not a thrown stack.
    if ('error' in pinned) {
      const message = file.message(pinned.error, undefined, `memlint:${rule.id}`);
      message.fatal = true;
      return;
    }
    const shared = await runOf(file);
    if (!shared || !rule.appliesTo.includes(shared.file.kind)) return;
    const run = pinned.today ? { ...shared, today: pinned.today } : shared;
    const messages: LintMessage[] = [];
    await runRule(run, { rule, severity: 2, options: pinned.options }, messages);
    if (messages.length === 0) return;
    // No message prints a secret, as in the CLI (the same masking, against the memdir's texts).
    await maskMessages([{ filePath: run.file.path, messages, errorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 }], run.model);
    for (const m of messages) {
      const start = { line: m.line, column: m.column };
      const place = m.endLine !== undefined && m.endColumn !== undefined ? { start, end: { line: m.endLine, column: m.endColumn } } : start;
      const message = file.message(m.message, { place });
      if (m.severity === 1 && !m.fatal) capped.add(message);
    }
  }) as unknown as (this: Processor, config: unknown) => Transformer | undefined;
  function plugin(this: Processor, config?: unknown): Transformer | undefined {
    // No setting, `true` or `'on'`: memlint's default level; options alone keep it too.
    let setting: unknown[];
    if (config === undefined || config === null || config === true || config === 'on') setting = [level];
    else if (Array.isArray(config)) setting = config[0] === true || config[0] === 'on' ? [level, ...config.slice(1)] : config;
    else if (typeof config === 'object') setting = [level, config];
    else setting = [config];
    const transform = attacher.call(this, setting);
    if (!transform) return undefined;
    return (tree, file, next) => {
      transform(tree, file, (error) => {
        for (const m of file.messages) if (capped.has(m)) m.fatal = false;
        next(error);
      });
    };
  }
  Object.defineProperty(plugin, 'name', { value: `memlint:${rule.id}` });
  return plugin as unknown as Plugin<[unknown?], Root>;
}

/** Each rule's plugin, by rule id: `[rules['no-secrets'], 'off']` in a remark config turns one off. */
export const rules: Record<string, Plugin<[unknown?], Root>> = Object.fromEntries(allRules.map((r) => [r.id, rulePlugin(r)]));

/** The preset: every memlint rule at its default level. */
const memlint = { plugins: allRules.map((r) => rules[r.id]!) };

export default memlint;
