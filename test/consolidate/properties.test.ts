// Properties of the whole plan over generated memdirs: idempotent, and nothing lost.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planConsolidation, type Plan } from '../../src/consolidate/plan.js';
import { ctx, topic } from './helpers.js';

const MEMDIR = '/m/memory';
const ARCHIVE = '/m/memory-archive';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'ledger', 'payout', 'retry', 'freeze', 'review', 'schema');
const sentence = fc.array(word, { minLength: 2, maxLength: 6 }).map((w) => w.join(' '));
const slug = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const type = fc.constantFrom('user', 'feedback', 'project', 'reference');

const memdir = fc
  .record({
    topics: fc.uniqueArray(
      fc.record({ slug, name: fc.constantFrom('One', 'Two', 'Three', 'Four', 'Five', 'Six'), type, desc: sentence, items: fc.array(sentence, { maxLength: 4 }), dated: fc.boolean() }),
      { selector: (t) => t.slug, maxLength: 6 },
    ),
    indexed: fc.array(fc.record({ slug, hook: fc.array(sentence, { minLength: 1, maxLength: 12 }).map((x) => x.join(', ')) }), { maxLength: 8 }),
    logs: fc.array(fc.record({ day: fc.integer({ min: 1, max: 3 }), tag: fc.option(slug, { nil: undefined }), text: sentence }), { maxLength: 8 }),
    crlf: fc.boolean(),
  })
  .map(({ topics, indexed, logs, crlf }) => {
    const files = new Map<string, string>();
    for (const t of topics) {
      const body = t.items.map((i) => `- ${i}`).join('\n') + (t.dated ? '\nMilestone on 2025-01-01.\n' : '\n');
      files.set(`${t.slug}.md`, topic(t.name, t.type, t.desc, body));
    }
    files.set('MEMORY.md', '# Memory\n\n' + indexed.map((e) => `- [${e.slug.toUpperCase()}](${e.slug}.md) — ${e.hook}\n`).join(''));
    for (const l of logs) {
      const rel = `logs/2026/11/2026-11-0${l.day}.md`;
      files.set(rel, (files.get(rel) ?? '') + `- 09:00 ${l.text}${l.tag ? ` [${l.tag}]` : ''}\n`);
    }
    if (crlf) for (const [rel, text] of files) files.set(rel, text.replace(/\n/g, '\r\n'));
    return files;
  });

function plan(files: Map<string, string>, archive: Map<string, string>, prune: boolean): Plan {
  return planConsolidation({
    memdir: MEMDIR,
    archiveDir: ARCHIVE,
    files,
    archiveIndex: archive.get('ARCHIVE.md') ?? null,
    ctx: ctx({ allPaths: new Set(files.keys()), archivePaths: new Set(archive.keys()), prune }),
  });
}

/** The memdir and archive after carrying out the plan. */
function apply(p: Plan, files: Map<string, string>, archive: Map<string, string>) {
  const f = new Map(files);
  const a = new Map(archive);
  const relOf = (abs: string, base: string) => abs.slice(base.length + 1);
  for (const op of p.ops) {
    if (op.kind === 'move') {
      f.delete(relOf(op.from, MEMDIR));
      a.set(relOf(op.to, ARCHIVE), op.text);
    } else if (op.path.startsWith(ARCHIVE + '/')) a.set(relOf(op.path, ARCHIVE), op.after);
    else f.set(relOf(op.path, MEMDIR), op.after);
  }
  return { files: f, archive: a };
}

describe('consolidation plans', () => {
  it('are idempotent: a second run changes nothing', () => {
    fc.assert(
      fc.property(memdir, fc.boolean(), (files, prune) => {
        const first = apply(plan(files, new Map(), prune), files, new Map());
        const second = plan(first.files, first.archive, prune);
        expect(second.ops).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('lose nothing: every body line and log line is still in the memdir or the archive', () => {
    fc.assert(
      fc.property(memdir, fc.boolean(), (files, prune) => {
        const after = apply(plan(files, new Map(), prune), files, new Map());
        const everything = [...after.files.values(), ...after.archive.values()].join('\n');
        for (const [rel, text] of files) {
          if (rel === 'MEMORY.md') continue;
          const lf = text.replace(/\r\n/g, '\n');
          const body = lf.startsWith('---') ? lf.slice(lf.indexOf('\n---\n', 3) + 5) : lf;
          for (const line of body.split('\n')) if (line.trim()) expect(everything).toContain(line.trim());
        }
        // Logs are append-only: never changed (no relative dates here).
        for (const [rel, text] of files) if (rel.startsWith('logs/')) expect(after.files.get(rel)).toBe(text);
        // Index entries are kept, or archived; a hook cut short or merged away lives on in the topic.
        const squashed = everything.replace(/\s+/g, ' ');
        for (const line of files.get('MEMORY.md')!.split(/\r?\n/)) {
          const m = /\]\(([^)]+)\) — (.*)$/.exec(line);
          if (!m) continue;
          expect(everything).toContain(`](${m[1]})`);
          expect(squashed.toLowerCase()).toContain(m[2]!.toLowerCase());
        }
      }),
      { numRuns: 200 },
    );
  });

  it("keep each file's line endings", () => {
    fc.assert(
      fc.property(memdir, (files) => {
        const crlf = files.get('MEMORY.md')!.includes('\r\n');
        const after = apply(plan(files, new Map(), true), files, new Map());
        for (const [rel, text] of after.files) {
          if (!files.has(rel)) continue;
          if (crlf) expect(text.replace(/\r\n/g, '')).not.toContain('\n');
          else expect(text).not.toContain('\r');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('leave no orphan and no duplicate entry behind but one that says what the first does not, and strip no entry git never saw deleted', () => {
    fc.assert(
      fc.property(memdir, (files) => {
        const planned = plan(files, new Map(), false);
        const after = apply(planned, files, new Map());
        const index = after.files.get('MEMORY.md')!;
        const targets = [...index.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
        // A second entry with words of its own is left for a person, and reported.
        expect(targets.length - new Set(targets).size).toBe(planned.report.index.differing.length);
        // An entry without a file stays unless git shows the file deleted (none is, here): its
        // topic may live in the agent's own store.
        const before = files.get('MEMORY.md')!;
        for (const t of targets) expect(after.files.has(t) || before.includes(`](${t})`)).toBe(true);
        for (const m of before.matchAll(/\]\(([^)]+)\)/g)) if (!files.has(m[1]!)) expect(targets).toContain(m[1]!);
        for (const rel of after.files.keys()) if (!rel.includes('/') && rel !== 'MEMORY.md') expect(targets).toContain(rel);
      }),
      { numRuns: 200 },
    );
  });
});
