// The lock functions themselves never go through a symlinked .consolidate-lock, even when no
// caller checked the path first: no write, no truncation, no mtime read or set, no removal.
import { lstatSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveHolder, lockIsUnsafe, readLastConsolidatedAt, recordConsolidation, rollbackLock, tryAcquireLock } from '../../src/consolidate/lock.js';
import { tempDir } from '../helpers/repo.js';
import { sentinel } from './helpers.js';

describe('a symlinked .consolidate-lock', () => {
  it('is never written, re-timed, removed or read through', () => {
    const outside = sentinel({ target: String(process.pid) });
    const memdir = tempDir('memlint-memdir-');
    symlinkSync(join(outside.dir, 'target'), join(memdir, '.consolidate-lock'));
    const before = outside.state();
    expect(lockIsUnsafe(memdir)).toBe(true);
    // The target's mtime and the PID in it are not the lock's.
    expect(readLastConsolidatedAt(memdir)).toBe(0);
    expect(liveHolder(memdir)).toBeNull();
    expect(tryAcquireLock(memdir)).toBeNull();
    recordConsolidation(memdir);
    rollbackLock(memdir, 0);
    rollbackLock(memdir, Date.now() - 3_600_000);
    expect(outside.state()).toEqual(before);
    expect(lstatSync(join(memdir, '.consolidate-lock')).isSymbolicLink()).toBe(true);
  });
});
