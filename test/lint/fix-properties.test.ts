// Properties of --fix over generated memdirs: it settles in one run (a second run finds nothing to
// fix), it only ever adds to or shortens the index without losing a hook's text, and lines it does
// not mean to change stay byte for byte.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir } from '../helpers/repo.js';
import { expectFixHolds } from '../helpers/fix-checks.js';

const FIXABLE = ['index-line-length', 'index-duplicate', 'index-orphan'];
const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, FIXABLE.includes(r.id) ? 'error' : 'off'])));

const word = fc.constantFrom('deploys', 'Tuesday', 'database', '迁移', '回滚；', '🚀', 'tests,', 'a', 'the', '[WIP]', 'x:y', '—');
const hook = fc.array(word, { minLength: 0, maxLength: 45, size: 'max' }).map((ws) => ws.join(' '));
const name = fc.constantFrom('t1', 't2', 't3', 'sub/t4', 'gone');
const entry = fc.record({ bullet: fc.constantFrom('-', '*', '+'), target: name, dot: fc.boolean(), hook });
const line = fc.oneof(
  { weight: 4, arbitrary: entry.map((e) => `${e.bullet} [T](${e.dot ? './' : ''}${e.target}.md)${e.hook ? ` — ${e.hook}` : ''}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '# Memory', '## Project', '## Feedback', 'Prose line.', '- a content line') },
);
const topicType = fc.constantFrom('user', 'feedback', 'project', 'reference', 'nope');
const memdirArb = fc.record({
  lines: fc.array(line, { maxLength: 12, size: 'max' }),
  eol: fc.constantFrom('\n', '\r\n'),
  finalNewline: fc.boolean(),
  topics: fc.subarray(['t1', 't2', 't3', 'sub/t4', 't5', 'sub/t6']),
  types: fc.array(topicType, { minLength: 6, maxLength: 6 }),
  descriptions: fc.array(hook, { minLength: 6, maxLength: 6 }),
});

async function fixOnce(dir: string) {
  return lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, fix: true });
}

describe('--fix over generated memdirs', () => {
  it('settles in one run, keeps every hook’s text, and leaves other lines alone', async () => {
    const fixedBy = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(memdirArb, async (m) => {
        const dir = join(tempDir('memlint-fixprop-'), 'mem');
        mkdirSync(join(dir, 'sub'), { recursive: true });
        const index = m.lines.join(m.eol) + (m.finalNewline && m.lines.length ? m.eol : '');
        writeFileSync(join(dir, 'MEMORY.md'), index);
        m.topics.forEach((t, i) => {
          const description = m.descriptions[i] || 'Something worth remembering';
          writeFileSync(join(dir, `${t}.md`), `---\nname: ${t}\ndescription: "${description.replace(/"/g, '')}"\ntype: ${m.types[i]}\n---\nBody of ${t}.\n`);
        });
        const before = new Map(readdirSync(dir, { recursive: true }).map((f) => String(f)).filter((f) => f.endsWith('.md')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

        const first = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules });
        for (const r of first.results) for (const msg of r.messages) if (msg.fix) fixedBy.set(msg.ruleId!, (fixedBy.get(msg.ruleId!) ?? 0) + 1);
        await fixOnce(dir);
        const second = await fixOnce(dir);
        expect(second.fixesApplied).toBe(0);

        const after = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
        const everything = [...readdirSync(dir, { recursive: true })].map((f) => String(f)).filter((f) => f.endsWith('.md')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
        // No hook's text is lost: each original hook is still in the index or moved whole into a topic file.
        for (const l of m.lines) {
          const h = / — (.*)$/.exec(l)?.[1];
          if (h && !l.includes('gone.md')) expect(everything.includes(h.trim()), h).toBe(true);
        }
        // Lines that are not entries (headings, prose, content lines) are never touched.
        const keep = (t: string) => t.split(/\r\n|\n/).filter((x) => x !== '' && !/^[-*+] \[/.test(x));
        expect(keep(after)).toEqual(keep(before.get('MEMORY.md')!));
        // Line endings: only the index's own (dominant) ending is added.
        if (m.eol === '\r\n' && index.includes('\r\n')) expect(after.replace(/\r\n/g, '')).not.toMatch(/\n/);
        // Topic files only ever grow at their end, and what they receive sits under one
        // "## From the index" heading (never a bare paragraph under the section before it).
        for (const [f, text] of before) {
          if (f === 'MEMORY.md') continue;
          const grown = readFileSync(join(dir, f), 'utf8');
          expect(grown.startsWith(text)).toBe(true);
          if (grown !== text) expect(grown.slice(text.length).match(/^## From the index$/gm)).toHaveLength(1);
        }
      }),
      { numRuns: 150 },
    );
    // The generated cases do exercise every fixable rule (at least once: how often varies by seed).
    for (const id of FIXABLE) expect(fixedBy.get(id) ?? 0, id).toBeGreaterThan(0);
  });
});

