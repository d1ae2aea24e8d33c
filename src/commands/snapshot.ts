// memlint snapshot AGENT: publish an agent's memory as a snapshot teammates' Claude Code offers to
// take: .claude/agent-memory/<agent>/ copied to .claude/agent-memory-snapshots/<agent>/ with
// snapshot.json {"updatedAt"}. Claude Code compares updatedAt with its local sync marker.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { checkInsideRepo, removeInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { repoRoot } from '../git/index.js';
import { isWithin } from '../fs/paths.js';

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

export const SNAPSHOT_JSON = 'snapshot.json';
/** Local state that never belongs in a snapshot. */
const LOCAL_ONLY = new Set([SNAPSHOT_JSON, '.snapshot-synced.json', '.consolidate-lock']);

/** Claude Code's folder name for an agent type: ':' (plugin namespaces) becomes '-'. */
export function agentDirName(agent: string): string {
  const name = agent.replace(/:/g, '-');
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name) || name.startsWith('.')) {
    throw new UsageError(`not an agent name: ${JSON.stringify(agent)}`);
  }
  return name;
}

export function snapshotJson(updatedAt: string): string {
  return `${JSON.stringify({ updatedAt }, null, 2)}\n`;
}

export interface SnapshotChange {
  action: 'add' | 'update' | 'remove' | 'skip';
  name: string;
  reason?: string;
}

/** What the snapshot needs: compares top-level files of source and snapshot. */
export function planSnapshot(src: string, dst: string, root: string): { changes: SnapshotChange[]; copies: Map<string, Buffer> } {
  const changes: SnapshotChange[] = [];
  const copies = new Map<string, Buffer>();
  const realRoot = realpathSync(root);
  for (const name of readdirSync(src).sort()) {
    if (LOCAL_ONLY.has(name)) continue;
    const abs = path.join(src, name);
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) {
      let target = '';
      try {
        target = realpathSync(abs);
      } catch {
        target = '';
      }
      const out = target === '' || !isWithin(target, realRoot);
      changes.push({ action: 'skip', name, reason: out ? 'a symlink out of the repository: not followed' : 'a symlink: not copied (Claude Code skips them too)' });
      continue;
    }
    if (st.isDirectory()) {
      changes.push({ action: 'skip', name: `${name}/`, reason: 'a folder: Claude Code takes only top-level files from a snapshot' });
      continue;
    }
    if (!st.isFile() || name.startsWith('.')) continue;
    const data = readFileSync(abs);
    const target = path.join(dst, name);
    let current: Buffer | null = null;
    let targetLink = false;
    try {
      const tst = lstatSync(target);
      targetLink = tst.isSymbolicLink();
      if (tst.isFile()) current = readFileSync(target);
    } catch {
      current = null;
    }
    if (targetLink) {
      changes.push({ action: 'skip', name, reason: `${target} is a symlink; memlint does not write or read through it` });
      continue;
    }
    if (current !== null && current.equals(data)) continue;
    copies.set(name, data);
    changes.push({ action: current === null ? 'add' : 'update', name });
  }
  if (existsSync(dst)) {
    for (const name of readdirSync(dst).sort()) {
      if (name === SNAPSHOT_JSON || name.startsWith('.')) continue;
      const abs = path.join(dst, name);
      const st = lstatSync(abs);
      if (!st.isFile()) continue; // a symlink there is left alone, never removed nor followed
      let inSource = false;
      try {
        inSource = lstatSync(path.join(src, name)).isFile();
      } catch {
        inSource = false;
      }
      if (!inSource) changes.push({ action: 'remove', name });
    }
  }
  return { changes, copies };
}

function validUpdatedAt(file: string): boolean {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { updatedAt?: unknown };
    return typeof data.updatedAt === 'string' && data.updatedAt.length > 0 && !Number.isNaN(Date.parse(data.updatedAt));
  } catch {
    return false;
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { 'dry-run': { type: 'boolean' } }, 'snapshot');
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('snapshot takes one AGENT name (see "memlint snapshot --help")');
  const dirName = agentDirName(positionals[0]!);
  const cwd = process.cwd();
  const root = repoRoot(cwd) ?? cwd;
  const src = path.join(root, '.claude', 'agent-memory', dirName);
  const dst = path.join(root, '.claude', 'agent-memory-snapshots', dirName);
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

  const { changes, copies } = planSnapshot(src, dst, root);
  const stampFile = path.join(dst, SNAPSHOT_JSON);
  const needsStamp = changes.some((c) => c.action !== 'skip') || !validUpdatedAt(stampFile);
  const dry = !!values['dry-run'];
  const show = (p: string) => path.relative(cwd, p) || p;
  const lines: string[] = [];
  for (const c of changes) {
    const target = show(path.join(dst, c.name));
    if (c.action === 'skip') lines.push(`  skipped ${show(path.join(src, c.name))}${c.name.endsWith('/') ? '/' : ''}: ${c.reason}`);
    else lines.push(`  ${dry ? `would ${c.action}` : c.action === 'add' ? 'added  ' : c.action === 'update' ? 'updated' : 'removed'} ${target}`);
  }
  if (!needsStamp) {
    lines.push(`snapshot ${show(dst)} is up to date (updatedAt kept)`);
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  }
  const updatedAt = new Date().toISOString();
  if (!dry) {
    for (const [name, data] of copies) writeInsideRepo(root, path.join(dst, name), data, { mkdir: true });
    for (const c of changes) if (c.action === 'remove') removeInsideRepo(root, path.join(dst, c.name));
    // Written last: teammates are offered the snapshot only once it is complete.
    writeInsideRepo(root, stampFile, snapshotJson(updatedAt), { mkdir: true });
  }
  lines.push(`${dry ? 'would stamp' : 'stamped'} ${show(stampFile)} updatedAt ${updatedAt}; commit ${show(dst)} to offer it to teammates`);
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
