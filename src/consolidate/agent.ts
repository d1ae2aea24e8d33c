// Step 7 (optional): the agent step. The user's git config `memlint.consolidateCommand` (a
// `claude -p …` invocation, say; never a file of the repository) runs under the lock after the
// deterministic steps. Its result must pass lint; otherwise every file
// it touched is put back as it was (files it created move to the archive's rejected/ folder, since
// memlint deletes nothing).
import { spawn } from 'node:child_process';
import { readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { checkInsideRepo, moveInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { walkFiles } from '../fs/walk.js';
import { LOCK_FILE } from './lock.js';
import type { Output } from '../io.js';

export type Snapshot = Map<string, Buffer>;

/** Every file under the memdir (the lock and memlint's own temporary files excepted), by relative path. */
export function snapshotDir(dir: string): Snapshot {
  const out: Snapshot = new Map();
  for (const p of walkFiles(dir, { skip: (rel, e) => rel === LOCK_FILE || /\.memlint-\d+-.*\.tmp$/.test(e.name) })) out.set(p, readFileSync(join(dir, p)));
  return out;
}

export interface Touched {
  changed: string[];
  created: string[];
  removed: string[];
}

export function compareSnapshots(before: Snapshot, after: Snapshot): Touched {
  const t: Touched = { changed: [], created: [], removed: [] };
  for (const [p, buf] of after) {
    const old = before.get(p);
    if (!old) t.created.push(p);
    else if (!old.equals(buf)) t.changed.push(p);
  }
  for (const p of before.keys()) if (!after.has(p)) t.removed.push(p);
  return t;
}

/**
 * Put the memdir back as `before` had it, every path inside `bound` (src/fs/inside.ts): where the
 * agent left a symlink on the way (a folder replaced by a link out of the repository), nothing is
 * written through it; those paths are returned, for the report.
 */
export function restoreSnapshot(dir: string, before: Snapshot, touched: Touched, rejectedDir: string, bound: string): string[] {
  const refused: string[] = [];
  const safe = (...paths: string[]) => {
    for (const p of paths) {
      const c = checkInsideRepo(bound, p);
      if (!c.ok) {
        refused.push(c.reason);
        return false;
      }
    }
    return true;
  };
  for (const p of [...touched.changed, ...touched.removed]) {
    if (safe(join(dir, p))) writeInsideRepo(bound, join(dir, p), before.get(p)!, { mkdir: true });
  }
  for (const p of touched.created) {
    const from = join(dir, p);
    const to = join(rejectedDir, p);
    if (!safe(from, to)) continue;
    let present = false;
    try {
      present = lstatSync(from).isFile();
    } catch {
      present = false;
    }
    if (present) moveInsideRepo(bound, from, to);
  }
  return refused;
}

export function dreamPrompt(memdir: string, untagged: Array<{ log: string; line: number; text: string }>): string {
  const lines = [
    '# Memory consolidation (agent step of memlint consolidate)',
    '',
    `Memory folder: ${memdir}`,
    'memlint has already done the mechanical part: tagged daily-log entries are in their topic files, the index is synced,',
    'duplicate topics are merged and relative dates are absolute. What is left needs judgement:',
    '1. Orient: read MEMORY.md and skim the topic files.',
    '2. Gather: read the untagged daily-log entries below; note facts that recent work contradicts.',
    '3. Consolidate: fold what is worth keeping into existing topic files (or a new one with name, description and type),',
    '   fix contradicted facts at their source, keep dates absolute.',
    '4. Prune and index: keep MEMORY.md an index of one-line entries (under 150 characters each), under 200 lines.',
    'Daily logs are append-only: do not edit them. Your result must pass `memlint`, or it is rolled back.',
  ];
  if (untagged.length > 0) {
    lines.push('', 'Untagged daily-log entries:');
    for (const u of untagged.slice(0, 200)) lines.push(`- ${u.log}:${u.line}: ${u.text}`);
  }
  return lines.join('\n') + '\n';
}

/** Run the command with `sh -c`; its output goes to our stderr so that --json stays clean. */
export function runCommand(command: string, opts: { cwd: string; env: NodeJS.ProcessEnv; input: string; stderr: Output }): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => opts.stderr.write(b));
    child.stderr.on('data', (b: Buffer) => opts.stderr.write(b));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input);
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
