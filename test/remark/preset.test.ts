// `memlint/remark` in remark-cli: the same findings as `memlint --format json` on the same folder
// (file, line, column, rule id as memlint:<id>, error as fatal, message), from --use and from a
// .remarkrc.mjs, resolved from a project that has the built package installed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { ROOT, writeFiles } from '../helpers/repo.js';
import { fromMemlintJson, fromRemarkJson, scratchProject, type Finding } from './helpers.js';

const REMARK = join(ROOT, 'node_modules', 'remark-cli', 'cli.js');
// The preset reads no environment (a plugin of someone else's pipeline): MEMLINT_TODAY is the CLI's.
const env = { ...process.env, NO_COLOR: '1', MEMLINT_TODAY: '', MEMLINT_DEBUG: '' };

function remark(cwd: string, args: string[]): { code: number; findings: Finding[]; stderr: string } {
  const r = spawnSync(process.execPath, [REMARK, ...args, '--no-stdout', '--report', 'json'], { cwd, encoding: 'utf8', env });
  // The json reporter writes the report on stderr.
  return { code: r.status ?? -1, findings: fromRemarkJson(r.stderr), stderr: r.stderr };
}

/** memlint's own findings, from main() in this process (test/helpers/in-process.ts: the same output). */
async function memlintFindings(repo: string, args: string[] = []): Promise<Finding[]> {
  const r = await memlintInProcess(repo, ['.claude/memory', '--format', 'json', ...args], { env: { MEMLINT_TODAY: '2026-04-27' } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(1);
  return fromMemlintJson(repo, r.stdout).map((f) => ({ ...f, ruleId: `memlint:${f.ruleId}` }));
}

describe('memlint/remark in remark-cli', () => {
  it('remark --use memlint/remark reports what memlint --format json reports', async () => {
    const repo = scratchProject();
    const expected = await memlintFindings(repo);
    // The example covers memdir-wide rules and both levels.
    const ids = new Set(expected.map((f) => f.ruleId));
    for (const id of ['index-orphan', 'index-duplicate', 'index-link-target', 'index-entry-format', 'frontmatter-type', 'frontmatter-yaml', 'absolute-dates', 'feedback-structure', 'no-secrets', 'no-hidden-unicode']) {
      expect(ids).toContain(`memlint:${id}`);
    }
    expect(expected.some((f) => !f.fatal)).toBe(true);
    const got = remark(repo, ['--use', 'memlint/remark', '.claude/memory']);
    expect(got.findings).toEqual(expected);
    // A fatal message fails remark-cli, as an error fails memlint.
    expect(got.code).toBe(1);
    // No secret in either report.
    expect(got.stderr).not.toMatch(/ghp_[A-Za-z0-9]{36}/);
  });

  it('a .remarkrc.mjs that uses the preset, with a rule off, one at warn and one with options', async () => {
    const repo = scratchProject();
    const expected = await memlintFindings(repo);
    writeFiles(repo, {
      // The same settings in memlint's config (read by memlint only) and in remark's.
      'settings.json': JSON.stringify({ rules: { 'feedback-structure': 'off', 'frontmatter-type': 'warn', 'index-line-length': ['error', { max: 40 }] } }),
      '.remarkrc.mjs': [
        "import memlint, { rules } from 'memlint/remark';",
        'export default {',
        "  plugins: [memlint, [rules['feedback-structure'], 'off'], [rules['frontmatter-type'], 'warn'], [rules['index-line-length'], ['error', { max: 40 }]]],",
        '};',
        '',
      ].join('\n'),
    });
    const configured = await memlintFindings(repo, ['--config', 'settings.json']);
    expect(configured).not.toEqual(expected);
    expect(configured.some((f) => f.ruleId === 'memlint:frontmatter-type' && !f.fatal)).toBe(true);
    expect(configured.some((f) => f.ruleId === 'memlint:index-line-length' && f.message.includes('limit 40'))).toBe(true);
    expect(configured.some((f) => f.ruleId === 'memlint:feedback-structure')).toBe(false);
    const got = remark(repo, ['.claude/memory']);
    expect(got.findings).toEqual(configured);
  });

  it('counts relative dates from the day option `today` pins, as MEMLINT_TODAY pins it for memlint', async () => {
    const repo = scratchProject();
    // Not committed: no commit date to count from, so the day it is linted counts.
    writeFiles(repo, { '.claude/memory/project_launch.md': '---\nname: Launch\ndescription: When we launch\ntype: project\n---\nWe launch next Thursday.\n' });
    const fromMemlint = (await memlintInProcess(repo, ['.claude/memory/project_launch.md', '--format', 'json'], { env: { MEMLINT_TODAY: '2026-04-27' } })).stdout;
    const expected = fromMemlintJson(repo, fromMemlint).filter((f) => f.ruleId === 'absolute-dates').map((f) => f.message);
    expect(expected).toEqual(['relative date "next Thursday": write "next Thursday (2026-04-30)", or "next Thursday (2026-05-07)" if next week\'s is meant (counted from today, 2026-04-27)']);
    writeFiles(repo, { '.remarkrc.mjs': "import memlint, { rules } from 'memlint/remark';\nexport default { plugins: [memlint, [rules['absolute-dates'], { today: '2026-04-27' }]] };\n" });
    const got = remark(repo, ['.claude/memory/project_launch.md']);
    expect(got.findings.filter((f) => f.ruleId === 'memlint:absolute-dates').map((f) => f.message)).toEqual(expected);
    // A day that is not one: one fatal message naming the option, no stack trace, exit 1.
    writeFiles(repo, { '.remarkrc.mjs': "import memlint, { rules } from 'memlint/remark';\nexport default { plugins: [memlint, [rules['absolute-dates'], { today: 'Monday' }]] };\n" });
    const bad = remark(repo, ['.claude/memory/project_launch.md']);
    expect(bad.findings.filter((f) => f.ruleId === 'memlint:absolute-dates').map((f) => f.message)).toEqual(['memlint/remark: option "today" must be a day as YYYY-MM-DD, not "Monday"']);
    expect(bad.code).toBe(1);
    // As a person reads it (remark's default reporter): the message, and no stack trace under it.
    const shown = spawnSync(process.execPath, [REMARK, '.claude/memory/project_launch.md', '--no-stdout'], { cwd: repo, encoding: 'utf8', env });
    expect(shown.stderr).toContain('option "today" must be a day as YYYY-MM-DD, not "Monday"');
    expect(shown.stderr).not.toMatch(/^\s+at /m);
  });

  it('a file outside any memory folder gets no memlint message', () => {
    const repo = scratchProject();
    writeFiles(repo, { 'docs/notes.md': 'We ship tomorrow.\n' });
    const got = remark(repo, ['--use', 'memlint/remark', 'docs']);
    expect(got.findings).toEqual([]);
    expect(got.code).toBe(0);
  });
});
