// memlint snapshot AGENT: publish an agent's memory as a snapshot teammates' Claude Code offers to
// take (src/claude/snapshot.ts plans and writes it; this checks the arguments and prints).
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { checkInsideRepo } from '../fs/inside.js';
import { repository } from '../git/repo.js';
import { agentDirName, applySnapshot, planSnapshot, SNAPSHOT_JSON, snapshotFolders } from '../claude/snapshot.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint snapshot AGENT [--dry-run]

Copies the project-scope memory of an agent, .claude/agent-memory/AGENT/, into
.claude/agent-memory-snapshots/AGENT/ and stamps snapshot.json {"updatedAt": <ISO time>}, the
format Claude Code's agent-memory snapshots use: after a teammate pulls it, their Claude Code
initializes the agent's memory from it or offers the update (merge, keep or replace).
Claude Code takes only the top-level files of a snapshot, so only those are copied; files that
left the agent's memory leave the snapshot. Symlinks are never followed. When nothing changed,
nothing is written and updatedAt stays, so teammates are not asked again for nothing.
"AGENT" is the agent's name; ':' becomes '-' as in Claude Code's folder names.

Options:
  --dry-run   print what would change, change nothing
  -h, --help  show this help

Exit codes: 0 done, 2 usage error.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { 'dry-run': { type: 'boolean' } }, 'snapshot');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('snapshot takes one AGENT name (see "memlint snapshot --help")');
  const dirName = agentDirName(positionals[0]!);
  const cwd = io.cwd;
  const root = repository(io, cwd)?.root ?? cwd;
  const { src, dst } = snapshotFolders(root, dirName);
  let srcStat;
  try {
    srcStat = lstatSync(src);
  } catch {
    throw new UsageError(`no agent memory at ${path.relative(cwd, src) || src}`);
  }
  if (srcStat.isSymbolicLink()) throw new UsageError(`${src} is a symlink; memlint does not follow it`);
  if (!srcStat.isDirectory()) throw new UsageError(`${src} is not a folder`);
  // Every level of both paths (.claude, agent-memory-snapshots, the agent's folder): a symlink
  // anywhere is refused before anything is read, written or removed (src/fs/inside.ts).
  for (const p of [src, dst, path.join(dst, SNAPSHOT_JSON)]) {
    const c = checkInsideRepo(root, p);
    if (!c.ok) throw new UsageError(c.reason);
  }

  const plan = planSnapshot(src, dst, root);
  const stampFile = path.join(dst, SNAPSHOT_JSON);
  const dry = !!values['dry-run'];
  const show = (p: string) => path.relative(cwd, p) || p;
  const lines: string[] = [];
  for (const c of plan.changes) {
    const target = show(path.join(dst, c.name));
    if (c.action === 'skip') lines.push(`  skipped ${show(path.join(src, c.name))}${c.name.endsWith('/') ? '/' : ''}: ${c.reason}`);
    else lines.push(`  ${dry ? `would ${c.action}` : c.action === 'add' ? 'added  ' : c.action === 'update' ? 'updated' : 'removed'} ${target}`);
  }
  if (!plan.stamp) {
    lines.push(`snapshot ${show(dst)} is up to date (updatedAt kept)`);
    io.stdout.write(lines.join('\n') + '\n');
    return 0;
  }
  const updatedAt = new Date().toISOString();
  if (!dry) applySnapshot(root, dst, plan, updatedAt);
  lines.push(`${dry ? 'would stamp' : 'stamped'} ${show(stampFile)} updatedAt ${updatedAt}; commit ${show(dst)} to offer it to teammates`);
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}
