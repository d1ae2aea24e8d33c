// A reader that stops early (`memlint ... | head`) ends memlint quietly, not with an EPIPE stack trace.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir, writeFiles } from '../helpers/repo.js';

describe('output to a closed pipe', () => {
  it('stops quietly when the reader goes away', () => {
    const dir = tempDir('memlint-epipe-');
    const files: Record<string, string> = { 'mem/MEMORY.md': '# Memory\n' };
    for (let i = 0; i < 600; i++) files[`mem/topic_${i}.md`] = `# Topic ${i} without frontmatter\n`;
    writeFiles(dir, files);
    const r = spawnSync('sh', ['-c', `node ${JSON.stringify(CLI)} ${JSON.stringify(join(dir, 'mem'))} --format json | head -c 100 >/dev/null`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
  });
});
