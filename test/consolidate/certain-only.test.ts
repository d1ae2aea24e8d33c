// Consolidation applies only changes that are certain (issue 29): entries only for memories,
// titled with the words their writer meant, never past Claude Code's limits, and a shortened line
// keeps every link it held.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir, writeFiles } from '../helpers/repo.js';
import { syncIndex } from '../../src/consolidate/index-sync.js';
import { shortenAtWord } from '../../src/memdir/topic-entry.js';
import { cutAtWord, cutHook } from '../../src/memdir/hook-text.js';
import { measureIndex } from '../../src/memdir/limits.js';
import { ctx, state, topic } from './helpers.js';

describe('index sync adds entries only where certain', () => {
  it('adds none for README.md, a skill file, an untyped file, a name YAML cut at " #", a file without a description or a template stub left unfilled', () => {
    const s = state({
      'MEMORY.md': '- [A](a.md) — x\n',
      'a.md': topic('A', 'user', 'x', 'one\n'),
      'README.md': '---\nname: About\ndescription: What this folder is\n---\n# About\n',
      'SKILL.md': '---\nname: release\ndescription: Cut a release\n---\nSteps.\n',
      'untyped.md': '---\nname: Untyped\ndescription: no type\n---\nx\n',
      'story.md': '---\nname: Story #12 guest checkout\ndescription: The guest story\ntype: project\n---\nx\n',
      'ok.md': topic('Payments', 'project', 'Payment notes', 'x\n'),
      'no_description.md': '---\nname: No description\ntype: project\n---\nx\n',
      'stub.md': '---\nname: Hosting\ndescription: Where the app runs\ntype: project\n---\n\n<!-- fill in the first time -->\n',
    });
    const r = syncIndex(s, ctx());
    expect(r.report.added.map((a) => a.target)).toEqual(['ok.md']);
    expect(r.state.files.get('MEMORY.md')).toBe('- [A](a.md) — x\n- [Payments](ok.md) — Payment notes\n');
  });

  it('writes the line index-orphan --fix writes, for the same topics', async () => {
    const topics: Record<string, string> = {
      'feedback_long.md': topic('Long [draft]', 'feedback', 'A description that goes on and on about deploys, freezes, approvals, rollback plans, staging rehearsals, on-call rotations and more', 'x\n'),
      'user_hidden.md': topic('Role\u200b and  ownership', 'user', 'Staff engineer\u200b who owns the \u202eledger', 'x\n'),
      'project_links.md': topic('Links', 'project', 'see [Billing](billing.md) and [Refunds](refunds.md) for how money moves between the accounts every night, and why it matters', 'x\n'),
      'reference_odd ] name.md': topic('Odd ] name', 'reference', 'A file whose name needs care', 'x\n'),
    };
    const added = syncIndex(state({ 'MEMORY.md': '', ...topics }), ctx()).report.added;
    const dir = tempDir('memlint-entry-parity-');
    writeFiles(dir, { 'MEMORY.md': '', ...topics });
    const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.id === 'index-orphan' ? 'error' : 'off'])));
    await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, fix: true });
    const fixed = readFileSync(join(dir, 'MEMORY.md'), 'utf8').split('\n').filter(Boolean).sort();
    expect(added.map((a) => a.line).sort()).toEqual(fixed);
    expect(fixed).toHaveLength(4);
  });

  it('stops adding entries at 200 loaded lines', () => {
    const files: Record<string, string> = { 'MEMORY.md': Array.from({ length: 198 }, (_, i) => `- [T${i}](t${i}.md) — e`).join('\n') + '\n' };
    for (let i = 0; i < 198; i++) files[`t${i}.md`] = topic(`T${i}`, 'user', 'e', 'x\n');
    for (const n of ['z1', 'z2', 'z3', 'z4']) files[`${n}.md`] = topic(n, 'user', 'orphan', 'x\n');
    const r = syncIndex(state(files), ctx());
    expect(r.report.added.map((a) => a.target)).toEqual(['z1.md', 'z2.md']);
    expect(measureIndex(r.state.files.get('MEMORY.md')!).lines).toBe(200);
  });

  it('never drops or breaks a link when it shortens a line holding several', () => {
    const hook = 'see [Billing](billing.md), [Refunds](refunds.md) and [Payouts](payouts.md) for the rest of the story about how money moves between the accounts every night';
    const line = `- [Money](money.md) — ${hook}`;
    const s = state({ 'MEMORY.md': line + '\n', 'money.md': topic('Money', 'project', 'money', 'x\n'), 'billing.md': topic('Billing', 'project', 'b', 'x\n'), 'refunds.md': topic('Refunds', 'project', 'r', 'x\n'), 'payouts.md': topic('Payouts', 'project', 'p', 'x\n') });
    const out = syncIndex(s, ctx()).state.files.get('MEMORY.md')!;
    for (const link of ['[Billing](billing.md)', '[Refunds](refunds.md)', '[Payouts](payouts.md)', '[Money](money.md)']) expect(out).toContain(link);
    expect(out).not.toMatch(/\[[^\]]*…/);
  });
});

describe('cuts at a word, never inside a token', () => {
  it('never cuts a date, a number or a path in two', () => {
    for (const text of ['freeze until 2026-04-30 then ship', 'costs 1,000,000 dollars a year', 'see docs/plans/2026-04-30-freeze.md']) {
      for (let max = 3; max < text.length; max++) {
        const { head, tail } = cutAtWord(text, max);
        const tokens = text.split(/\s+/);
        if (head !== '') for (const t of head.split(/\s+/)) expect(tokens, `${text} @${max}: ${head}`).toContain(t);
        expect((head + ' ' + tail).trim().replace(/\s+/g, ' ')).toBe(text);
      }
    }
  });
  it('cuts CJK text between characters and keeps links whole', () => {
    expect(cutAtWord('部署流程需要两个人审批才能上线', 6).head).toBe('部署流程需要');
    expect(cutHook('[A](a.md) and [B](b.md) then more words here', 30).head).toBe('[A](a.md) and [B](b.md) then');
    expect(cutHook('[A long title](a.md) and [B](b.md)', 10).head).toBe('');
    expect(shortenAtWord('[A long title](a.md) and [B](b.md)', 10)).toBe('[A long title](a.md) and [B](b.md)');
  });
});
