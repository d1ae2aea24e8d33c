// An agent's memory published as a snapshot teammates' Claude Code offers to take:
// .claude/agent-memory/<agent>/ copied to .claude/agent-memory-snapshots/<agent>/ with
// snapshot.json {"updatedAt"}. Claude Code compares updatedAt with its local sync marker and takes
// only the top-level files of a snapshot. `memlint snapshot` prints what these decide and do.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { removeInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { isWithin } from '../fs/paths.js';

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

/** The agent's memory and its snapshot folder, in the repository `root`, for a folder name from agentDirName. */
export function snapshotFolders(root: string, dirName: string): { src: string; dst: string } {
  return { src: path.join(root, '.claude', 'agent-memory', dirName), dst: path.join(root, '.claude', 'agent-memory-snapshots', dirName) };
}

export interface SnapshotPlan {
  changes: SnapshotChange[];
  copies: Map<string, Buffer>;
  /** snapshot.json gets a new updatedAt: a file changes, or the stamp there is missing or unusable. */
  stamp: boolean;
}

/** What the snapshot needs: compares top-level files of source and snapshot. */
export function planSnapshot(src: string, dst: string, root: string): SnapshotPlan {
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
  return { changes, copies, stamp: changes.some((c) => c.action !== 'skip') || !validUpdatedAt(path.join(dst, SNAPSHOT_JSON)) };
}

/** Whether snapshot.json holds a usable updatedAt (a stamp to keep when nothing changed). */
function validUpdatedAt(file: string): boolean {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { updatedAt?: unknown };
    return typeof data.updatedAt === 'string' && data.updatedAt.length > 0 && !Number.isNaN(Date.parse(data.updatedAt));
  } catch {
    return false;
  }
}

/**
 * Write the planned snapshot inside the repository `root`: the copies, the removals, and
 * snapshot.json last, so teammates are offered the snapshot only once it is complete.
 */
export function applySnapshot(root: string, dst: string, plan: SnapshotPlan, updatedAt: string): void {
  for (const [name, data] of plan.copies) writeInsideRepo(root, path.join(dst, name), data, { mkdir: true });
  for (const c of plan.changes) if (c.action === 'remove') removeInsideRepo(root, path.join(dst, c.name));
  writeInsideRepo(root, path.join(dst, SNAPSHOT_JSON), snapshotJson(updatedAt), { mkdir: true });
}
