// Contract §9: no output prints any part of a secret no-secrets reports. Trial finding 7: a token
// longer than the pattern that found it (secretlint's `ghp_` and 36 characters, `github_pat_` and
// 82, both without an end boundary) was reported and masked only up to the pattern's end, so
// `memlint diff` printed the token's tail; and in a file with a byte order mark secretlint's offsets
// (counted without the mark) were taken as offsets in the text with it: the value found began one
// character early (the space before the token, which the mask ate) and stopped one short.
//
// Tokens are spelt in pieces (`${'ghp'}_…`): the repository holds nothing that reads as a live one.
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowKey, findSecrets, maskSecret, maskSecrets, secretsOf } from '../../src/content/secrets.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { readFileSync } from 'node:fs';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

const ALNUM = 'a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz';
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const GHP = `${'ghp'}_`;
const PAT = `${'github'}_pat_`;

/** `ghp_` and n characters: 36 is the classic length, more is a token the patterns match only in part. */
const classic = (n: number, tail = '') => `${GHP}${rep(ALNUM, n - tail.length)}${tail}`;
/** `github_pat_` and n characters (82 is the length the patterns know). */
const fineGrained = (n: number) => `${PAT}11ABCDEFG0123456789abcd_${rep('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', n - 24)}`;

/** The text masked as every output masks it: against what no-secrets finds in it, and memlint's own patterns. */
async function masked(text: string): Promise<string> {
  return maskSecrets(text, await secretsOf([text]));
}

describe('a token longer than the pattern is found, hashed and masked whole', () => {
  const cases: Array<{ name: string; token: string; kind: string; before: string; after: string }> = [
    { name: 'ghp_ and 38 characters (secretlint only)', token: classic(38, 'zQQ'), kind: 'github-pat', before: 'The CI token is ', after: '\n' },
    { name: 'github_pat_ and 89 characters', token: fineGrained(89), kind: 'github-fine-grained-pat', before: '- [Dash](reference_dash.md) — pat ', after: '' },
    { name: 'ghp_ and 40 characters before a full stop', token: classic(40), kind: 'github-pat', before: 'Use ', after: '. Then push.' },
    { name: 'ghp_ and 37 characters in a code span', token: classic(37), kind: 'github-pat', before: 'token `', after: '` for CI' },
    { name: 'ghp_ and 36 characters (the pattern\'s own length)', token: classic(36), kind: 'github-pat', before: 'token ', after: ' here' },
    { name: 'a known token a longer one continues', token: `${classic(36)}-and_more`, kind: 'github-pat', before: 'x ', after: ')' },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const text = `${c.before}${c.token}${c.after}`;
      const found = await findSecrets(text);
      expect(found.map((f) => [f.kind, text.slice(f.start, f.end)])).toEqual([[c.kind, c.token]]);
      expect(await masked(text)).toBe(`${c.before}${maskSecret(c.token, c.kind)}${c.after}`);
    });
  }

  it('a value quoted out of its file is masked to the end of the token there too', async () => {
    // Known from the file as the pattern found it (36 characters); the output shows it continued.
    const known = new Map([[classic(36), 'github-pat']]);
    const text = `hook "${classic(36)}XYZ9" and "${classic(36)}"`;
    const out = maskSecrets(text, known);
    expect(out).toBe(`hook "${maskSecret(`${classic(36)}XYZ9`, 'github-pat')}" and "${maskSecret(classic(36), 'github-pat')}"`);
    expect(out).not.toMatch(/XYZ9/);
  });

  it('property: whatever the token\'s length and its neighbours, output = before + mask + after', async () => {
    const tokenChar = fc.constantFrom(...'abcXYZ0189_'.split(''));
    const around = fc.constantFrom('', ' ', '  ', '\t', '.', ', ', ')', '`', '"', '\n', ' — ', '。');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('ghp', 'pat'),
        fc.array(tokenChar, { minLength: 0, maxLength: 24 }),
        fc.constantFrom('', 'token ', 'The CI token is', '- [A](a.md) — ', '密钥 '),
        around,
        around,
        async (shape, extra, lead, before, after) => {
          const token = (shape === 'ghp' ? classic(36) : fineGrained(82)) + extra.join('');
          // A token glued to a word before it is not a token on its own: keep a boundary there.
          const text = `${lead}${lead === '' || before !== '' ? before : ' '}${token}${after}`;
          const out = await masked(text);
          const i = text.indexOf(token);
          expect(out).toBe(`${text.slice(0, i)}${maskSecret(token, 'github-pat')}${text.slice(i + token.length)}`);
          // Nothing of the token beyond the four characters the mask shows.
          expect(out).not.toContain(token.slice(4, 12));
          expect(out).not.toContain(token.slice(-6));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('a byte order mark changes no secret finding', () => {
  const lines = (token: string) => [
    [`token ${token}`, '', '- [A](a.md) — x'],
    ['# M', '', `- [A](a.md) — token ${token}`],
    ['# M', '', `- [A](a.md) — token ${token}`, `and ${fineGrained(90)} too`],
  ];

  it('property: same values, offsets one on, same masks and allow keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 36, max: 44 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom('\n', '\r\n'), async (n, which, eol) => {
        const text = lines(classic(n))[which]!.join(eol) + eol;
        const plain = await findSecrets(text);
        const withBom = await findSecrets(`\uFEFF${text}`);
        expect(plain.length).toBeGreaterThan(0);
        expect(withBom.map((f) => ({ ...f, start: f.start - 1, end: f.end - 1 }))).toEqual(plain);
        const keys = async (t: string, fs: typeof plain) => Promise.all(fs.map((f) => allowKey(f.kind, t.slice(f.start, f.end))));
        expect(await keys(`\uFEFF${text}`, withBom)).toEqual(await keys(text, plain));
        expect(await masked(`\uFEFF${text}`)).toBe(`\uFEFF${await masked(text)}`);
      }),
      { numRuns: 40 },
    );
  });
});