describe('every fixable rule together, composed (issue 29)', () => {
  const ALL_FIXABLE = allRules.filter((r) => r.fixable).map((r) => r.id);
  const every = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.fixable ? 'error' : 'off'])));
  // Words that make every fix fire: date words (bare, in links, in code, after emoji), hidden
  // characters, links to other topics inside hooks, tokens a cut must not split.
  const w = fc.constantFrom('tomorrow', 'next Friday', 'yesterday', 'Friday', '`🚀 tomorrow`', '🚀', '🎉🎉', 'deploys', '2026-04-30', '1,000', 'docs/plans/x.md', '[[t2]]', '[B](t2.md)', '[Monday notes](t3.md)', 'monday-api.md', 'Monday.com', '\u200b', 'the', 'a', '迁移', '回滚；', 'usually', 'Today / Yesterday');
  const richHook = fc.array(w, { minLength: 0, maxLength: 40, size: 'max' }).map((ws) => ws.join(' '));
  const richEntry = fc.record({ target: fc.constantFrom('t1', 't2', 't3', 'gone'), title: fc.constantFrom('T', 'Plan for tomorrow', 'Story'), hook: richHook });
  const richLine = fc.oneof(
    { weight: 4, arbitrary: richEntry.map((e) => `- [${e.title}](${e.target}.md)${e.hook ? ` — ${e.hook}` : ''}`) },
    { weight: 1, arbitrary: fc.constantFrom('', '## Project', 'Prose yesterday.', 'See [[t3]].') },
  );
  const arb = fc.record({
    filler: fc.constantFrom(0, 0, 190, 196, 199),
    lines: fc.array(richLine, { maxLength: 10, size: 'max' }),
    topics: fc.subarray(['t1', 't2', 't3', 't4', 't5', 'README', 'SKILL']),
    bodies: fc.array(richHook, { minLength: 7, maxLength: 7 }),
    names: fc.array(fc.constantFrom('Plain', 'Story #12 checkout', 'Note'), { minLength: 7, maxLength: 7 }),
    modified: fc.boolean(),
  });
  it('a second --fix changes nothing, no link breaks, the index stays within limits, hooks are cut at words', async () => {
    const fired = new Set<string>();
    let datesWritten = 0;
    await fc.assert(
      fc.asyncProperty(arb, async (m) => {
        const dir = join(tempDir('memlint-compose-'), 'mem');
        mkdirSync(dir, { recursive: true });
        const filler = Array.from({ length: m.filler }, (_, i) => `Note ${i}.`);
        const index = [...filler, ...m.lines].join('\n') + '\n';
        writeFileSync(join(dir, 'MEMORY.md'), index);
        m.topics.forEach((t, i) => {
          const modified = m.modified ? 'modified: 2026-04-20T10:00:00Z\n' : '';
          writeFileSync(join(dir, `${t}.md`), `---\nname: ${m.names[i]}\ndescription: About ${t}\ntype: project\n${modified}---\n${m.bodies[i]}\n`);
        });
        const first = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: every, fix: true, today: new Date('2026-04-24T12:00:00') });
        for (const r of first.results) for (const msg of r.messages) if (msg.ruleId) fired.add(msg.ruleId);
        const after = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
        expectFixHolds(dir, index, after);
        const texts = () => new Map(readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
        const settled = texts();
        const second = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: every, fix: true, today: new Date('2026-04-24T12:00:00') });
        expect(second.fixesApplied).toBe(0);
        expect(texts()).toEqual(settled);
        // A date is only ever written beside a date word, never inside a word or a name.
        for (const [, text] of settled) {
          for (const d of text.matchAll(/ \((?:\d{4}-\d{2}-\d{2}|the week of [\d-]+)\)/g)) {
            datesWritten++;
            expect(text.slice(Math.max(0, d.index - 12), d.index), text).toMatch(/(?:tomorrow|yesterday|Friday|today)$/i);
          }
          expect(text).not.toMatch(/monday-api \(|Monday \(\d|\.md \(\d/i);
        }
      }),
      { numRuns: 60 },
    );
    for (const id of ['absolute-dates', 'index-orphan', 'index-line-length']) expect(ALL_FIXABLE).toContain(id);
    expect([...fired]).toEqual(expect.arrayContaining(['absolute-dates', 'index-orphan', 'index-line-length']));
    expect(datesWritten).toBeGreaterThan(0);
  });
});

describe('structural rules on arbitrary text', () => {
  const structural = resolveRules(
    Object.fromEntries(allRules.map((r) => [r.id, r.id.startsWith('index-') || r.id.startsWith('frontmatter-') || r.id === 'max-topic-files' || r.id === 'no-conflict-markers' ? r.defaultSeverity : 'off'])),
  );
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.array(fc.constantFrom('---', 'name: x', 'type: [', 'description: |', '  a', '- [A](a.md) — h', '<!--', '-->', '```', '<<<<<<< x', '=======', '>>>>>>> y', '\uFEFF', '🚀', '\t', ''), { maxLength: 20 }).map((ls) => ls.join('\n')),
  );
  it('never fail on a file, whatever it holds', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (index, topicText) => {
        const dir = join(tempDir('memlint-arb-'), 'mem');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'MEMORY.md'), index);
        writeFileSync(join(dir, 'a.md'), topicText);
        const { results } = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: structural, fix: true });
        for (const r of results) for (const m of r.messages) expect(m.message).not.toMatch(/^rule .* failed on this file/);
      }),
      { numRuns: 150 },
    );
  });
});
