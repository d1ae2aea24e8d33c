// memlint show: exactly what the agent loads from MEMORY.md at session start (Claude Code's
// truncation and warning), or with --budget how much of the budget the index and topic files use.
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { loadConfig } from '../config.js';
import { discoverMemdirs } from '../memdir/discover.js';
import { resolveAutoMemoryPath } from '../claude/auto-memory.js';
import { isAgentMemdir, loadIndex, MAX_INDEX_LINES, MAX_INDEX_UNITS, MAX_TOPIC_FILES, type LoadedIndex } from '../memdir/limits.js';
import { ENTRYPOINT_NAME, rankForRecall, scanMemdir, type RecallRanking } from '../claude/recall.js';
import { realOrResolved } from '../fs/paths.js';

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

async function chooseMemdir(cwd: string): Promise<{ dir: string; note: string | null }> {
  const loaded = await loadConfig({ cwd });
  const discovered = discoverMemdirs({ cwd, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir });
  const found = discovered.map((d) => d.dir);
  const resolved = resolveAutoMemoryPath({ cwd, env: process.env, home: os.homedir() }).resolved;
  const autoDir = realOrResolved(resolved.replace(/[/\\]+$/, ''));
  const match = found.find((d) => realOrResolved(d) === autoDir);
  if (match) return { dir: match, note: null };
  if (found.length === 0) {
    if (existsSync(path.join(autoDir, ENTRYPOINT_NAME))) return { dir: autoDir, note: null };
    throw new UsageError('no memory folder (a folder with MEMORY.md) found here; name one: memlint show MEMDIR');
  }
  const nonAgent = found.filter((d) => !isAgentMemdir(d));
  // Claude Code's own location in the repository wins over other memory folders (examples, docs).
  const conventional = discovered.find((d) => d.repoRoot && d.dir === path.join(d.repoRoot, '.claude', 'memory'))?.dir;
  const pick = found.length === 1 ? found[0]! : nonAgent.length === 1 ? nonAgent[0]! : (conventional ?? null);
  if (!pick) throw new UsageError(`several memory folders here (${found.map((d) => path.relative(cwd, d) || '.').join(', ')}); name one: memlint show MEMDIR`);
  return {
    dir: pick,
    note: `note: Claude Code started here loads ${resolved}, not ${pick} ("memlint where" explains, "memlint link" changes it)`,
  };
}

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

export function formatBudget(dir: string, loaded: LoadedIndex, ranking: RecallRanking): string {
  const m = loaded.measure;
  const out: string[] = [];
  out.push(`${path.join(dir, ENTRYPOINT_NAME)}`);
  out.push(`  ${budgetBar(m.lines, MAX_INDEX_LINES, 'lines')}`);
  out.push(`  ${budgetBar(m.units, MAX_INDEX_UNITS, 'units')}`);
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
  return out.join('\n') + '\n';
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { budget: { type: 'boolean' } }, 'show');
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('show takes one MEMDIR (see "memlint show --help")');
  const cwd = process.cwd();
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
    if (!isDir && path.basename(dir) === ENTRYPOINT_NAME) dir = path.dirname(dir);
    else if (!isDir) throw new UsageError(`not a folder: ${positionals[0]} (give the memory folder, the one holding MEMORY.md)`);
  } else {
    ({ dir, note } = await chooseMemdir(cwd));
  }
  const indexFile = path.join(dir, ENTRYPOINT_NAME);
  let raw: string;
  try {
    raw = readFileSync(indexFile, 'utf8');
  } catch {
    throw new UsageError(`no MEMORY.md in ${dir}`);
  }
  const loaded = loadIndex(raw, { strip: !isAgentMemdir(dir) });
  if (note) process.stderr.write(`${note}\n`);
  if (values.budget) {
    process.stdout.write(formatBudget(dir, loaded, rankForRecall(scanMemdir(dir))));
    return 0;
  }
  if (raw.trim() === '') {
    process.stderr.write(`note: ${indexFile} is empty: nothing is loaded\n`);
    return 0;
  }
  process.stdout.write(loaded.content + (process.stdout.isTTY ? '\n' : ''));
  return 0;
}
