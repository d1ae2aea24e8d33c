// memlint show: exactly what the agent loads from MEMORY.md at session start (Claude Code's
// truncation and warning), or with --budget how much of the budget the index and topic files use.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { compactTargetText, formatFileSize, isAgentMemdir, loadIndex, MAX_INDEX_LINES, MAX_INDEX_UNITS, MAX_TOPIC_FILES, type LoadedIndex } from '../memdir/limits.js';
import { claudeFormat, type ClaudeFormat } from '../memdir/format.js';
import { danglingLinks, linkTargets } from '../memdir/links.js';
import { loadMemdir } from '../memdir/read.js';
import { formatOf, loadConfig } from '../config.js';
import { rankForRecall, scanMemdir, type RecallRanking } from '../claude/recall.js';
import { chooseMemdir } from '../claude/locate.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { repository, type GitContext } from '../git/repo.js';
import { isWithin, realOrResolved } from '../fs/paths.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint show [MEMDIR] [--budget]

Prints exactly what the agent loads from MEMORY.md at session start: the index with frontmatter
and block HTML comments stripped, trimmed, cut at 200 lines and then at the last newline before
25,000 UTF-16 units, followed by Claude Code's warning when it was cut. Agent memory folders
(.claude/agent-memory*/<agent>/) are cut without stripping, as Claude Code loads them.
On a terminal a final newline is added; piped, the output is byte for byte what the agent sees.

With no MEMDIR: the repository's memory folder (the one Claude Code uses here if several).

Options:
  --budget    show instead the budget: lines and units used, and which topic files are recall
              candidates (the 200 newest by mtime with a description in their first 30 lines)
  -h, --help  show this help

Exit codes: 0 shown (also when the index is cut: lint reports that), 2 usage error.
`;

const BAR_CELLS = 10;

/** `143/200 lines ████████░░ 72%`: cells rounded up, so any use shows. */
export function budgetBar(used: number, limit: number, unit: string): string {
  const ratio = used / limit;
  const filled = Math.min(BAR_CELLS, Math.ceil(ratio * BAR_CELLS));
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_CELLS - filled);
  return `${used}/${limit} ${unit} ${bar} ${Math.round(ratio * 100)}%`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function formatBudget(dir: string, loaded: LoadedIndex, ranking: RecallRanking, format: ClaudeFormat = claudeFormat(), dangling: Array<{ rel: string; line: number; name: string }> = []): string {
  const m = loaded.measure;
  const out: string[] = [];
  out.push(`${path.join(dir, INDEX_FILE)}`);
  out.push(`  ${budgetBar(m.lines, MAX_INDEX_LINES, 'lines')}`);
  out.push(`  ${budgetBar(m.units, MAX_INDEX_UNITS, 'units')}`);
  if (format.compactTarget) {
    const near = m.lines >= format.indexMaxLines * format.compactWarnAt || m.units >= format.indexMaxUnits * format.compactWarnAt;
    out.push(`  Claude Code ${format.version} asks the agent to compact it from ${format.indexMaxLines * format.compactWarnAt} lines or ${formatFileSize(format.indexMaxUnits * format.compactWarnAt)}, to under ${format.compactTarget.lines} lines or ${formatFileSize(format.compactTarget.units)}${near ? `: now, to under ${compactTargetText(format, m.lines, m.units)}` : ''}`);
  }
  if (loaded.truncated) {
    const keptLines = loaded.kept === '' ? 0 : loaded.kept.split('\n').length;
    out.push(`  cut: the agent sees ${keptLines} lines, ${loaded.kept.length} units; the rest (the newest entries at the bottom) is lost`);
  }
  out.push('');
  out.push(`Topic files: ${ranking.total} (.md files other than MEMORY.md, at any depth); the ${MAX_TOPIC_FILES} newest by mtime are recall candidates`);
  out.push(`Recall candidates (${ranking.candidates.length}):`);
  for (const f of ranking.candidates) out.push(`  ${day(f.mtimeMs)}  ${f.rel} — ${f.description}`);
  if (ranking.candidates.length === 0) out.push('  (none)');
  out.push(`Not candidates (${ranking.excluded.length}):`);
  for (const f of ranking.excluded) out.push(`  ${day(f.mtimeMs)}  ${f.rel}: ${f.reason}`);
  if (ranking.excluded.length === 0) out.push('  (none)');
  if (dangling.length) {
    out.push(`Links to no memory yet (${dangling.length}; fine: each marks something worth writing later):`);
    for (const d of dangling) out.push(`  ${d.rel}:${d.line}  [[${d.name}]]`);
  }
  return out.join('\n') + '\n';
}

/** The repository's real top when dir lies (as spelt) inside the repository holding cwd; else null. */
function insideBound(from: GitContext, dir: string): string | null {
  const root = repository(from)?.root ?? null;
  if (!root) return null;
  const realRoot = realOrResolved(root);
  return isWithin(dir, root) || isWithin(dir, realRoot) ? realRoot : null;
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { budget: { type: 'boolean' } }, 'show');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('show takes one MEMDIR (see "memlint show --help")');
  const cwd = io.cwd;
  let dir: string;
  let note: string | null = null;
  if (positionals[0] !== undefined) {
    dir = path.resolve(cwd, positionals[0]);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      throw new UsageError(`no such folder: ${positionals[0]}`);
    }
    if (!isDir && path.basename(dir) === INDEX_FILE) dir = path.dirname(dir);
    else if (!isDir) throw new UsageError(`not a folder: ${positionals[0]} (give the memory folder, the one holding MEMORY.md)`);
  } else {
    ({ dir, note } = await chooseMemdir(cwd, io.env));
  }
  const indexFile = path.join(dir, INDEX_FILE);
  // A memory folder of this repository is read only where it really lies inside it: a committed
  // symlinked MEMORY.md or folder that leads out is not followed (docs/security.md). A folder
  // outside the repository (Claude Code's own store, which show may be asked about) is read as is.
  const bound = insideBound(io, dir);
  if (bound) {
    for (const p of [dir, indexFile]) {
      if (!isWithin(realOrResolved(p), bound)) throw new UsageError(`${path.relative(cwd, p) || p} leads out of the repository through a symlink; memlint does not follow it`);
    }
  }
  let raw: string;
  try {
    raw = readFileSync(indexFile, 'utf8');
  } catch {
    throw new UsageError(`no MEMORY.md in ${dir}`);
  }
  const format = formatOf((await loadConfig({ cwd, stderr: io.stderr })).config);
  const loaded = loadIndex(raw, { strip: format.stripIndex && !isAgentMemdir(dir) });
  if (note) io.stderr.write(`${note}\n`);
  if (values.budget) {
    const { model } = loadMemdir(dir, bound ? { repoRoot: bound } : {});
    const dangling = danglingLinks(model.files.filter((f) => f.kind !== 'index'), linkTargets(model));
    io.stdout.write(formatBudget(dir, loaded, rankForRecall(scanMemdir(dir, bound ?? undefined)), format, dangling));
    return 0;
  }
  if (raw.trim() === '') {
    io.stderr.write(`note: ${indexFile} is empty: nothing is loaded\n`);
    return 0;
  }
  io.stdout.write(loaded.content + (io.stdout.isTTY ? '\n' : ''));
  return 0;
}
