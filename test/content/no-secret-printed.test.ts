// README "Security": no output prints a secret that no-secrets would report. Seventeen secrets of
// different kinds are planted where other rules, fixes, consolidation and merges quote text (a
// link target, a `type` value, a file name, an over-long hook, a dated line, a daily-log entry, a
// conflicting entry), and every output of every command is searched for each raw value. lint and
// the merge driver run the built CLI; consolidate, resolve, diff and show run main() in this process
// (test/helpers/in-process.ts), whose stdout and stderr are the CLI's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { secretsOf } from '../../src/content/secrets.js';

// Deterministic fake values of the right shapes (never real credentials).
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const alnum = (n: number, seed = 0) => rep('a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz'.slice(seed) + 'a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz'.slice(0, seed), n);

const S = {
  pgPassword: 'Tr0ub4dor-77x',
  slackWebhook: `https://hooks.slack.com/services/T0123ABCD/B0123ABCD/${alnum(24, 3)}`,
  ghpTarget: `ghp_${alnum(36, 1)}`,
  ghpType: `ghp_${alnum(36, 2)}`,
  awsKeyId: 'AKIAQWERTYUI234567ZX',
  openai: `sk-proj-${alnum(48, 4)}`,
  gitlab: `glpat-${alnum(20, 5)}`,
  npmName: `npm_${alnum(36, 6)}`,
  anthropic: `sk-ant-api03-${alnum(93, 7)}AA`,
  sendgrid: `SG.${alnum(22, 8)}.${alnum(43, 9)}`,
  gcp: `AIza${alnum(35, 10)}`,
  stripe: `sk_live_${alnum(24, 11)}`,
  slackBot: `xoxb-12345678901-1234567890123-${alnum(24, 12)}`,
  mysqlPassword: 'Xk9-plum-Quartz',
  proseP: 'N7qv!pLx2w',
  generic: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  keyBody: alnum(64, 13),
};

const topic = (name: string, body: string, type = 'project') => `---\nname: ${name}\ndescription: ${name} in one line\ntype: ${type}\n---\n${body}`;

const INDEX = [
  '# Memory',
  '',
  '- [Deploys](project_deploys.md) — deploys go out on Tuesdays',
  `- [Database](postgres://ledger:${S.pgPassword}@db.prod.example.net/app) — the production database`,
  `- [Alerts](${S.slackWebhook}) — where alerts go`,
  `- [Release token](${S.ghpTarget}.md) — the release token notes`,
  `- [Deploys](project_deploys.md) — deploys use the key ${S.awsKeyId} from the vault`,
  `- [Long](project_long.md) — ${'a very long hook that keeps going on and on about the release process '.repeat(2)}and the key ${S.openai}`,
  '- [Typed](project_typed.md) — a topic with an odd type',
  '- [Keys](project_keys.md) — keys',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'MEMORY.md': INDEX,
  // The note's own date makes the relative date certain, so consolidation fixes it (and its diff must mask).
  'project_deploys.md': topic('Deploys', `Date: 2026-11-29\n\nTomorrow we rotate ${S.gitlab} before the deploy.\n`),
  'project_typed.md': topic('Typed', 'Body.\n', S.ghpType),
  'project_long.md': topic('Long', 'The long story.\n'),
  [`${S.npmName}.md`]: topic(`Publishing with ${S.npmName}`, `Publish with ${S.npmName}.\n`),
  'project_keys.md': topic(
    'Keys',
    [
      `Next Friday the Anthropic key ${S.anthropic} expires.`,
      `Mail goes through ${S.sendgrid} since yesterday.`,
      '',
      '-----BEGIN RSA PRIVATE KEY-----',
      S.keyBody,
      S.keyBody.split('').reverse().join(''),
      '-----END RSA PRIVATE KEY-----',
      '',
    ].join('\n'),
  ),
  'logs/2026/11/2026-11-20.md': [
    '# 2026-11-20',
    '',
    `- [project_keys] maps use ${S.gcp} and billing uses ${S.stripe}`,
    `- [project_keys] the bot posts with ${S.slackBot}`,
    `- [project_keys] reports read mysql://reporter:${S.mysqlPassword}@reports.example.net/r`,
    `- [project_keys] the admin password is "${S.proseP}"`,
    `- [project_keys] client_secret = "${S.generic}"`,
    '',
  ].join('\n'),
};

const VALUES = Object.entries(S);

function repoWithMemory(): { repo: string; memdir: string } {
  const repo = initRepo(tempDir('memlint-secrets-out-'));
  const memdir = join(repo, '.claude', 'memory');
  writeFiles(memdir, FILES);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'memory');
  return { repo, memdir };
}