describe('in a repository (real git, the CLI in process)', () => {
  const memdir = '.claude/memory';
  const topic = '---\nname: A\ndescription: A note\ntype: reference\n---\nA.\n';

  it('diff, in every format, masks the whole token and keeps the space before it', async () => {
    const repo = initRepo(tempDir('memlint-mask-token-'));
    writeFiles(join(repo, memdir), { 'MEMORY.md': '# Memory\n\n- [A](a.md) — dashboards\n- [B](b.md) — ci\n', 'a.md': topic, 'b.md': topic });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'memory');
    const pat = fineGrained(89);
    const ghp = classic(38, 'zQQ');
    writeFiles(join(repo, memdir), { 'MEMORY.md': `# Memory\n\n- [A](a.md) — pat ${pat}\n- [B](b.md) — The CI token is ${ghp}\n` });
    git(repo, 'commit', '-qam', 'secrets', '--no-verify');
    for (const format of ['text', 'markdown', 'json']) {
      const r = await memlintInProcess(repo, ['diff', 'HEAD~1..HEAD', '--format', format]);
      expect(r.code, format).toBe(0);
      const out = r.stdout + r.stderr;
      expect(out, format).toContain(`pat ${maskSecret(pat, 'github-pat')}`);
      expect(out, format).toContain(`The CI token is ${maskSecret(ghp, 'github-pat')}`);
      // No stretch of either token past the four characters the mask shows, its tail included.
      for (const token of [pat, ghp]) for (let i = 4; i + 8 <= token.length; i++) expect(out, format).not.toContain(token.slice(i, i + 8));
      expect(out, format).not.toMatch(/chars\)[A-Za-z0-9_]/);
    }
  });

  it('the merge driver (memlint\'s own patterns, no library) masks a longer token whole in its labels and messages', () => {
    const dir = tempDir('memlint-mask-merge-');
    const ghp = classic(38, 'zQQ');
    const pat = fineGrained(89);
    const entry = (hook: string) => `- [Release](${ghp}.md) — ${hook}\n- [Pat](${pat}) — ${hook}\n`;
    writeFiles(dir, { base: `# Memory\n${entry('base')}`, ours: `# Memory\n${entry('ours')}`, theirs: `# Memory\n${entry('theirs')}` });
    const r = memlint(dir, ['merge', 'base', 'ours', 'theirs', '7', '.claude/memory/MEMORY.md']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`left in conflict: ${maskSecret(ghp)}.md: edited on both sides; ${maskSecret(pat)}: edited on both sides`);
    const labels = readFileSync(join(dir, 'ours'), 'utf8').split('\n').filter((l) => /^[<>]{7} /.test(l));
    expect(labels).toHaveLength(4);
    for (const out of [r.stdout + r.stderr, labels.join('\n')]) for (const token of [ghp, pat]) for (let i = 4; i + 8 <= token.length; i++) expect(out).not.toContain(token.slice(i, i + 8));
  });

  it('lint gives a BOM file the columns, masks and allow keys of the same file without one', async () => {
    const ghp = classic(38);
    const index = `token ${ghp}\n\n- [A](a.md) — token ${ghp}\n- [B](b.md) — the pat ${fineGrained(82)}\n`;
    const run = async (bom: string) => {
      const repo = initRepo(tempDir('memlint-bom-secrets-'));
      writeFiles(join(repo, memdir), { 'MEMORY.md': `${bom}${index}`, 'a.md': topic, 'b.md': topic });
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'memory', '--no-verify');
      const r = await memlintInProcess(repo, ['--format', 'json']);
      const messages = (JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>).flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-secrets'));
      return messages.map((m) => `${m.line}:${m.column} ${m.message}`);
    };
    const plain = await run('');
    expect(plain).toHaveLength(3);
    expect(plain.map((m) => m.split(' ')[0])).toEqual(['1:7', '3:21', '4:23']);
    expect(plain[0]).toContain(maskSecret(ghp, 'github-pat'));
    expect(await run('\uFEFF')).toEqual(plain);
  });
});
