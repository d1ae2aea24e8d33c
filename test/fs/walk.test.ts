// The one folder walker (src/fs/walk.ts), on real folders: depth first, symlinks listed and never
// followed, skipped entries not entered, an unreadable folder reported or passed over.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { walkEntries, walkFiles } from '../../src/fs/walk.js';
import { tempDir } from '../helpers/repo.js';

function tree(): string {
  const dir = tempDir('memlint-walk-');
  const outside = tempDir('memlint-walk-out-');
  writeFileSync(join(outside, 'o.md'), 'o\n');
  for (const d of ['a/b', 'node_modules/x', 'z']) mkdirSync(join(dir, d), { recursive: true });
  for (const f of ['top.md', 'a/one.md', 'a/b/two.md', 'node_modules/x/n.md', 'z/last.md']) writeFileSync(join(dir, f), `${f}\n`);
  symlinkSync(outside, join(dir, 'a/linked-folder'));
  symlinkSync(join(outside, 'o.md'), join(dir, 'a/linked.md'));
  return dir;
}

it('lists files depth first, symlinks as entries never followed, skipped folders not entered', () => {
  const dir = tree();
  const skip = (_rel: string, e: { name: string }) => e.name === 'node_modules';
  expect(walkFiles(dir, { skip }).sort()).toEqual(['a/b/two.md', 'a/one.md', 'top.md', 'z/last.md']);
  expect(walkFiles(dir, { skip, withSymlinks: true }).sort()).toEqual(['a/b/two.md', 'a/linked-folder', 'a/linked.md', 'a/one.md', 'top.md', 'z/last.md']);
  const order = [...walkEntries(dir, { skip })].map((e) => e.rel);
  // Each folder's entries come before the next entry of its parent.
  expect(order.indexOf('a/b/two.md')).toBeLessThan(order.indexOf('z/last.md'));
  expect(order.filter((r) => r.startsWith('a/')).length).toBe(4);
});

it('a folder that cannot be read is reported when asked, passed over otherwise', () => {
  const dir = tree();
  const seen: string[] = [];
  expect([...walkEntries(join(dir, 'missing'), { onUnreadable: (rel) => seen.push(`[${rel}]`) })]).toEqual([]);
  expect(seen).toEqual(['[]']);
  // A file where a folder is expected cannot be read as one either.
  expect([...walkEntries(join(dir, 'top.md'), { onUnreadable: (rel, err) => seen.push(`[${rel}] ${(err as NodeJS.ErrnoException).code}`) })]).toEqual([]);
  expect(seen).toEqual(['[]', '[] ENOTDIR']);
  expect(walkFiles(join(dir, 'missing'))).toEqual([]);
});
