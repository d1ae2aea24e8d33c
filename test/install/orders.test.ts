// install, install again, install --local, husky added between installs, uninstall: in any order,
// the last uninstall gives back every file byte for byte as the user left it (the user's own
// edit, adding husky, included) and the local git config as it was; a reinstall after an uninstall
// writes the same files as the first install did.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';
import { files, localConfig, npmInstall, project, sh } from './helpers.js';

type Op = 'install' | 'install --local' | 'add husky' | 'uninstall';

interface Start {
  husky: boolean;
  prepare: string | null;
  gitignore: string | null;
  preCommit: string | null;
  gitattributes: string | null;
}

const start = fc.record<Start>({
  husky: fc.boolean(),
  prepare: fc.constantFrom(null, 'npm run build', 'husky', 'tsc && husky'),
  gitignore: fc.constantFrom(null, 'node_modules\n', 'node_modules', 'node_modules\r\n.env\r\n', 'node_modules\n.consolidate-lock\n'),
  preCommit: fc.constantFrom(null, 'npx lint-staged\n', 'npx lint-staged'),
  gitattributes: fc.constantFrom(null, '*.png binary\n'),
});
const ops = fc.array(fc.constantFrom<Op>('install', 'install', 'install --local', 'add husky', 'uninstall'), { minLength: 1, maxLength: 5 });

/** package.json with husky in devDependencies: the same edit on any version of the file. */
function withHusky(text: string): string {
  const json = JSON.parse(text) as { devDependencies?: Record<string, string> };
  json.devDependencies = { ...json.devDependencies, husky: '9.1.7' };
  return JSON.stringify(json, null, 2) + '\n';
}

function setUp(s: Start): string {
  const pkg: Record<string, unknown> = { name: 'app', private: true, devDependencies: { memlint: '0.1.0', ...(s.husky ? { husky: '9.1.7' } : {}) } };
  if (s.prepare !== null) pkg.scripts = { prepare: s.prepare, test: 'vitest' };
  const dir = project({ husky: s.husky, pkg });
  if (s.gitignore === null) {
    unlinkSync(join(dir, '.gitignore'));
    writeFileSync(join(dir, '.git/info/exclude'), 'node_modules\n');
  }
  writeFiles(dir, {
    ...(s.gitignore !== null ? { '.gitignore': s.gitignore } : {}),
    ...(s.preCommit !== null ? { '.husky/pre-commit': s.preCommit } : {}),
    ...(s.gitattributes !== null ? { '.gitattributes': s.gitattributes } : {}),
  });
  return dir;
}

/** The files a user shares (husky's per-worktree stubs in .husky/_ aside). */
function shared(all: Map<string, string>): Map<string, string> {
  return new Map([...all].filter(([p]) => !p.startsWith('.husky/_/')));
}

const key = (m: Map<string, string>) => JSON.stringify([...m].sort());

describe('install and uninstall in any order', () => {
  // The commands run in this process (the same main() as the CLI): the property is about what
  // install and uninstall write, and runs them some forty times. Each run makes a repository and
  // each command some twenty git calls: 10 runs (ORDERS_RUNS=100 for a longer search).
  it('uninstall gives back every file and the git config byte for byte; a reinstall writes what the first install wrote', async () => {
    await fc.assert(
      fc.asyncProperty(start, ops, async (s, sequence) => {
        const dir = setUp(s);
        const user = files(dir);
        const config = localConfig(dir);
        const installedFrom = new Map<string, Map<string, string>>();
        for (const op of sequence) {
          if (op === 'add husky') {
            writeFileSync(join(dir, 'package.json'), withHusky(readFileSync(join(dir, 'package.json'), 'utf8')));
            user.set('package.json', withHusky(user.get('package.json')!));
            npmInstall(dir);
            continue;
          }
          const r = await memlintInProcess(dir, op.split(' '));
          expect(r.code, `${op}: ${r.stderr}`).toBe(0);
          if (op === 'install') {
            // From the same user state, install writes the same files, whatever ran before.
            const now = shared(files(dir));
            const before = installedFrom.get(key(user));
            if (before) expect(now).toEqual(before);
            else installedFrom.set(key(user), now);
          }
        }
        expect((await memlintInProcess(dir, ['uninstall'])).code).toBe(0);
        expect(files(dir)).toEqual(user);
        expect(localConfig(dir)).toBe(config);
      }),
      { numRuns: Number(process.env.ORDERS_RUNS ?? 10) },
    );
  });
});

