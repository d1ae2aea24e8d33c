import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin, realOrNearestReal, realOrResolved } from '../../src/fs/paths.js';
import { tempDir } from '../helpers/repo.js';

describe('isWithin', () => {
  it('is true for the folder itself and what lies below it, false for siblings and parents', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b/c.md', '/a/b')).toBe(true);
    expect(isWithin('/a/bc', '/a/b')).toBe(false);
    expect(isWithin('/a', '/a/b')).toBe(false);
    expect(isWithin('/x/y', '/a/b')).toBe(false);
  });

  it('takes a folder named like ..notes inside the parent for inside', () => {
    expect(isWithin('/a/b/..notes/x.md', '/a/b')).toBe(true);
  });
});

describe('realOrResolved', () => {
  it('resolves a symlink to where it points, and makes a missing path absolute', () => {
    const dir = realpathSync(tempDir('memlint-paths-'));
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(realOrResolved(join(dir, 'link'))).toBe(join(dir, 'real'));
    expect(realOrResolved(join(dir, 'missing', 'x'))).toBe(join(dir, 'missing', 'x'));
  });
});

describe('realOrNearestReal', () => {
  it('resolves the nearest existing folder of a missing path and keeps the rest as written', () => {
    const dir = realpathSync(tempDir('memlint-paths-'));
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(realOrNearestReal(join(dir, 'link'))).toBe(join(dir, 'real'));
    expect(realOrNearestReal(join(dir, 'link', 'missing', 'x.md'))).toBe(join(dir, 'real', 'missing', 'x.md'));
    expect(realOrResolved(join(dir, 'link', 'missing', 'x.md'))).toBe(join(dir, 'link', 'missing', 'x.md'));
  });
});
