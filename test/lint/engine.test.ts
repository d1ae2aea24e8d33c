// The lint engine in process: severities, directives, fixes, and a rule failing on one file.
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { parseDirectives } from '../../src/lint/directives.js';
import type { Rule } from '../../src/lint/types.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir } from '../helpers/repo.js';

const topic = (name: string, type = 'project') => `---\nname: ${name}\ndescription: ${name} memory\ntype: ${type}\n---\nBody.\n`;

function memdir(files: Record<string, string>): string {
  const dir = join(tempDir('memlint-engine-'), 'mem');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const only = (...ids: string[]) => resolveRules(Object.fromEntries(allRules.map((r) => [r.id, ids.includes(r.id) ? r.defaultSeverity : 'off'])));

describe('resolveRules', () => {
  it('applies config, then --rule overrides; off rules are left out', () => {
    const rules = resolveRules({ 'index-orphan': 'warn', 'index-duplicate': 'off' }, { 'index-orphan': 'error', 'index-entry-format': '2' });
    const byId = new Map(rules.map((r) => [r.rule.id, r.severity]));
    expect(byId.get('index-orphan')).toBe(2);
    expect(byId.get('index-entry-format')).toBe(2);
    expect(byId.has('index-duplicate')).toBe(false);
    expect(byId.get('frontmatter-yaml')).toBe(2);
  });
  it('keeps options given as [severity, {options}]', () => {
    const [r] = resolveRules({ 'index-line-length': ['warn', { max: 100 }] }).filter((x) => x.rule.id === 'index-line-length');
    expect(r).toMatchObject({ severity: 1, options: { max: 100 } });
  });
  it('refuses unknown rules and severities', () => {
    expect(() => resolveRules({ 'no-such-rule': 'error' })).toThrow(/unknown rule "no-such-rule"/);
    expect(() => resolveRules({}, { 'index-orphan': 'loud' })).toThrow(/severity must be off, warn or error/);
  });
});

describe('applyEdits', () => {
  it('applies sorted edits and skips one overlapping an earlier edit', () => {
    expect(applyEdits('abcdef', [{ start: 4, end: 5, text: 'E' }, { start: 0, end: 1, text: 'A' }, { start: 0, end: 2, text: 'X' }])).toBe('AbcdEf');
  });
  it('applies two insertions at one point in order', () => {
    expect(applyEdits('ab', [{ start: 1, end: 1, text: '1' }, { start: 1, end: 1, text: '2' }])).toBe('a12b');
  });
});

describe('lintMemdirs', () => {
  it('a rule that throws on one file is reported on that file; other files and rules carry on', async () => {
    const boom: Rule = {
      id: 'boom',
      description: 'throws on one file',
      defaultSeverity: 'error',
      fixable: false,
      appliesTo: ['topic'],
      certainty: 'high',
      docs: { ok: '', notOk: '', notOkOutput: '' },
      check(ctx) {
        if (ctx.file.rel === 'b.md') throw new Error('kaboom\nsecond line');
      },
    };
    const dir = memdir({ 'MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n', 'a.md': topic('A', 'nope'), 'b.md': topic('B', 'nope') });
    const { results } = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: [{ rule: boom, severity: 2, options: {} }, ...only('frontmatter-type')] });
    const byFile = Object.fromEntries(results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => `${m.ruleId}: ${m.message}`)]));
    expect(byFile['a.md']).toEqual(['frontmatter-type: Frontmatter type "nope" is not one of user, feedback, project, reference']);
    expect(byFile['b.md']).toEqual([
      'boom: rule boom failed on this file (kaboom); the file was not fully checked',
      'frontmatter-type: Frontmatter type "nope" is not one of user, feedback, project, reference',
    ]);
  });

  it('fixes in passes until nothing is left to fix, counting every fix', async () => {
    const dir = memdir({
      'MEMORY.md': '- [A](a.md) — a\n- [A](a.md) — a\n- [A](./a.md) — a\n',
      'a.md': topic('A'),
      'b.md': topic('B'),
      'c.md': topic('C'),
    });
    const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: only('index-duplicate', 'index-orphan'), fix: true });
    expect(run.fixesApplied).toBe(4);
    expect(run.filesFixed).toEqual([join(dir, 'MEMORY.md')]);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('- [A](a.md) — a\n- [B](b.md) — B memory\n- [C](c.md) — C memory\n');
    expect(run.results.every((r) => r.messages.length === 0)).toBe(true);
  });

  it('never writes outside the memdir', async () => {
    const dir = memdir({ 'MEMORY.md': '- [A](a.md)\n', 'a.md': topic('A') });
    const escape: Rule = {
      id: 'escape',
      description: 'tries to write outside',
      defaultSeverity: 'error',
      fixable: true,
      appliesTo: ['index'],
      certainty: 'high',
      docs: { ok: '', notOk: '', notOkOutput: '' },
      check(ctx) {
        ctx.report({ message: 'x', line: 1, column: 1, fix: { edits: [{ path: join(ctx.memdir.dir, '..', 'outside.md'), start: 0, end: 0, text: 'pwned' }] } });
      },
    };
    const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: [{ rule: escape, severity: 2, options: {} }], fix: true });
    expect(run.fixesApplied).toBe(0);
    expect(() => readFileSync(join(dir, '..', 'outside.md'))).toThrow();
  });

  it('never fixes through a symlink (the link stays a link)', async () => {
    const dir = memdir({ 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': topic('A'), 'real.md': topic('Real') });
    symlinkSync('real.md', join(dir, 'alias.md'));
    writeFileSync(join(dir, 'MEMORY.md'), `- [A](a.md) — a\n- [Alias](alias.md) — ${'long '.repeat(40)}\n- [Real](real.md) — real\n`);
    const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: only('index-line-length'), fix: true });
    expect(run.fixesApplied).toBe(0);
    expect(lstatSync(join(dir, 'alias.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.md'), 'utf8')).toBe(topic('Real'));
    expect(run.results.flatMap((r) => r.messages.map((m) => m.ruleId))).toEqual(['index-line-length']);
  });

  it('reports after --fix what a lint of the fixed files reports, a topic reached through a symlink to a fixed one included', async () => {
    const dir = memdir({ 'a.md': topic('A'), 'real.md': topic('Real') });
    symlinkSync('real.md', join(dir, 'alias.md'));
    writeFileSync(join(dir, 'MEMORY.md'), `- [A](a.md) — a\n- [Alias](alias.md) — alias\n- [Real](real.md) — ${'the export runs against 192.168.1.20 and '.repeat(5)}\n`);
    const rules = only('index-line-length', 'no-local-addresses');
    const fixed = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, fix: true });
    expect(fixed.filesFixed).toEqual([join(dir, 'MEMORY.md'), join(dir, 'real.md')]);
    expect(readFileSync(join(dir, 'real.md'), 'utf8')).toContain('192.168.1.20');
    const after = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules });
    expect(fixed.results).toEqual(after.results);
    // The alias reads real.md's text: the moved addresses are reported on both.
    const rulesOn = (rel: string) => fixed.results.find((r) => r.filePath === join(dir, rel))!.messages.map((m) => m.ruleId);
    expect(rulesOn('real.md')).toEqual(Array(5).fill('no-local-addresses'));
    expect(rulesOn('alias.md')).toEqual(rulesOn('real.md'));
  });

  it('ignore leaves files out of the run', async () => {
    const dir = memdir({ 'MEMORY.md': '- [A](a.md)\n', 'a.md': topic('A'), 'README.md': '# Readme\n' });
    const { results } = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: only('frontmatter-yaml'), ignore: (p) => p.endsWith('README.md') });
    expect(results.map((r) => r.filePath.slice(dir.length + 1))).toEqual(['MEMORY.md', 'a.md']);
  });
});

