// `memlint diff [BASE..HEAD] [--format text|markdown|json]` (docs/diff.md): what a range of
// commits does to memory, for the person reviewing a pull request: the range and what it changed
// are read in src/memdir/range.ts (both ends from git's object store, never the working tree), the
// semantics are in src/memdir/changes.ts; this module formats them.
import { realpathSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse } from './args.js';
import { escapeControls, jsonWithoutControls, quoteName } from '../printable.js';
import { UsageError } from '../errors.js';
import { loadConfig, type ConsolidateConfig } from '../config.js';
import { archiveDirOf } from '../consolidate/settings.js';
import { repository } from '../git/repo.js';
import { MAX_INDEX_LINES, MAX_INDEX_UNITS } from '../memdir/limits.js';
import type { Budget, EntryChange, MemdirChanges, TopicChange, TopicFacts } from '../memdir/changes.js';
import { diffRange, resolveRange, type DiffRange, type MemdirDiff } from '../memdir/range.js';
import { maskSecrets, maskSecretsDeep, secretsOf } from '../content/secrets.js';
import { staleInRange, type StaleMemory } from '../lint/stale-range.js';
import type { PathFate } from '../lint/stale.js';
import { slashRelative } from '../fs/paths.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint diff [RANGE] [--format text|markdown|json]

What a range of commits changes in memory, read semantically, for the person who reviews a pull
request: topic files added, edited (name, description, type, body), renamed, removed or
archived; index entries added, edited (title and hook before and after) or removed; daily logs;
and the index budget at both ends (lines and UTF-16 units against Claude Code's 200 and 25,000,
measured as "memlint show --budget" measures them); and the memories the range makes stale: paths
they name that a commit of the range renamed or deleted (no-stale-reference). Reads commits, never
the working tree.

  RANGE   BASE..HEAD (from BASE to HEAD), BASE...HEAD (from their merge base to HEAD), or one
          BASE (BASE..HEAD). Default: the merge base with the upstream's default branch
          (<remote>/HEAD, e.g. origin/HEAD) to HEAD.

Options:
  --format F  text (default), markdown (a pull request comment or a workflow step summary),
              json (for scripts; shape in docs/diff.md)
  -h, --help  show this help

