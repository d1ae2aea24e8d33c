import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { guardPath, HOLDER_STALE_MS, liveHolder, readLastConsolidatedAt, rollbackLock, tryAcquireLock } from '../../src/consolidate/lock.js';
import { checkGates } from '../../src/consolidate/gates.js';
import { tempDir } from '../helpers/repo.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A live process standing in for Claude Code holding the lock. */
function liveProcess(): number {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(c);
  return c.pid!;
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function writeLock(dir: string, body: string, mtimeMs: number): void {
  const p = join(dir, '.consolidate-lock');
  writeFileSync(p, body);
  utimesSync(p, mtimeMs / 1000, mtimeMs / 1000);
}

describe('.consolidate-lock, as Claude Code uses it', () => {
  it('acquires a missing lock: prior 0, body our PID, mtime now', () => {
    const dir = tempDir();
    expect(readLastConsolidatedAt(dir)).toBe(0);
    expect(tryAcquireLock(dir)).toBe(0);
    expect(readFileSync(join(dir, '.consolidate-lock'), 'utf8')).toBe(String(process.pid));
    expect(readLastConsolidatedAt(dir)).toBeGreaterThan(0);
  });

  it('is held while the mtime is under an hour old and the PID alive', () => {
    const dir = tempDir();
    const pid = liveProcess();
    writeLock(dir, String(pid), Date.now() - 10 * 60 * 1000);
    expect(liveHolder(dir)).toBe(pid);
    expect(tryAcquireLock(dir)).toBeNull();
    expect(readFileSync(join(dir, '.consolidate-lock'), 'utf8')).toBe(String(pid));
  });

  it('is reclaimed from a dead PID, returning the prior mtime', () => {
    const dir = tempDir();
    const prior = Math.floor(Date.now() / 1000 - 600) * 1000;
    writeLock(dir, String(deadPid()), prior);
    expect(tryAcquireLock(dir)).toBe(prior);
    expect(readFileSync(join(dir, '.consolidate-lock'), 'utf8')).toBe(String(process.pid));
  });

  it.runIf(existsSync('/proc/self/stat'))('is reclaimed from a killed process its parent has not reaped yet (a zombie holds nothing)', async () => {
    // `sleep 30` takes the shell's place and never waits for the shell's child, which ends after
    // that (a child that ended first could be reaped by the shell) and stays a zombie.
    const parent = spawn('sh', ['-c', 'sh -c "sleep 0.3" & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
    const state = () => (existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] : 'gone');
    for (let i = 0; i < 100 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(state()).toBe('Z');
    const dir = tempDir();
    writeLock(dir, String(pid), Date.now() - 10 * 60 * 1000);
    expect(liveHolder(dir)).toBeNull();
    expect(tryAcquireLock(dir)).not.toBeNull();
  });

  it('is reclaimed after an hour even from a live PID', () => {
    const dir = tempDir();
    const prior = Math.floor((Date.now() - HOLDER_STALE_MS - 60_000) / 1000) * 1000;
    writeLock(dir, String(liveProcess()), prior);
    expect(tryAcquireLock(dir)).toBe(prior);
  });

  it('is reclaimed when the body is empty (a rolled-back lock)', () => {
    const dir = tempDir();
    writeLock(dir, '', Date.now());
    expect(tryAcquireLock(dir)).not.toBeNull();
  });

  it("backs off while another memlint is between its check and its write, and reclaims that guard when it was killed there", () => {
    const dir = tempDir();
    const guard = guardPath(dir);
    writeFileSync(guard, String(liveProcess()));
    expect(tryAcquireLock(dir)).toBeNull();
    expect(existsSync(join(dir, '.consolidate-lock'))).toBe(false);
    // Left by a process killed mid-acquire: a dead PID...
    writeFileSync(guard, String(deadPid()));
    expect(tryAcquireLock(dir)).toBe(0);
    expect(existsSync(guard)).toBe(false);
    // ...or a live PID (reused) on a guard older than any acquire takes.
    rollbackLock(dir, 0);
    writeFileSync(guard, String(liveProcess()));
    utimesSync(guard, Date.now() / 1000 - 60, Date.now() / 1000 - 60);
    expect(tryAcquireLock(dir)).toBe(0);
  });

  it("is not held against the process it names: a finished run of this process leaves its PID, and this process may consolidate again", () => {
    const dir = tempDir();
    writeLock(dir, String(process.pid), Date.now() - 60_000);
    expect(liveHolder(dir)).toBeNull();
    expect(tryAcquireLock(dir)).not.toBeNull();
    // Another live process naming itself still holds it.
    const other = liveProcess();
    writeLock(dir, String(other), Date.now() - 60_000);
    expect(liveHolder(dir)).toBe(other);
    expect(tryAcquireLock(dir)).toBeNull();
  });

  it('rolls back: prior 0 removes the file; else the body is emptied and the mtime set back', () => {
    const dir = tempDir();
    expect(tryAcquireLock(dir)).toBe(0);
    rollbackLock(dir, 0);
    expect(existsSync(join(dir, '.consolidate-lock'))).toBe(false);
    const prior = Math.floor(Date.now() / 1000 - 3 * 86400) * 1000;
    writeLock(dir, String(deadPid()), prior);
    expect(tryAcquireLock(dir)).toBe(prior);
    rollbackLock(dir, prior);
    expect(readFileSync(join(dir, '.consolidate-lock'), 'utf8')).toBe('');
    expect(statSync(join(dir, '.consolidate-lock')).mtimeMs).toBe(prior);
  });
});

describe('gates', () => {
  const settings = { minHours: 24, minCommits: 5 };
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('are open with no previous consolidation and enough commits', () => {
    expect(checkGates(0, now, settings, () => 5)).toMatchObject({ open: true, commitsSince: 5 });
  });
  it('are closed under 24 h without asking git', () => {
    const r = checkGates(now - 3 * 3.6e6, now, settings, () => {
      throw new Error('git must not be asked');
    });
    expect(r).toMatchObject({ open: false, reason: 'last consolidated 3 h ago (gate: 24 h)' });
  });
  it('are closed with fewer than 5 memory-changing commits since', () => {
    expect(checkGates(now - 48 * 3.6e6, now, settings, (since) => (since === now - 48 * 3.6e6 ? 4 : -1))).toMatchObject({ open: false, commitsSince: 4 });
  });
});