/** Each planted value that appears in the text, with how often. */
function leaks(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of VALUES) {
    const n = text.split(value).length - 1;
    if (n > 0) out[name] = n;
  }
  return out;
}

const env = { MEMLINT_TODAY: '2026-11-29' };

describe('no output prints a planted secret', () => {
  it('plants secrets that no-secrets reports', async () => {
    const known = await secretsOf(Object.values(FILES).concat(Object.keys(FILES)));
    for (const [name, value] of VALUES) expect(known.has(value), name).toBe(true);
  });

  it('lint, in every format, and --fix', () => {
    const { repo } = repoWithMemory();
    for (const format of ['stylish', 'json', 'sarif', 'github']) {
      const r = memlint(repo, ['--format', format], { env });
      expect(r.code, format).toBe(1);
      expect(r.stdout).toMatch(/index-link-target|frontmatter-type/);
      expect({ format, leaks: leaks(r.stdout + r.stderr) }).toEqual({ format, leaks: {} });
    }
    const fixed = memlint(repo, ['--fix'], { env });
    expect(fixed.stdout).toMatch(/Fixed \d+ problem/);
    expect(leaks(fixed.stdout + fixed.stderr)).toEqual({});
  });

  it('consolidate --dry-run, --check --json and --force --json', async () => {
    const { repo } = repoWithMemory();
    const dry = await memlintInProcess(repo, ['consolidate', '--dry-run'], { env });
    // The diff is there (a date made absolute), only its secrets masked. A log entry holding a
    // secret is not copied into its topic: the run says where it is, masked.
    expect(dry.stdout).toMatch(/2026-11-30/);
    expect(dry.stdout).not.toMatch(/^\+- maps use/m);
    expect(dry.stdout + dry.stderr).toMatch(/logs\/2026\/11\/2026-11-20\.md:3: holds a secret \(gcp-api-key\): left in the log, not copied into project_keys\.md/);
    expect(leaks(dry.stdout + dry.stderr)).toEqual({});
    for (const args of [['--dry-run', '--json'], ['--check', '--json'], ['--force', '--json']]) {
      const r = await memlintInProcess(repo, ['consolidate', ...args], { env });
      expect(() => JSON.parse(r.stdout)).not.toThrow();
      expect({ args, leaks: leaks(r.stdout + r.stderr) }).toEqual({ args, leaks: {} });
    }
  });

  it('merge: stderr and conflict labels; the lines between the markers are the file\'s own', () => {
    const dir = tempDir('memlint-secrets-merge-');
    const entry = (hook: string) => `- [Database](postgres://ledger:${S.pgPassword}@db.prod.example.net/app) — ${hook}\n- [Alerts](${S.slackWebhook}) — ${hook}\n- [Release](${S.ghpTarget}.md) — ${hook}\n`;
    writeFiles(dir, { base: `# Memory\n${entry('base')}`, ours: `# Memory\n${entry('ours')}`, theirs: `# Memory\n${entry('theirs')}` });
    const r = memlint(dir, ['merge', 'base', 'ours', 'theirs', '7', '.claude/memory/MEMORY.md']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/left in conflict: postgres:\/\/ledger:•••• \(13 chars\)@db\.prod\.example\.net\/app: edited on both sides/);
    expect(leaks(r.stdout + r.stderr)).toEqual({});
    const merged = readFileSync(join(dir, 'ours'), 'utf8');
    const markers = merged.split('\n').filter((l) => /^[<>]{7} /.test(l));
    expect(markers).toHaveLength(6);
    expect(leaks(markers.join('\n'))).toEqual({});
    expect(leaks(merged.split('\n').filter((l) => !/^[<>]{7} /.test(l)).join('\n'))).toEqual({ pgPassword: 2, slackWebhook: 2, ghpTarget: 2 });
  });

  it('resolve: its report and the labels it writes', async () => {
    const repo = initRepo(tempDir('memlint-secrets-resolve-'));
    const memdir = '.claude/memory';
    const line = (hook: string) => `- [Database](postgres://ledger:${S.pgPassword}@db.prod.example.net/app) — ${hook}\n`;
    writeFiles(join(repo, memdir), { 'MEMORY.md': `# Memory\n${line('base')}` });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    git(repo, 'checkout', '-qb', 'other');
    writeFiles(join(repo, memdir), { 'MEMORY.md': `# Memory\n${line('theirs')}` });
    git(repo, 'commit', '-qam', 'theirs');
    git(repo, 'checkout', '-q', 'main');
    writeFiles(join(repo, memdir), { 'MEMORY.md': `# Memory\n${line('ours')}` });
    git(repo, 'commit', '-qam', 'ours');
    expect(() => git(repo, 'merge', '-q', 'other')).toThrow();
    const r = await memlintInProcess(repo, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/conflict {2}\.claude\/memory\/MEMORY\.md:\d+ \(postgres:\/\/ledger:•••• \(13 chars\)@/);
    expect(leaks(r.stdout + r.stderr)).toEqual({});
    const written = readFileSync(join(repo, memdir, 'MEMORY.md'), 'utf8');
    expect(leaks(written.split('\n').filter((l) => /^[<>]{7} /.test(l)).join('\n'))).toEqual({});
  });

  it('diff, in every format (a link target, a type value, a file name, hooks and descriptions)', async () => {
    const repo = initRepo(tempDir('memlint-secrets-diff-'));
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'before the memory');
    writeFiles(join(repo, '.claude', 'memory'), FILES);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'memory');
    for (const format of ['text', 'markdown', 'json']) {
      const r = await memlintInProcess(repo, ['diff', 'HEAD~1..HEAD', '--format', format]);
      expect(r.code, format).toBe(0);
      expect(r.stdout).toMatch(/project_typed\.md/);
      expect({ format, leaks: leaks(r.stdout + r.stderr) }).toEqual({ format, leaks: {} });
    }
  });

  it('show prints what the agent loads, unchanged (the one exception, by contract)', async () => {
    const { repo } = repoWithMemory();
    const r = await memlintInProcess(repo, ['show']);
    expect(leaks(r.stdout)).toMatchObject({ pgPassword: 1, ghpTarget: 1 });
  });
});