Exit codes: 0 reported (also when memory changed: lint judges it), 2 usage error or failure.
`;

/**
 * Each memdir's archive folder, repository-relative with a final slash: config
 * consolidate.archiveDir (from the working tree's config), else `<memdir>-archive/`; null where it
 * would lie outside the repository.
 */
export function archiveFolders(root: string, consolidate: ConsolidateConfig | undefined): (memdir: string) => string | null {
  return (d) => {
    const rel = slashRelative(root, archiveDirOf(consolidate, join(root, d)));
    return rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel) ? null : `${rel}/`;
  };
}

/** Text from the repository, shown without the secrets memlint's own patterns find in it. */
export const masked = (text: string): string => maskSecrets(text);

// Values are quoted; names are shown as is unless they hold a control character or edge
// whitespace (then quoted): nothing from the repository reaches the terminal raw (contract §14).
const q = (s: string | undefined) => (s === undefined ? '(none)' : escapeControls(JSON.stringify(masked(s))));

function factChanges(b: TopicFacts, a: TopicFacts, body: boolean, show: (s: string | undefined) => string): string[] {
  const out: string[] = [];
  for (const k of ['name', 'description', 'type'] as const) if (b[k] !== a[k]) out.push(`${k} ${show(b[k])} → ${show(a[k])}`);
  if (body) out.push('body changed');
  return out;
}

function topicLine(t: TopicChange, show: (s: string | undefined) => string, path: (p: string) => string): [verb: string, what: string, details: string] {
  switch (t.verb) {
    case 'added':
      return ['added', path(t.path), [t.type ? `type ${t.type}` : 'no type', `description ${show(t.description)}`].join('; ')];
    case 'edited':
      return ['edited', path(t.path), factChanges(t.before, t.after, t.body, show).join('; ') || 'frontmatter changed'];
    case 'renamed':
      return ['renamed', `${path(t.path)} → ${path(t.to)}`, factChanges(t.before, t.after, t.body, show).join('; ')];
    case 'archived':
      return ['archived', path(t.path), `moved to ${path(t.to)}`];
    case 'removed':
      return ['removed', path(t.path), `was ${show(t.description)}`];
  }
}

function entryLine(e: EntryChange, show: (s: string | undefined) => string, path: (p: string) => string): [verb: string, what: string, details: string] {
  if (e.verb === 'edited') {
    const parts: string[] = [];
    if (e.before.title !== e.after.title) parts.push(`title ${show(e.before.title)} → ${show(e.after.title)}`);
    if (e.before.hook !== e.after.hook) parts.push(`hook ${show(e.before.hook)} → ${show(e.after.hook)}`);
    return ['edited', path(e.target), parts.join('; ')];
  }
  return [e.verb, path(e.target), `${show(e.title)}${e.hook ? ` — ${show(e.hook)}` : ''}`];
}

const budgetText = (b: Budget | null, key: keyof Budget) => (b === null ? 'none' : String(b[key]));

function summary(c: MemdirChanges): string {
  const count = (list: Array<{ verb: string }>, noun: string) => {
    const by = new Map<string, number>();
    for (const x of list) by.set(x.verb, (by.get(x.verb) ?? 0) + 1);
    return by.size ? `${noun}: ${[...by].map(([v, n]) => `${n} ${v}`).join(', ')}` : '';
  };
  const logs = c.logs.added.length + c.logs.changed.length + c.logs.removed.length;
  return [count(c.topics, 'topics'), count(c.entries, 'entries'), logs ? `daily logs: ${logs} changed` : ''].filter(Boolean).join('; ') || 'no topic or entry changes';
}

/** What happened to a path a stale memory names, in words. */
function staleWhat(s: StaleMemory, path: (p: string) => string, commit: (c: string) => string = (c) => c): string {
  const where = s.fate.commit === null ? '' : ` in ${commit(s.fate.commit.slice(0, 7))}`;
  return s.fate.kind === 'renamed' ? `renamed to ${path(`${s.fate.to}${s.path.endsWith('/') ? '/' : ''}`)}${where}` : `deleted${where}`;
}

function staleText(stale: StaleMemory[]): string[] {
  if (stale.length === 0) return [];
  const out = ['', `stale memory: ${stale.length} path${stale.length === 1 ? '' : 's'} named in memory ${stale.length === 1 ? 'was' : 'were'} renamed or deleted by this range`];
  for (const s of stale) out.push(escapeControls(`  ${JSON.stringify(masked(s.file))}:${s.line}:${s.column}  ${JSON.stringify(masked(s.path))} ${staleWhat(s, (p) => JSON.stringify(masked(p)))}`));
  return out;
}

function staleMarkdown(stale: StaleMemory[]): string[] {
  if (stale.length === 0) return [];
  const out = ['#### Memories this range makes stale', '', 'Paths named in memory that a commit of this range renamed or deleted (`memlint --fix` rewrites the renamed ones):', ''];
  out.push('| memory | line | names | what happened |', '|---|---:|---|---|');
  for (const s of stale) out.push(`| ${codeSpan(masked(s.file))} | ${s.line} | ${codeSpan(masked(s.path))} | ${staleWhat(s, (p) => codeSpan(masked(p)), codeSpan)} |`);
  out.push('');
  return out;
}

export function formatText(range: DiffRange, diffs: MemdirDiff[], stale: StaleMemory[] = []): string {
  const head = `memory changes ${quoteName(range.base)} (${range.baseCommit.slice(0, 12)}) .. ${quoteName(range.head)} (${range.headCommit.slice(0, 12)})`;
  if (diffs.length === 0) return `${[`${head}: none`, ...staleText(stale)].join('\n')}\n`;
  const out = [head];
  for (const { path, changes: c } of diffs) {
    out.push('', `${quoteName(path)}: ${summary(c)}`);
    for (const t of c.topics) {
      const [verb, what, details] = topicLine(t, q, quoteName);
      out.push(`  topic ${verb.padEnd(9)}${what}${details ? `: ${details}` : ''}`);
    }
    for (const e of c.entries) {
      const [verb, what, details] = entryLine(e, q, quoteName);
      out.push(`  entry ${verb.padEnd(9)}${what}${details ? `: ${details}` : ''}`);
    }
    for (const [verb, list] of Object.entries(c.logs)) for (const l of list) out.push(`  log   ${verb.padEnd(9)}${quoteName(l)}`);
    const { before, after } = c.budget;
    out.push(`  budget   lines ${budgetText(before, 'lines')} → ${budgetText(after, 'lines')} of ${MAX_INDEX_LINES}; units ${budgetText(before, 'units')} → ${budgetText(after, 'units')} of ${MAX_INDEX_UNITS}`);
  }
  for (const l of staleText(stale)) out.push(l);
  return out.join('\n') + '\n';
}

/** An inline code span that holds any text safely (no Markdown, HTML or mention inside it is live), for a table cell. */
export function codeSpan(text: string): string {
  const flat = escapeControls(text.replace(/\r?\n|\r/g, ' ')).replace(/\|/g, '\\|');
  if (flat === '') return '""';
  const longest = (flat.match(/`+/g) ?? []).reduce((n, r) => Math.max(n, r.length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || /^ .* $/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const md = (s: string | undefined) => (s === undefined ? '_none_' : codeSpan(masked(s)));

export function formatMarkdown(range: DiffRange, diffs: MemdirDiff[], stale: StaleMemory[] = []): string {
  const out = [`### Memory changes: ${codeSpan(range.base)} → ${codeSpan(range.head)}`, ''];
  if (diffs.length === 0) return [...out, 'No memory changes in this range.', '', ...staleMarkdown(stale)].join('\n').replace(/\n*$/, '\n');
  for (const { path, changes: c } of diffs) {
    out.push(`#### ${codeSpan(path)}`, '', summary(c), '');
    const rows = [
      ...c.topics.map((t) => ['topic', ...topicLine(t, md, codeSpan)]),
      ...c.entries.map((e) => ['index entry', ...entryLine(e, md, codeSpan)]),
      ...Object.entries(c.logs).flatMap(([verb, list]) => list.map((l) => ['daily log', verb, codeSpan(l), ''])),
    ];
    if (rows.length) {
      out.push('| | change | file | details |', '|---|---|---|---|');
      for (const [kind, verb, what, details] of rows) out.push(`| ${kind} | **${verb}** | ${what} | ${details} |`);
      out.push('');
    }
    const { before, after } = c.budget;
    out.push('| index budget | before | after | limit |', '|---|---:|---:|---:|');
    out.push(`| lines | ${budgetText(before, 'lines')} | ${budgetText(after, 'lines')} | ${MAX_INDEX_LINES} |`);
    out.push(`| UTF-16 units | ${budgetText(before, 'units')} | ${budgetText(after, 'units')} | ${MAX_INDEX_UNITS.toLocaleString('en')} |`, '');
  }
  for (const l of staleMarkdown(stale)) out.push(l);
  return out.join('\n');
}

export function formatJson(range: DiffRange, diffs: MemdirDiff[], stale: StaleMemory[] = []): string {
  const memdirs = diffs.map(({ path, changes }) => ({ path, ...changes, budget: { ...changes.budget, limits: { lines: MAX_INDEX_LINES, units: MAX_INDEX_UNITS } } }));
  // `certain` says whether --fix may rewrite the path; the JSON keeps its shape (contract §13).
  const staleOut = stale.map(({ memdir, file, line, column, path, fate }) => ({ memdir, file, line, column, path, ...withoutCertainty(fate) }));
  return jsonWithoutControls(JSON.stringify(maskSecretsDeep({ ...range, memdirs, stale: staleOut }), null, 2)) + '\n';
}

function withoutCertainty(fate: PathFate): Omit<PathFate, 'certain'> {
  if (fate.kind !== 'renamed') return fate;
  const { certain: _certain, ...rest } = fate;
  return rest;
}

const FORMATS = { text: formatText, markdown: formatMarkdown, json: formatJson } as const;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { format: { type: 'string' } }, 'diff');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('diff takes one RANGE, e.g. origin/main...HEAD (see "memlint diff --help")');
  const format = values.format ?? 'text';
  if (!(format in FORMATS)) throw new UsageError(`--format must be text, markdown or json, got "${format}"`);
  const root = repository(io, realpathSync(io.cwd))?.root ?? null;
  if (!root) throw new UsageError('diff works inside a git repository');
  const at = { cwd: root, env: io.env };
  const range = await resolveRange(at, positionals[0]);
  // Config only places the archive: a config memlint cannot read leaves the default folder.
  const consolidate = (await loadConfig({ cwd: io.cwd, stderr: io.stderr }).catch(() => null))?.config.consolidate;
  const read: string[] = [];
  const diffs = await diffRange(at, range, archiveFolders(root, consolidate), read);
  const stale = await staleInRange(at, range, read);
  // Masked against what no-secrets finds in the files themselves (secretlint's finds included):
  // a value quoted out of its context (a type, a link target) no longer looks like a secret.
  const known = await secretsOf(read);
  io.stdout.write(maskSecrets(FORMATS[format as keyof typeof FORMATS](range, maskSecretsDeep(diffs, known), maskSecretsDeep(stale, known)), known));
  return 0;
}
