// Secret detection: the kinds Claude Code's team-memory scanner blocks, placeholders, masking.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allowKey, findPatternSecrets, findSecrets, isPlaceholder, maskSecret, mergedFindings, type SecretFinding } from '../../src/content/secrets.js';

// Deterministic fake values of the right shape (never real credentials).
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const alnum = (n: number) => rep('a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz', n);
const hex = (n: number) => rep('0f1e2d3c4b5a6978', n);

const SAMPLES: Array<[kind: string, value: string]> = [
  ['aws-access-token', `AKIA${rep('QWERTYUI234567ZX', 16)}`],
  ['gcp-api-key', `AIza${alnum(35)}`],
  ['azure-ad-client-secret', `abc8Q~${alnum(34)}`],
  ['digitalocean-pat', `dop_v1_${hex(64)}`],
  ['digitalocean-access-token', `doo_v1_${hex(64)}`],
  ['anthropic-api-key', `sk-ant-api03-${alnum(93)}AA`],
  ['anthropic-admin-api-key', `sk-ant-admin01-${alnum(93)}AA`],
  ['openai-api-key', `sk-proj-${alnum(48)}`],
  ['huggingface-access-token', `hf_${rep('QwErTyUiOpAsDfGhJkLzXcVbNm', 34)}`],
  ['github-pat', `ghp_${alnum(36)}`],
  ['github-fine-grained-pat', `github_pat_${alnum(22)}_${alnum(59)}`],
  ['github-app-token', `ghs_${alnum(36)}`],
  ['github-oauth', `gho_${alnum(36)}`],
  ['github-refresh-token', `ghr_${alnum(76)}`],
  ['gitlab-pat', `glpat-${alnum(20)}`],
  ['gitlab-deploy-token', `gldt-${alnum(20)}`],
  ['slack-bot-token', `xoxb-12345678901-1234567890123-${alnum(24)}`],
  ['slack-user-token', `xoxp-12345678901-12345678901-1234567890123-${hex(32)}`],
  ['slack-app-token', `xapp-1-A0123456789-1234567890123-${hex(64)}`],
  ['twilio-api-key', `SK${hex(32)}`],
  ['sendgrid-api-token', `SG.${alnum(22)}.${alnum(43)}`],
  ['npm-access-token', `npm_${alnum(36)}`],
  ['pypi-upload-token', `pypi-AgEIcHlwaS5vcmc${alnum(60)}`],
  ['databricks-api-token', `dapi${hex(32)}`],
  ['hashicorp-tf-api-token', `${rep('abc123', 14)}.atlasv1.${rep('def456ghi789', 67)}`],
  ['pulumi-api-token', `pul-${hex(40)}`],
  ['postman-api-token', `PMAK-${hex(24)}-${hex(34)}`],
  ['grafana-api-key', `eyJrIjoi${alnum(80)}`],
  ['grafana-cloud-api-token', `glc_${alnum(40)}`],
  ['grafana-service-account-token', `glsa_${alnum(32)}_${hex(8)}`],
  ['sentry-user-token', `sntryu_${hex(64)}`],
  ['sentry-org-token', `sntrys_eyJpYXQiO${alnum(20)}LCJyZWdpb25fdXJs${alnum(20)}_${alnum(43)}`],
  ['stripe-access-token', `sk_live_${alnum(24)}`],
  ['shopify-access-token', `shpat_${hex(32)}`],
  ['shopify-shared-secret', `shpss_${hex(32)}`],
  ['private-key', `-----BEGIN RSA PRIVATE KEY-----\n${alnum(64)}\n${alnum(64)}\n-----END RSA PRIVATE KEY-----`],
  ['connection-string-password', 'Tr0ub4dor-77'],
  ['password-in-prose', 'N7qv!pLx2'],
  ['generic-secret', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
];

function context(kind: string, value: string): string {
  if (kind === 'connection-string-password') return `DB: postgres://ledger:${value}@db.internal:5432/app\n`;
  if (kind === 'password-in-prose') return `The admin password is \`${value}\`.\n`;
  if (kind === 'generic-secret') return `client_secret = "${value}"\n`;
  return `The release job used ${value} until it moved to the vault.\n`;
}

describe('secret kinds', () => {
  it('covers the 36 kinds of Claude Code\'s team-memory scanner', () => {
    const kinds = new Set(SAMPLES.map(([k]) => k));
    expect(kinds.size).toBeGreaterThanOrEqual(38);
  });

  it('finds connection strings of any scheme and AppSecret values in Chinese prose', async () => {
    const text = 'Warehouse: snowflake://analyst:Wint3r!2026@acme-health/PROD\n接口签名用的 AppSecret：`7Hq2Lm9Xw4Rt8Kp3`\n';
    expect((await findSecrets(text)).map((f) => [f.kind, text.slice(f.start, f.end)])).toEqual([
      ['connection-string-password', 'Wint3r!2026'],
      ['generic-secret', '7Hq2Lm9Xw4Rt8Kp3'],
    ]);
  });

  it.each(SAMPLES)('finds %s and its exact span', (kind, value) => {
    const text = context(kind, value);
    const found = findPatternSecrets(text).filter((f) => text.slice(f.start, f.end) === value);
    expect(found.map((f) => f.kind)).toContain(kind);
  });

  it.each([
    'Copy `.env.example`: `STRIPE_KEY=sk_test_<your key>` and `GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`.',
    'DATABASE_URL=postgres://app:<password>@localhost:5432/app or postgres://app:${DB_PASSWORD}@db/app',
    'The password is in 1Password under "ledger-staging"; the password policy is "at least 16 characters".',
    'Docs example key AKIAIOSFODNN7EXAMPLE is fine.',
    'The password field is `password`; the old one was ****.',
    'Build ids look like b7e23ec2; the checksum starts with 9f86d081884c7d65.',
    'Local DB: postgres://postgres:postgres@localhost:5432/app; api_key: ${API_KEY}; access_token = process.env.ACCESS_TOKEN',
    'secret_key: see Vault path secret/ledger; api_key = "your-api-key-here-0000"',
  ])('placeholder or prose is not a secret: %s', async (text) => {
    expect(await findSecrets(text)).toEqual([]);
  });

  it('runs secretlint in-process and cannot be silenced by a secretlint-disable comment', async () => {
    const text = `<!-- secretlint-disable -->\nslack: xoxb-12345678901-1234567890123-${alnum(24)}\n`;
    const found = await findSecrets(text);
    expect(found).toHaveLength(1);
  });
});

describe('masking and allow keys', () => {
  it('never shows more than a quarter of a value, and nothing of a password', () => {
    for (const [kind, value] of SAMPLES) {
      const shown = maskSecret(value, kind);
      expect(shown).not.toContain(value.slice(0, Math.max(5, Math.floor(value.length / 4) + 1)));
      expect(shown).toContain(`(${value.length} chars)`);
    }
    expect(maskSecret('N7qv!pLx2', 'password-in-prose')).toBe('•••• (9 chars)');
  });

  it('keys the allow-list by kind and a hash of the value, not by line', async () => {
    expect(await allowKey('github-pat', 'x')).toMatch(/^github-pat:[0-9a-f]{16}$/);
    expect(await allowKey('github-pat', 'x')).toBe(await allowKey('github-pat', 'x'));
    expect(await allowKey('github-pat', 'x')).not.toBe(await allowKey('github-pat', 'y'));
    expect(isPlaceholder('<password>')).toBe(true);
  });
});

describe('placeholders, review lines and passwords given in words', () => {
  it('takes a credential slot written in capitals or as its name for no secret', async () => {
    for (const t of [
      'Clone with https://USER:TOKEN@git.example.org/team/repo.git then push.',
      'git remote set-url origin https://oauth2:GITLAB_TOKEN@gitlab.example.com/x/y.git',
      'The mirror URL is https://user:token@git.example.org/mirror.git (fill in your own).',
    ]) {
      expect(await findSecrets(t), t).toEqual([]);
    }
  });
  it('takes a review verdict (PASS:) for no password', async () => {
    for (const t of ['- PASS: `typecheck` clean, FAIL: `e2e`', 'Pass: "lint"', '**PASS:** `unit-tests`']) expect(await findSecrets(t), t).toEqual([]);
  });
  it('reports a password given in words next to its value, whatever the word', async () => {
    for (const t of ['The sudo password: `user`', 'the password for root is `admin`', 'VPN passphrase is "letmein"', 'db password is `hunter22x`']) {
      expect((await findSecrets(t)).map((f) => f.kind), t).toEqual(['password-in-prose']);
    }
    for (const t of ['password: `<password>`', 'password: `${DB_PASSWORD}`', 'password: `********`', 'password is `YOUR_PASSWORD`', 'password: `DB_PASSWORD`']) {
      expect(await findSecrets(t), t).toEqual([]);
    }
  });
});

describe('memlint\'s findings and secretlint\'s merged', () => {
  // The merge as it was written first: every finding against every one kept.
  const naive = (own: SecretFinding[], lint: SecretFinding[]) => {
    const overlap = (a: SecretFinding, b: SecretFinding) => a.start < b.end && b.start < a.end;
    const all = [...own];
    for (const f of lint) if (!all.some((o) => overlap(f, o))) all.push(f);
    all.sort((a, b) => a.start - b.start || b.end - a.end);
    const out: SecretFinding[] = [];
    for (const f of all) if (!out.some((o) => overlap(f, o))) out.push(f);
    return out;
  };
  const finding = (label: string) =>
    fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 12 })).map(([start, length]): SecretFinding => ({ kind: label, label, start, end: start + length }));

  it('keeps what every-against-every keeps, in its order (property, with empty and nested ranges)', () => {
    fc.assert(
      fc.property(fc.array(finding('own'), { maxLength: 12 }), fc.array(finding('lint'), { maxLength: 12 }), (own, lint) => {
        const got = mergedFindings(own, lint);
        const want = naive(own, lint);
        expect(got.length).toBe(want.length);
        got.forEach((f, i) => expect(f).toBe(want[i]));
      }),
      { numRuns: 5_000, seed: 11 },
    );
  });

  it('merges 20,000 findings of each', () => {
    const own = Array.from({ length: 20_000 }, (_, i): SecretFinding => ({ kind: 'own', label: 'own', start: i * 10, end: i * 10 + 4 }));
    const lint = Array.from({ length: 20_000 }, (_, i): SecretFinding => ({ kind: 'lint', label: 'lint', start: i * 10 + 2, end: i * 10 + 8 }));
    const got = mergedFindings(own, lint);
    expect(got).toHaveLength(20_000);
    expect(got.every((f) => f.kind === 'own')).toBe(true);
  });
});
