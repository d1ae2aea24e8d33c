// --fix keeps `[[name]]` links intact (issue 25): every fixable finding set on a line that holds
// links (in topic bodies and inside index entries' hooks), and after --fix every link is still
// there, byte for byte. A property over generated memdirs, and a table in a real repository for the
// fixes that need git (a renamed path) or a date.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

const FIXABLE = allRules.filter((r) => r.fixable).map((r) => r.id);
const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, FIXABLE.includes(r.id) ? 'error' : 'off'])));

const LINK_RE = /\[\[[^\[\]\n]*\]\]/g;
/** Every link of each Markdown file of the memdir, as written, with how often it occurs there. */
function linksByFile(dir: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const f of readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.md'))) {
    const counts = new Map<string, number>();
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(LINK_RE)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    out.set(f, counts);
  }
  return out;
}
const linksOf = (dir: string) => [...new Set([...linksByFile(dir).values()].flatMap((c) => [...c.keys()]))].sort();

/**
 * No fix changes or drops a link: every link of a file is still there as often (a fix only adds to
 * a topic file; it may copy a hook, links and all, into one), and no link is written anew. Only a
 * duplicate index entry merged into the first may take its copy of a link with it.
 */
function expectLinksKept(before: Map<string, Map<string, number>>, after: Map<string, Map<string, number>>, duplicate: boolean): void {
  const all = (m: Map<string, Map<string, number>>) => [...new Set([...m.values()].flatMap((c) => [...c.keys()]))].sort();
  expect(all(after)).toEqual(all(before));
  for (const [file, counts] of before) {
    if (file === 'MEMORY.md' && duplicate) continue;
    for (const [l, n] of counts) expect(after.get(file)?.get(l) ?? 0, `${file} ${l}`).toBeGreaterThanOrEqual(n);
  }
}

const link = fc.constantFrom('[[db-tests]]', '[[release-process|the release]]', '[[ future-idea ]]', '[[迁移-规则]]', '[[ops#paging]]', '[[t2]]');
const word = fc.constantFrom('deploys', 'Tuesday', 'database', '迁移', '🚀', 'tests,', 'a', 'the', 'x:y', '—', 'rotation', 'schema');
const piece = fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: link });
const hookArb = fc.array(piece, { minLength: 1, maxLength: 40, size: 'max' }).map((ws) => ws.join(' '));
// Body lines: a relative date told as an event (absolute-dates writes no other), a zero-width space (no-hidden-unicode), links.
const bodyLine = fc.tuple(fc.constantFrom('', 'Yesterday we shipped ', 'Last week it broke: ', 'Tomorrow we deploy '), fc.array(piece, { minLength: 1, maxLength: 8 }), fc.constantFrom('', '\u200B', ' \u2060x')).map(([date, ws, hidden]) => `${date}${ws.join(' ')}${hidden}`);
const memdirArb = fc.record({
  hooks: fc.array(hookArb, { minLength: 1, maxLength: 4 }),
  duplicate: fc.boolean(),
  orphan: fc.boolean(),
  bodies: fc.array(fc.array(bodyLine, { minLength: 1, maxLength: 4 }), { minLength: 4, maxLength: 4 }),
});

// `modified` dates the text, so a relative date in it is certain and --fix writes it.
const topic = (name: string, body: string[]) => `---\nname: ${name}\ndescription: About ${name}\nmetadata:\n  type: reference\n  modified: 2026-11-20T10:00:00Z\n---\n${body.join('\n')}\n`;

describe('--fix keeps [[links]] intact', () => {
  it('over generated memdirs: fixable findings on lines with links, every link kept byte for byte', async () => {
    const fixedBy = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(memdirArb, async (m) => {
        const dir = join(tempDir('memlint-fixlinks-'), 'mem');
        mkdirSync(dir, { recursive: true });
        const entries = m.hooks.map((h, i) => `- [T${i}](t${i}.md) — ${h}`);
        // An exact copy, its target spelled another way: the duplicate --fix drops.
        if (m.duplicate) entries.push(`- [T0](./t0.md) — ${m.hooks[0]}`);
        writeFileSync(join(dir, 'MEMORY.md'), `${entries.join('\n')}\n`);
        for (let i = 0; i < m.hooks.length; i++) writeFileSync(join(dir, `t${i}.md`), topic(`t${i}`, m.bodies[i]!));
        if (m.orphan) writeFileSync(join(dir, 'orphan.md'), topic('orphan', m.bodies[3]!));
        const before = linksByFile(dir);
        const today = new Date('2026-11-30T12:00:00');
        const first = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, today });
        for (const r of first.results) for (const msg of r.messages) if (msg.fix) fixedBy.set(msg.ruleId!, (fixedBy.get(msg.ruleId!) ?? 0) + 1);
        await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, today, fix: true });
        expectLinksKept(before, linksByFile(dir), m.duplicate);
      }),
      { numRuns: 80 },
    );
    // The property saw each fix it is about, not only memdirs where nothing was fixed.
    for (const id of ['absolute-dates', 'no-hidden-unicode', 'index-line-length', 'index-duplicate', 'index-orphan']) expect(fixedBy.get(id) ?? 0, id).toBeGreaterThan(0);
  });

  it('in a real repository: a renamed path, a relative date and a hidden character on link lines; links byte for byte', async () => {
    const repo = initRepo();
    commitFiles(repo, { 'src/ledger/round.ts': 'export const x = 1;\n', '.memlintrc.json': JSON.stringify({ rules: Object.fromEntries(allRules.map((r) => [r.id, FIXABLE.includes(r.id) ? 'error' : 'off'])) }) });
    git(repo, 'mv', 'src/ledger', 'src/money');
    git(repo, 'commit', '-qm', 'move the ledger');
    const body = [
      'Rounding lives in src/ledger/round.ts, see [[ledger-rounding|the rule]] and [[ops#paging]].',
      'Yesterday [[release-process]] broke on [[db-tests]].',
      '[[ future-idea ]] needs\u200B a design, like [[迁移-规则]].',
      '| table | [[in-a-table]] |',
    ];
    const hook = `rounding rules of [[ledger-rounding]] ${'and more detail '.repeat(8)}then the tail of it all`;
    writeFiles(repo, {
      '.claude/memory/MEMORY.md': `- [Notes](notes.md) — ${hook}\n- [Notes](./notes.md) — rounding rules of [[ledger-rounding]]\n`,
      '.claude/memory/notes.md': topic('notes', body),
      '.claude/memory/orphan.md': topic('orphan', ['Links to [[notes]].']),
    });
    const dir = join(repo, '.claude/memory');
    const before = linksByFile(dir);
    const found = await lintMemdirs({ memdirs: [{ dir, repoRoot: repo, reason: 'path' }], env: process.env, rules, today: new Date('2026-11-30T12:00:00') });
    const fixable = found.results.flatMap((f) => f.messages.filter((x) => x.fix).map((x) => x.ruleId));
    expect(new Set(fixable)).toEqual(new Set(['no-stale-reference', 'absolute-dates', 'no-hidden-unicode', 'index-line-length', 'index-duplicate', 'index-orphan']));
    const r = await memlintInProcess(repo, ['--fix', '.claude/memory'], { env: { MEMLINT_TODAY: '2026-11-30' } });
    expect(r.stderr).toBe('');
    const notes = readFileSync(join(dir, 'notes.md'), 'utf8');
    expect(notes).toContain('src/money/round.ts');
    expect(notes).not.toContain('\u200B');
    expectLinksKept(before, linksByFile(dir), true);
    expect(linksOf(dir)).toContain('[[ future-idea ]]');
  });
});