describe('a hand-written package.json', () => {
  it('keeps its own layout: install edits only the scripts, uninstall gives the file back byte for byte', async () => {
    const dir = project();
    const handWritten = [
      '{',
      '\t"name": "app",',
      '\t"private": true,',
      '\t"files": ["dist", "docs"],',
      '\t"scripts": {',
      '\t\t"test": "vitest"',
      '\t},',
      '\t"devDependencies": { "husky": "9.1.7", "memlint": "0.1.0" }',
      '}',
      '',
    ].join('\r\n');
    writeFileSync(join(dir, 'package.json'), handWritten);
    git(dir, 'commit', '-qam', 'hand-written package.json');
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    const installed = readFileSync(join(dir, 'package.json'), 'utf8');
    expect(installed).toBe(
      handWritten
        .replace('\t\t"test": "vitest"\r\n', '\t\t"test": "vitest",\r\n\t\t"prepare": "husky && memlint install --local || exit 0"\r\n')
        .replace('"memlint": "0.1.0" }\r\n', '"memlint": "0.1.0" },\r\n\t"config": {\r\n\t\t"memlintPreparedFrom": ""\r\n\t}\r\n'),
    );
    expect((await memlintInProcess(dir, ['uninstall'])).code).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(handWritten);
  });

  it('a scripts object on one line stays on one line, and so does a minified file; uninstall gives each back byte for byte', async () => {
    const oneLine = '{\n  "name": "app",\n  "scripts": { "test": "vitest" },\n  "devDependencies": { "husky": "9.1.7", "memlint": "0.1.0" }\n}\n';
    const minified = '{"name":"app","devDependencies":{"husky":"9.1.7","memlint":"0.1.0"}}';
    for (const handWritten of [oneLine, minified]) {
      const dir = project();
      writeFileSync(join(dir, 'package.json'), handWritten);
      git(dir, 'commit', '-qam', 'hand-written package.json');
      expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
      const installed = readFileSync(join(dir, 'package.json'), 'utf8');
      expect(installed).toBe(
        handWritten === oneLine
          ? oneLine.replace('"scripts": { "test": "vitest" }', '"scripts": { "test": "vitest", "prepare": "husky && memlint install --local || exit 0" }').replace('"memlint": "0.1.0" }\n', '"memlint": "0.1.0" },\n  "config": {\n    "memlintPreparedFrom": ""\n  }\n')
          : minified.replace(/}$/, ',"scripts":{"prepare":"husky && memlint install --local || exit 0"},"config":{"memlintPreparedFrom":""}}'),
      );
      expect((await memlintInProcess(dir, ['uninstall'])).code).toBe(0);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(handWritten);
    }
  });
});

describe("uninstall in a teammate's clone", () => {
  it('gives package.json back byte for byte there too: the original prepare travels with the file, not in one clone\'s git config', async () => {
    for (const prepare of [null, 'node -e 0']) {
      const pkg = { name: 'app', private: true, ...(prepare ? { scripts: { prepare } } : {}), devDependencies: { husky: '9.1.7', memlint: '0.1.0' } };
      const alice = project({ pkg });
      const original = readFileSync(join(alice, 'package.json'), 'utf8');
      const remote = join(tempDir('memlint-remote-'), 'remote.git');
      git(alice, 'clone', '-q', '--bare', alice, remote);
      git(alice, 'remote', 'add', 'origin', remote);
      expect((await memlintInProcess(alice, ['install'])).code).toBe(0);
      git(alice, 'add', '-A');
      git(alice, 'commit', '-q', '--no-verify', '-m', 'memlint install');
      git(alice, 'push', '-q', '--no-verify', 'origin', 'HEAD:main');
      // Bob's clone never ran the first install: npm install runs the prepare script there.
      const bob = join(tempDir('memlint-clone-'), 'bob');
      git(alice, 'clone', '-q', '-b', 'main', remote, bob);
      npmInstall(bob);
      expect(sh(bob, 'npm', ['run', '--silent', 'prepare'])).toMatchObject({ code: 0 });
      expect(git(bob, 'config', '--local', 'merge.memlint.driver')).toContain('merge %O %A %B %L %P');
      expect((await memlintInProcess(bob, ['uninstall'])).code).toBe(0);
      expect([prepare, readFileSync(join(bob, 'package.json'), 'utf8')]).toEqual([prepare, original]);
    }
  });
});
