// One program: dist/cli.js (the launcher) in front of dist/main.mjs, with Node's own compile cache
// (module.enableCompileCache, Node 22.1+) as the only start-up cache. Every format, --staged,
// --fix, a config and a refused memlint.config.mjs print the same through the launcher as
// dist/main.mjs's main() prints, with the compile cache on or off; nothing of the builder's
// temporary folder (dist.next-NNNN/) reaches a stack trace.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, git, memlint, tempDir, writeFiles, type CliResult } from '../helpers/repo.js';
import { inProcess } from '../helpers/in-process.js';
import type { Io } from '../../src/io.js';
import { cleanRepo, topic } from './setup.js';

const DIST = join(ROOT, 'dist');
const PROBLEMS = {
  'reference_tokens.md': topic('Tokens', 'reference', 'Rotate next Thursday.\nghp_abcdefghijklmnopqrstuvwxyz0123456789\npostgres://admin:hunter2secret@db.example.com:5432/app\n'),
  'project_old.md': topic('Old', 'preference'),
  'MEMORY.md': '# Memory\n\n## Project\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n- [Gone](project_gone.md) — missing\n- [Deploys](project_deploys.md) — twice\n',
};

// The program without the launcher: dist/main.mjs's main(), loaded into this process and handed a
// context of its own (test/helpers/in-process.ts), failures reported as the launcher does. One load
// for every case instead of a Node process each; the launcher is the process under test.
const program = (await import(pathToFileURL(join(DIST, 'main.mjs')).href)) as { main: (argv: string[], given: object, io: Io) => Promise<number> };

function direct(cwd: string, args: string[]): Promise<CliResult> {
  return inProcess(cwd, {}, (io) =>
    program.main(args, {}, io).catch((e: Error) => {
      io.stderr.write(`memlint: ${String(e.message).split('\n')[0]}\n`);
      return 2;
    }),
  );
}

/** The launcher's output, held to the program's started directly (and, with `uncached`, to the launcher's without Node's compile cache). */
async function expectSame(cwd: string, args: string[], { uncached = false } = {}): Promise<CliResult> {
  const launcher = memlint(cwd, args);
  expect(launcher, args.join(' ')).toEqual(await direct(cwd, args));
  if (uncached) expect(memlint(cwd, args, { env: { NODE_DISABLE_COMPILE_CACHE: '1' } }), args.join(' ')).toEqual(launcher);
  return launcher;
}

describe('one program', () => {
  it('the build leaves no second linter bundle and no V8 code cache', () => {
    const files = readdirSync(DIST, { recursive: true }).map(String);
    expect(files).toContain('cli.js');
    expect(files).toContain('main.mjs');
    expect(files.some((f) => f.endsWith('.v8cache'))).toBe(false);
    expect(existsSync(join(DIST, 'lint.cjs'))).toBe(false);
    const launcher = readFileSync(join(DIST, 'cli.js'), 'utf8');
    expect(launcher).not.toContain('node:vm');
    expect(launcher).toContain('enableCompileCache');
  });

  it('lints the same every way: every format, lazily loaded dates and secretlint', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    const outputs = new Map<string, CliResult>();
    for (const args of [[], ['--format', 'json'], ['--format', 'sarif'], ['--format', 'github'], ['--format', 'stylish'], ['--quiet'], ['--rule', 'no-secrets=off']]) {
      const launcher = await expectSame(repo, args, { uncached: args.length === 0 });
      expect(launcher.code, args.join(' ')).toBe(1);
      outputs.set(args.join(' '), launcher);
    }
    // The launcher's JSON report, from the run above.
    const json = outputs.get('--format json')!;
    const ids = (JSON.parse(json.stdout) as Array<{ messages: Array<{ ruleId: string }> }>).flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(ids).toEqual(expect.arrayContaining(['absolute-dates', 'no-secrets', 'frontmatter-type', 'index-link-target', 'index-duplicate', 'index-orphan']));
  });

  it('--staged, --fix, usage errors, a config and a refused memlint.config.mjs behave the same', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    git(repo, 'add', '-A');
    expect((await expectSame(repo, ['--staged'], { uncached: true })).code).toBe(1);
    expect((await expectSame(repo, ['--staged', '--format', 'json'])).code).toBe(1);
    expect((await expectSame(repo, ['--frobnicate'])).code).toBe(2);
    writeFileSync(join(repo, 'memlint.config.mjs'), "export default { rules: { 'no-secrets': 'off', 'index-orphan': 'warn' } };\n");
    let r = await expectSame(repo, ['--format', 'json']);
    expect(r.stderr).toMatch(/^memlint: \S*memlint\.config\.mjs is not read: memlint runs no code from the repository/);
    expect(r.stdout).toContain('no-secrets');
    rmSync(join(repo, 'memlint.config.mjs'));
    writeFileSync(join(repo, '.memlintrc.json'), JSON.stringify({ rules: { 'no-secrets': 'off', 'index-orphan': 'warn' } }));
    r = await expectSame(repo, ['--format', 'json']);
    expect(r.stdout).not.toContain('no-secrets');

    const copy = tempDir('memlint-fix-');
    cpSync(repo, copy, { recursive: true });
    const fixed = memlint(repo, ['--fix']);
    const fixedByProgram = await direct(copy, ['--fix']);
    expect(fixed.code).toBe(fixedByProgram.code);
    expect(fixed.stdout.split(repo).join('<repo>')).toBe(fixedByProgram.stdout.split(copy).join('<repo>'));
    expect(fixed.stderr.split(repo).join('<repo>')).toBe(fixedByProgram.stderr.split(copy).join('<repo>'));
    for (const f of Object.keys(PROBLEMS)) {
      expect(readFileSync(join(memdir, f), 'utf8')).toBe(readFileSync(join(copy, '.claude', 'memory', f), 'utf8'));
    }
  });

  it('a copy of dist/ elsewhere lints the same as dist/ (nothing tied to where it was built)', () => {
    const dist = join(tempDir('memlint-dist-'), 'dist');
    cpSync(DIST, dist, { recursive: true });
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    const run = (cli: string) => {
      const r = spawnSync(process.execPath, [cli, '--format', 'json'], { cwd: repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '' } });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const copied = run(join(dist, 'cli.js'));
    expect(copied).toEqual(run(join(DIST, 'cli.js')));
    expect(copied.code).toBe(1);
  });

  it('a stack trace under MEMLINT_DEBUG=1 names files in dist/, never a dist.next-NNNN/ build folder', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, PROBLEMS);
    for (const args of [['no/such/place'], ['--staged', 'no/such/place'], ['hook', '--frobnicate']]) {
      const debug = memlint(repo, args, { env: { MEMLINT_DEBUG: '1' } });
      expect(debug.code, args.join(' ')).toBe(2);
      const frames = debug.stderr.split('\n').filter((l) => /^\s+at /.test(l));
      expect(frames.length, args.join(' ')).toBeGreaterThan(0);
      expect(debug.stderr).not.toMatch(/dist\.(next|old)-\d+/);
      expect(frames.some((l) => l.includes(`${DIST}/`)), debug.stderr).toBe(true);
    }
  });
});