describe('parseDirectives', () => {
  it('ranges by rule and for all rules, CRLF too', () => {
    const d = parseDirectives(
      ['a', '<!-- memlint-disable-next-line r1 -->', 'b', '<!-- memlint-disable r2, r3 -->', 'c', '<!-- memlint-enable r2 -->', 'd', '<!-- memlint-disable -->', 'e'].join('\r\n'),
    );
    expect(d.isDisabled('r1', 3)).toBe(true);
    expect(d.isDisabled('r1', 4)).toBe(false);
    expect(d.isDisabled('r2', 5)).toBe(true);
    expect(d.isDisabled('r2', 7)).toBe(false);
    expect(d.isDisabled('r3', 7)).toBe(true);
    expect(d.isDisabled('anything', 9)).toBe(true);
    expect(d.isDisabled('anything', 7)).toBe(false);
    expect([...d.lines]).toEqual([2, 4, 6, 8]);
  });
  it('enable RULE after a bare disable turns that rule back on (markdownlint’s semantics)', () => {
    const d = parseDirectives(['<!-- memlint-disable -->', 'a', '<!-- memlint-enable r1 -->', 'b', '<!-- memlint-disable r1 -->', 'c'].join('\n'));
    expect(d.isDisabled('r1', 2)).toBe(true);
    expect(d.isDisabled('r1', 3)).toBe(true);
    expect(d.isDisabled('r1', 4)).toBe(false);
    expect(d.isDisabled('r2', 4)).toBe(true);
    expect(d.isDisabled('r1', 6)).toBe(true);
  });
});
