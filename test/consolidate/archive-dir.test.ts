// consolidate.archiveDir must lie outside the memory folder (Claude Code's recall scans every .md
// inside it), whatever the folder is named: a folder called `..archive` is inside.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/consolidate/settings.js';
import { tempDir } from '../helpers/repo.js';

describe('consolidate.archiveDir', () => {
  const top = tempDir('memlint-archive-dir-');
  const memdir = join(top, 'mem');
  mkdirSync(memdir);

  it('is refused inside the memory folder, a folder named like ..archive included', () => {
    for (const archiveDir of ['.', 'archive', '..archive', 'sub/..old']) {
      expect(() => resolveSettings({ archiveDir }, memdir, undefined, top), archiveDir).toThrow(/must be outside the memory folder/);
    }
  });

  it('is taken beside the memory folder', () => {
    expect(resolveSettings({ archiveDir: '../mem-archive' }, memdir, undefined, top).archiveDir).toBe(join(top, 'mem-archive'));
    expect(resolveSettings({}, memdir, undefined, top).archiveDir).toBe(join(top, 'mem-archive'));
  });
});
