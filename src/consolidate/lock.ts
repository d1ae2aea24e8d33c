// `<memdir>/.consolidate-lock`, exactly as Claude Code's auto-dream uses it, so the two never
// consolidate the same memdir at once: the file's mtime IS the time of the last consolidation,
// its body the holder's PID. Held while the mtime is under an hour old and that PID is alive (and
// is another process: see heldAgainstUs).
// Acquire: write our PID, re-read (another PID: lost the race, back off); returns the prior mtime.
// Rollback after a failed run: prior 0 -> remove the file; else empty the body and set the mtime back.
//
// Claude Code's check-then-write leaves a window in which two processes can both see the lock free.
// Between memlint processes that window is closed by a short-lived exclusive file (O_EXCL) held only
// around the check and the write; it lives in the OS temp folder, never in the memdir.
//
// The lock is a file of the repository's working tree, so it may be a symlink a branch brought
// (docs/security.md): it is never written, truncated, re-timed, removed or read through one. Every
// access opens it with O_NOFOLLOW and looks at it with lstat; callers refuse a symlinked lock
// up front (src/fs/inside.ts), and these functions hold even when one is not asked first.
import { constants as fsConstants, lstatSync, lutimesSync, readFileSync, readSync, statSync, unlinkSync, openSync, closeSync, writeSync, realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessRunning } from '../fs/process.js';

export const LOCK_FILE = '.consolidate-lock';
export const HOLDER_STALE_MS = 60 * 60 * 1000;
const GUARD_STALE_MS = 10_000;

export function lockPath(memdir: string): string {
  return join(memdir, LOCK_FILE);
}

const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/** The lock as a regular file (lstat), or null when it is missing or anything else (a symlink). */
function lockStat(path: string): import('node:fs').Stats | null {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** Whether the lock path is something other than a regular file or nothing: a symlink, a folder. */
export function lockIsUnsafe(memdir: string): boolean {
  try {
    return !lstatSync(lockPath(memdir)).isFile();
  } catch {
    return false;
  }
}

function readLockBody(path: string): string {
  const fd = openSync(path, fsConstants.O_RDONLY | NOFOLLOW);
  try {
    const buf = Buffer.alloc(64);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Write the lock's body; O_NOFOLLOW: a symlink put there meanwhile fails the write (ELOOP) instead of being followed. */
function writeLockBody(path: string, body: string): void {
  const fd = openSync(path, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | NOFOLLOW, 0o644);
  try {
    if (body !== '') writeSync(fd, body);
  } finally {
    closeSync(fd);
  }
}

/** Time of the last consolidation (the lock's mtime in ms, by lstat), or 0 when there has been none. */
export function readLastConsolidatedAt(memdir: string): number {
  return lockStat(lockPath(memdir))?.mtimeMs ?? 0;
}

/**
 * Whether a lock naming `pid` (fresh) keeps this process out. Not when it names this very process:
 * that is a consolidation this process ran and finished (a finished run leaves its PID, as Claude
 * Code's does), since memlint consolidates a memdir from one run at a time. A long-lived process (the
 * language server, a test worker) would otherwise refuse its own second consolidation for an hour.
 */
function heldAgainstUs(pid: number | undefined): boolean {
  return pid !== undefined && pid !== process.pid && isProcessRunning(pid);
}

export interface LockState {
  mtimeMs: number | undefined;
  holderPid: number | undefined;
}

export function readLock(memdir: string): LockState {
  const path = lockPath(memdir);
  try {
    const s = lockStat(path);
    if (!s) return { mtimeMs: undefined, holderPid: undefined };
    const raw = readLockBody(path);
    const parsed = Number.parseInt(raw.trim(), 10);
    return { mtimeMs: s.mtimeMs, holderPid: Number.isFinite(parsed) ? parsed : undefined };
  } catch {
    return { mtimeMs: undefined, holderPid: undefined };
  }
}

/** The live holder of the lock, or null when it is free (no file, old mtime, or a dead PID). */
export function liveHolder(memdir: string, now = Date.now()): number | null {
  const { mtimeMs, holderPid } = readLock(memdir);
  if (mtimeMs !== undefined && now - mtimeMs < HOLDER_STALE_MS && heldAgainstUs(holderPid)) return holderPid!;
  return null;
}

/** The short-lived exclusive file that serialises memlint's check-and-write of one memdir's lock. */
export function guardPath(memdir: string): string {
  let real = memdir;
  try {
    real = realpathSync(memdir);
  } catch {
    // a memdir that does not exist yet: its path is its identity
  }
  return join(tmpdir(), `memlint-lock-${createHash('sha1').update(real).digest('hex').slice(0, 16)}`);
}

function acquireGuard(memdir: string): (() => void) | null {
  const guard = guardPath(memdir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(guard, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(guard);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return () => {};
      // Held by another memlint acquiring right now, unless that process is gone (killed mid-acquire).
      let pid = NaN;
      try {
        pid = Number.parseInt(readFileSync(guard, 'utf8'), 10);
      } catch {
        continue;
      }
      // The guard is held for microseconds: an old one is a leftover, whatever its PID says now.
      let age = 0;
      try {
        age = Date.now() - statSync(guard).mtimeMs;
      } catch {
        continue;
      }
      // No PID in it yet: its creator is between the exclusive open and the write, so it is held
      // (reading that as stale let two processes into the critical section at once).
      if ((Number.isNaN(pid) || isProcessRunning(pid)) && age < GUARD_STALE_MS) return null;
      try {
        unlinkSync(guard);
      } catch {
        // someone else reclaimed it
      }
    }
  }
  return null;
}

/** Try to take the lock. Returns the prior mtime (0 when there was no lock) or null when it is held. */
export function tryAcquireLock(memdir: string, now = Date.now()): number | null {
  const release = acquireGuard(memdir);
  if (!release) return null;
  try {
    const { mtimeMs, holderPid } = readLock(memdir);
    if (mtimeMs !== undefined && now - mtimeMs < HOLDER_STALE_MS && heldAgainstUs(holderPid)) return null;
    const path = lockPath(memdir);
    if (lockIsUnsafe(memdir)) return null;
    writeLockBody(path, String(process.pid));
    let verify: string;
    try {
      verify = readLockBody(path);
    } catch {
      return null;
    }
    if (Number.parseInt(verify.trim(), 10) !== process.pid) return null;
    return mtimeMs ?? 0;
  } finally {
    release();
  }
}

/** Undo a failed consolidation's stamp: the lock goes back to how it read before we took it. */
export function rollbackLock(memdir: string, priorMtime: number): void {
  const path = lockPath(memdir);
  if (!lockStat(path)) return; // missing, or not ours to touch (a symlink is left as it is)
  try {
    if (priorMtime === 0) {
      unlinkSync(path);
      return;
    }
    writeLockBody(path, '');
    const t = priorMtime / 1000;
    lutimesSync(path, t, t);
  } catch {
    // best effort, as Claude Code's own rollback
  }
}

/** Stamp a finished consolidation (as /dream's recordConsolidation): our PID, mtime now. */
export function recordConsolidation(memdir: string): void {
  try {
    if (!lockIsUnsafe(memdir)) writeLockBody(lockPath(memdir), String(process.pid));
  } catch {
    // best effort
  }
}
