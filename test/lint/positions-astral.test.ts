// Positions in one unit everywhere (issue 29): columns and fix offsets are UTF-16 code units, as
// the language server counts them, so an emoji (two units) before a fixable finding on its line
// moves neither the column nor the edit off the text it means.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir } from '../helpers/repo.js';

const FIXABLE = allRules.filter((r) => r.fixable).map((r) => r.id);
const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.fixable ? 'error' : 'off'])));

const LONG = 'the hook goes on about deploys and freezes and approvals and rollbacks and staging and on-call and the rest of it, well past the limit';

function memdir(files: Record<string, string>): string {
  const dir = join(tempDir('memlint-astral-'), 'mem');
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  return dir;
}

describe('astral characters before every fixable finding', () => {
  it('columns are UTF-16 units and each fix edits the text it names', async () => {
    const front = (name: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\nmodified: 2026-04-20\n---\n`;
    const dir = memdir({
      'MEMORY.md': [
        `- [🚀 Plan](plan.md) — \`🎉🎉\` 🐛 ${LONG}`,
        `- [🚀 Plan](./plan.md) — \`🎉🎉\` 🐛 ${LONG}`,
        '- [Hidden](hidden.md) — 🎉 see\u200bhere',
        '',
      ].join('\n'),
      'plan.md': `${front('Plan')}\`🚀🚀🚀\` 🎉 the review moved to tomorrow.\n`,
      'hidden.md': `${front('Hidden')}🔍🔍 look\u200b here.\n`,
      'orphan.md': `${front('Orphan 🚀')}Nobody links here.\n`,
    });
    const { results } = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, today: new Date('2026-04-24T12:00:00') });
    const seen = new Set<string>();
    for (const r of results) {
      const text = readFileSync(r.filePath, 'utf8');
      const lines = text.split('\n');
      for (const m of r.messages) {
        if (!m.fix) continue;
        seen.add(m.ruleId!);
        const line = lines[m.line - 1]!;
        const lineStart = lines.slice(0, m.line - 1).reduce((n, l) => n + l.length + 1, 0);
        const own = m.fix.edits.filter((e) => e.path === undefined || e.path === r.filePath);
        if (m.ruleId === 'absolute-dates' || m.ruleId === 'no-hidden-unicode') {
          // The column is where the edit starts, counted in UTF-16 units.
          expect(lineStart + m.column - 1, m.message).toBe(own[0]!.start);
          const fixed = applyEdits(text, own);
          if (m.ruleId === 'absolute-dates') expect(fixed).toContain('moved to tomorrow (2026-04-21).');
          else expect(fixed).not.toContain('\u200b');
        } else if (m.ruleId === 'index-line-length') {
          // The column is just past the 150th code point, in UTF-16 units.
          expect(Array.from(line.slice(0, m.column - 1)).length).toBe(150);
          const fixed = applyEdits(text, own);
          expect(fixed.split('\n')[m.line - 1]!).toMatch(/^- \[🚀 Plan\]\((?:\.\/)?plan\.md\) — `🎉🎉` 🐛 the hook/);
        } else {
          expect(m.column).toBe(1);
        }
      }
    }
    for (const id of ['absolute-dates', 'no-hidden-unicode', 'index-line-length', 'index-duplicate', 'index-orphan']) {
      expect(FIXABLE).toContain(id);
      expect(seen, id).toContain(id);
    }
  });
});
