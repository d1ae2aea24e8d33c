// dist/lint.cjs started from its V8 code cache (src/code-cache.ts) must lint exactly as the ES
// module program does (MEMLINT_NO_CODE_CACHE=1), including what it loads lazily: chrono-node for
// dates, secretlint, a memlint.config.mjs. Without a cache for this Node it runs the program.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { codeCachePath, wrapCommonJs } from '../../src/code-cache.js';
import { ROOT, git, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { cleanRepo, topic } from './setup.js';

const DIST = join(ROOT, 'dist');
const PROBLEMS = {
  'reference_tokens.md': topic('Tokens', 'reference', 'Rotate next Thursday.\nghp_abcdefghijklmnopqrstuvwxyz0123456789\npostgres://admin:hunter2secret@db.example.com:5432/app\n'),
  'project_old.md': topic('Old', 'preference'),
  'MEMORY.md': '# Memory\n\n## Project\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n- [Gone](project_gone.md) — missing\n- [Deploys](project_deploys.md) — twice\n',
};

function bothWays(cwd: string, args: string[]) {
  const cached = memlint(cwd, args);
  const program = memlint(cwd, args, { env: { MEMLINT_NO_CODE_CACHE: '1' } });
  return { cached, program };
}

describe('the code cache', () => {
  it('exists for this Node after the build, and V8 accepts it', () => {
    const file = join(DIST, 'lint.cjs');
    const cachedData = readFileSync(codeCachePath(DIST));
    const script = new Script(wrapCommonJs(readFileSync(file, 'utf8')), { filename: file, cachedData });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('lints as the program does: every format, lazily loaded dates and secretlint', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    for (const args of [[], ['--format', 'json'], ['--format', 'sarif'], ['--format', 'github'], ['--quiet'], ['--rule', 'no-secrets=off']]) {
      const { cached, program } = bothWays(repo, args);
      expect(cached, args.join(' ')).toEqual(program);
    }
    const { cached } = bothWays(repo, ['--format', 'json']);
    const ids = (JSON.parse(cached.stdout) as Array<{ messages: Array<{ ruleId: string }> }>).flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(ids).toEqual(expect.arrayContaining(['absolute-dates', 'no-secrets', 'frontmatter-type', 'index-link-target', 'index-duplicate', 'index-orphan']));
  });

  it('--staged, --fix, usage errors, a config and a refused memlint.config.mjs behave the same', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    git(repo, 'add', '-A');
    let both = bothWays(repo, ['--staged']);
    expect(both.cached).toEqual(both.program);
    expect(both.cached.code).toBe(1);
    both = bothWays(repo, ['--frobnicate']);
    expect(both.cached).toEqual(both.program);
    expect(both.cached.code).toBe(2);
    writeFileSync(join(repo, 'memlint.config.mjs'), "export default { rules: { 'no-secrets': 'off', 'index-orphan': 'warn' } };\n");
    both = bothWays(repo, ['--format', 'json']);
    expect(both.cached).toEqual(both.program);
    expect(both.cached.stderr).toMatch(/^memlint: \S*memlint\.config\.mjs is not read: memlint runs no code from the repository/);
    expect(both.cached.stdout).toContain('no-secrets');
    rmSync(join(repo, 'memlint.config.mjs'));
    writeFileSync(join(repo, '.memlintrc.json'), JSON.stringify({ rules: { 'no-secrets': 'off', 'index-orphan': 'warn' } }));
    both = bothWays(repo, ['--format', 'json']);
    expect(both.cached).toEqual(both.program);
    expect(both.cached.stdout).not.toContain('no-secrets');

    const copy = tempDir('memlint-fix-');
    cpSync(repo, copy, { recursive: true });
    const fixed = memlint(repo, ['--fix']);
    const fixedByProgram = memlint(copy, ['--fix'], { env: { MEMLINT_NO_CODE_CACHE: '1' } });
    expect(fixed).toEqual(fixedByProgram);
    for (const f of Object.keys(PROBLEMS)) {
      expect(readFileSync(join(memdir, f), 'utf8')).toBe(readFileSync(join(copy, '.claude', 'memory', f), 'utf8'));
    }
  });

  it('without a cache for this Node (another Node version) the program lints', () => {
    const dist = join(tempDir('memlint-dist-'), 'dist');
    cpSync(DIST, dist, { recursive: true });
    rmSync(codeCachePath(dist));
    expect(existsSync(join(dist, 'lint.cjs'))).toBe(true);
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    const run = (cli: string) => {
      const r = memlintWith(cli, repo, ['--format', 'json']);
      return { code: r.code, stdout: r.stdout.split(repo).join('<repo>') };
    };
    expect(run(join(dist, 'cli.js'))).toEqual(run(join(DIST, 'cli.js')));
  });

  it('a cache V8 refuses (here: a damaged one) costs speed, not correctness', () => {
    const dist = join(tempDir('memlint-dist-'), 'dist');
    cpSync(DIST, dist, { recursive: true });
    const cache = readFileSync(codeCachePath(dist));
    writeFileSync(codeCachePath(dist), cache.subarray(0, 64));
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    const a = memlintWith(join(dist, 'cli.js'), repo, ['--format', 'json']);
    const b = memlintWith(join(DIST, 'cli.js'), repo, ['--format', 'json']);
    expect(a).toEqual(b);
  });

  it('a cache the build cannot save is one line on stderr; the lint result stands', () => {
    const dist = join(tempDir('memlint-dist-'), 'dist');
    cpSync(DIST, dist, { recursive: true });
    rmSync(codeCachePath(dist));
    mkdirSync(codeCachePath(dist)); // a folder where the file would go: the rename fails
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    const r = spawnSync(process.execPath, [join(dist, 'cli.js'), '--format', 'json'], { cwd: repo, encoding: 'utf8', env: { ...process.env, MEMLINT_BUILD_CODE_CACHE: '1', MEMLINT_DEBUG: '' } });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(memlintWith(join(DIST, 'cli.js'), repo, ['--format', 'json']).stdout));
    expect(r.stderr).toMatch(/^memlint: cannot save the code cache: [^\n]+\n$/);
  });
});

function memlintWith(cli: string, cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