describe('a short password is masked where it stands as one, not in every word that spells it (tenth held-out set)', () => {
  // A 4-character password that was also the project folder's name masked that folder in 124
  // printed paths, which then pointed at nothing; a password "password" masked the rule's own id in
  // the allow hint; consolidate called every index line holding the word a line holding a secret.
  it('lint prints the folder and the allow key as they are, and masks the value itself', async () => {
    const repo = initRepo(tempDir('memlint-short-secret-'));
    writeFiles(repo, {
      'demo/.claude/memory/MEMORY.md': '- [Staging box](reference_demo_box.md) — the demo box; ssh password: `demo`\n- [Demo data](project_demo_data.md) — how the demo data is seeded\n',
      'demo/.claude/memory/reference_demo_box.md': topic('Staging box', 'Log in to the staging box over ssh as root.\n', 'reference'),
      'demo/.claude/memory/project_demo_data.md': topic('Demo data', 'The demo data is seeded from fixtures on every deploy.\n'),
      'ops/.claude/memory/MEMORY.md': '- [Seed account](reference_seed.md) — the seeded account\'s password is `password`\n',
      'ops/.claude/memory/reference_seed.md': topic('Seed account', 'The seeded account.\n', 'reference'),
    });
    const r = await memlintInProcess(repo, ['--format', 'json'], { env });
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; message: string }> }>;
    expect(results.map((f) => f.filePath.slice(repo.length + 1))).toEqual([
      'demo/.claude/memory/MEMORY.md',
      'demo/.claude/memory/project_demo_data.md',
      'demo/.claude/memory/reference_demo_box.md',
      'ops/.claude/memory/MEMORY.md',
      'ops/.claude/memory/reference_seed.md',
    ]);
    const secrets = results.flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-secrets').map((m) => m.message));
    expect(secrets).toHaveLength(2);
    expect(secrets[0]).toMatch(/^password \(password-in-prose\) •••• \(4 chars\): .* allow it with "password-in-prose:[0-9a-f]{16}"$/);
    expect(secrets[1]).toMatch(/^password \(password-in-prose\) •••• \(8 chars\): .* allow it with "password-in-prose:[0-9a-f]{16}"$/);
    // consolidate shortens and moves what holds only the word; the line holding the password stays.
    const json = await memlintInProcess(repo, ['consolidate', '--check', '--json', 'demo/.claude/memory'], { env });
    expect(JSON.parse(json.stdout).memdirs.map((m: { memdir: string }) => m.memdir)).toEqual([join(repo, 'demo/.claude/memory')]);
    const c = await memlintInProcess(repo, ['consolidate', '--force', 'demo/.claude/memory'], { env });
    expect(c.code).toBe(0);
    expect(readFileSync(join(repo, 'demo/.claude/memory/MEMORY.md'), 'utf8')).toContain('ssh password: `demo`');
  });
});
