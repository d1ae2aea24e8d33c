// .pre-commit-hooks.yaml, run by the real pre-commit (Debian's package; .ci/run installs it) as a
// user's repository would run it: `pre-commit try-repo` installs memlint the way it installs any
// `language: node` hook (npm install in a clone of this repository, npm pack, npm install -g of
// the tarball) and runs the hooks on a scratch repository. Every connection goes through a proxy
// that records where it leads: none may lead anywhere but the npm registry.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitFiles, git, initRepo, ROOT, tempDir } from '../helpers/repo.js';

interface Run {
  code: number;
  out: string;
}

/** A process run without blocking the event loop (the proxy answers meanwhile). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

/** An HTTP proxy that tunnels CONNECT to wherever it is asked and records each host; plain HTTP is refused (and recorded). */
function recordingProxy() {
  const hosts: string[] = [];
  const server = createServer((req, res) => {
    hosts.push(new URL(req.url ?? '', 'http://unknown').hostname);
    res.writeHead(403).end();
  });
  server.on('connect', (req, socket, head) => {
    const target = new URL(`http://${req.url ?? ''}`);
    hosts.push(target.hostname);
    const upstream = connect(Number(target.port || 443), target.hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { server, hosts };
}

/** This repository as its working tree holds it (tracked and untracked files, not ignored ones), committed once in a new repository. */
function snapshotOfThisRepository(): string {
  const snap = initRepo(tempDir('memlint-precommit-src-'));
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);
  for (const rel of new Set(files)) {
    if (!existsSync(join(ROOT, rel))) continue; // deleted in the working tree
    mkdirSync(dirname(join(snap, rel)), { recursive: true });
    cpSync(join(ROOT, rel), join(snap, rel));
  }
  git(snap, 'add', '-A');
  git(snap, 'commit', '-qm', 'memlint as the working tree holds it');
  return snap;
}

const hooksFile = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<Record<string, unknown>>;

describe('.pre-commit-hooks.yaml', () => {
  it('declares memlint and memlint-fix as node hooks on memory files, and memlint-staged on every commit, each run once per commit', () => {
    expect(hooksFile.map((h) => h.id)).toEqual(['memlint', 'memlint-fix', 'memlint-staged']);
    const files = new RegExp(String(hooksFile[0]!.files));
    for (const h of hooksFile) {
      expect(h.language).toBe('node');
      expect(h.pass_filenames).toBe(false);
    }
    for (const h of hooksFile.slice(0, 2)) expect(h.files).toBe(hooksFile[0]!.files);
    // pre-commit matches no deleted file against `files`: a commit that only deletes memory runs
    // only a hook that always runs.
    expect(hooksFile[2]).toMatchObject({ entry: 'memlint --staged', always_run: true });
    expect(hooksFile[2]!.files).toBeUndefined();
    for (const p of ['.claude/memory/MEMORY.md', '.claude/memory/user_role.md', 'packages/api/.claude/memory/logs/2026/04/2026-04-01.md', '.claude/agent-memory/reviewer/MEMORY.md', '.claude/agent-memory-snapshots/reviewer/feedback_x.md', 'notes/MEMORY.md', '.memlintrc.json'])
      expect(files.test(p), p).toBe(true);
    for (const p of ['README.md', 'docs/install.md', 'src/memory.ts', '.claude/settings.json', 'CLAUDE.md']) expect(files.test(p), p).toBe(false);
    const install = readFileSync(join(ROOT, 'docs/install.md'), 'utf8');
    expect(install).toContain('.pre-commit-config.yaml');
    expect(install).toContain('id: memlint-fix');
    expect(install).toContain('id: memlint-staged');
  });

  describe('run by the real pre-commit (try-repo)', () => {
    const proxy = recordingProxy();
    let env: NodeJS.ProcessEnv;
    let snap: string;
    let user: string;
    let registryHost: string;

    beforeAll(async () => {
      await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
      env = {
        ...process.env,
        PRE_COMMIT_HOME: tempDir('memlint-precommit-home-'),
        HTTPS_PROXY: url,
        HTTP_PROXY: url,
        https_proxy: url,
        http_proxy: url,
        npm_config_proxy: url,
        npm_config_https_proxy: url,
        NO_PROXY: '',
        no_proxy: '',
        npm_config_noproxy: '',
        NO_COLOR: '1',
      };
      registryHost = new URL(execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim()).hostname;
      snap = snapshotOfThisRepository();
      user = initRepo(tempDir('memlint-precommit-user-'));
      cpSync(join(ROOT, 'examples/memory'), join(user, '.claude/memory'), { recursive: true });
      commitFiles(user, { 'src/app.ts': 'export const answer = 42;\n' }, 'a project with a clean memory');
    }, 120_000);
    afterAll(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));

    it("try-repo: installs memlint from this repository and passes a clean memory; pre-commit run: a planted error fails with memlint's message, memlint-fix fixes what it can", async () => {
      // try-repo installs into a store of its own each time: once, with both hooks, on the clean memory.
      const clean = await run('pre-commit', ['try-repo', snap, '--all-files', '--color', 'never'], user, env);
      expect(clean.code, clean.out).toBe(0);
      expect(clean.out).toMatch(/^memlint\.+Passed$/m);
      expect(clean.out).toMatch(/^memlint --fix\.+Passed$/m);

      // As a project adopts it: .pre-commit-config.yaml naming the repository and a revision.
      const rev = git(snap, 'rev-parse', 'HEAD').trim();
      commitFiles(user, { '.pre-commit-config.yaml': `repos:\n  - repo: ${snap}\n    rev: ${rev}\n    hooks:\n      - id: memlint\n      - id: memlint-fix\n` }, 'pre-commit');
      const hook = (id: string) => run('pre-commit', ['run', id, '--all-files', '--color', 'never'], user, env);
      commitFiles(user, { '.claude/memory/project_planted.md': '---\nname: project_planted\ntype: project\n---\n\nNo description.\n' }, 'a memory without a description');
      const planted = await hook('memlint');
      expect(planted.code, planted.out).toBe(1);
      expect(planted.out).toMatch(/^memlint\.+Failed$/m);
      expect(planted.out).toMatch(/\.claude\/memory\/project_planted\.md:1:1 +error +Frontmatter `description` is missing.* frontmatter-required/);

      // memlint-fix: the orphan gets its index entry (pre-commit fails a hook that changed files), then passes.
      commitFiles(user, { '.claude/memory/project_planted.md': '---\nname: project_planted\ndescription: A planted memory for the fixer\ntype: project\n---\n\nThe fixer indexes it.\n\n**Why:** a test.\n\n**How to apply:** never.\n' }, 'describe it');
      const fixed = await hook('memlint-fix');
      expect(fixed.code, fixed.out).toBe(1);
      expect(fixed.out).toContain('files were modified by this hook');
      expect(readFileSync(join(user, '.claude/memory/MEMORY.md'), 'utf8')).toContain('(project_planted.md)');
      git(user, 'add', '-A'); // as the person does before committing again
      const again = await hook('memlint-fix');
      expect(again.code, again.out).toBe(0);
      expect((await hook('memlint')).code).toBe(0);

      // memlint-staged runs on a commit that only deletes memory (pre-commit passes no deleted
      // file to a hook's files pattern, so memlint and memlint-fix are skipped there).
      git(user, 'commit', '-qm', 'the fix');
      commitFiles(user, { '.pre-commit-config.yaml': `repos:\n  - repo: ${snap}\n    rev: ${rev}\n    hooks:\n      - id: memlint\n      - id: memlint-staged\n` }, 'staged hook');
      git(user, 'rm', '-q', '.claude/memory/project_planted.md');
      const staged = await run('pre-commit', ['run', '--color', 'never'], user, env);
      expect(staged.code, staged.out).toBe(1);
      expect(staged.out).toMatch(/^memlint\.+\(no files to check\)Skipped$/m);
      expect(staged.out).toMatch(/^memlint --staged\.+Failed$/m);
      expect(staged.out).toContain('project_planted.md');

      // npm went through the proxy (a ping proves the route), and nothing went anywhere but the registry.
      const ping = await run('npm', ['ping'], user, env);
      expect(ping.code, ping.out).toBe(0);
      expect(proxy.hosts).toContain(registryHost);
      expect(new Set(proxy.hosts)).toEqual(new Set([registryHost]));
    }, 1_200_000);
  });
});
