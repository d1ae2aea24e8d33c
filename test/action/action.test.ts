// action.yml: it parses, every input is documented, and its run: steps execute as a GitHub runner
// executes a composite action (bash --noprofile --norc -eo pipefail, GITHUB_* set, step outputs
// through GITHUB_OUTPUT, `if:` and `${{ }}` evaluated) against a bare origin and fresh clones.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitFiles, git, ROOT, tempDir } from '../helpers/repo.js';
import { cloneOf, entry, HEADER, hostedRepo, INDEX, installPackage, MEM, packPackage, topicFile } from '../merge/hosted.js';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

interface Context {
  inputs: Record<string, string>;
  github: Record<string, unknown>;
  steps: Record<string, { outputs: Record<string, string> }>;
}

/** The few expressions action.yml uses: names, 'strings', ==, &&, ||. */
function evaluate(expr: string, ctx: Context): string | boolean {
  const tokens = expr.match(/'[^']*'|==|&&|\|\||[\w.-]+/g) ?? [];
  let i = 0;
  const value = (): string | boolean => {
    const t = tokens[i++]!;
    if (t.startsWith("'")) return t.slice(1, -1);
    if (t === 'true' || t === 'false') return t === 'true';
    let v: unknown = ctx;
    for (const part of t.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    return v === undefined || v === null ? '' : (v as string);
  };
  const compare = () => {
    const a = value();
    if (tokens[i] === '==') {
      i++;
      return String(a) === String(value());
    }
    return a;
  };
  const and = () => {
    let a = compare();
    while (tokens[i] === '&&') {
      i++;
      const b = compare();
      a = a ? b : a;
    }
    return a;
  };
  let a = and();
  while (tokens[i] === '||') {
    i++;
    const b = and();
    a = a ? a : b;
  }
  return a;
}

const interpolate = (s: string, ctx: Context) => s.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => String(evaluate(e, ctx)));

interface Run {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
  steps: string[];
}

function parseOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** Run the composite action's steps in `workspace` as a runner would. */
function runAction(workspace: string, inputs: Record<string, string>, env: Record<string, string>, actionPath = ROOT): Run {
  const temp = tempDir('memlint-runner-');
  const summary = join(temp, 'step-summary.md');
  writeFileSync(summary, '');
  const ctx: Context = {
    inputs: Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? ''])),
    github: { action_path: actionPath.replace(/\/+$/, ''), event: { repository: { default_branch: 'main' } } },
    steps: {},
  };
  // A runner's git: no system config, and a global one of its own that holds nothing (no identity).
  const base = { ...process.env, HOME: temp, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(temp, '.gitconfig'), GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: temp, GITHUB_ACTIONS: 'true', CI: 'true', ...env };
  let stdout = '';
  const ran: string[] = [];
  let code = 0;
  action.runs.steps.forEach((step, n) => {
    if (code !== 0) return; // a failed step stops the rest (no step asks for always())
    if (step.if !== undefined && !evaluate(step.if, ctx)) return;
    const output = join(temp, `output-${n}`);
    writeFileSync(output, '');
    const script = join(temp, `step-${n}.sh`);
    writeFileSync(script, step.run!);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(v, ctx)]));
    const cwd = join(workspace, interpolate(step['working-directory'] ?? '.', ctx));
    expect(step.shell).toBe('bash');
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, encoding: 'utf8', env: { ...base, ...stepEnv, GITHUB_OUTPUT: output } });
    stdout += r.stdout + r.stderr;
    ran.push(step.id ?? step.name ?? String(n));
    if (step.id) ctx.steps[step.id] = { outputs: parseOutputs(output) };
    code = r.status ?? -1;
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, interpolate(v.value, ctx)]));
  return { code, stdout, outputs, summary: readFileSync(summary, 'utf8'), steps: ran };
}

const LOCK = (version: string) => JSON.stringify({ name: 'team-app', lockfileVersion: 3, requires: true, packages: { '': { name: 'team-app', devDependencies: { memlint: version } }, 'node_modules/memlint': { version, dev: true } } }, null, 2) + '\n';
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Lines the runner would take for workflow commands (it trims leading white space). */
const commandLines = (out: string) => out.split(/\r?\n/).map((l) => l.trimStart()).filter((l) => l.startsWith('::'));

/** A committed-looking node_modules/.bin/memlint that leaves a marker file when anything runs it. */
function plantBinary(workspace: string): string {
  const marker = join(tempDir('memlint-marker-'), 'ran');
  const bin = join(workspace, 'node_modules/.bin/memlint');
  rmSync(bin, { force: true });
  mkdirSync(join(workspace, 'node_modules/.bin'), { recursive: true });
  writeFileSync(bin, `#!/bin/sh\necho planted > '${marker}'\necho 0.1.0\n`);
  chmodSync(bin, 0o755);
  return marker;
}

/** The packed package again, its package.json saying `version`. */
function repackAs(tarball: string, version: string): { file: string; manifest: Record<string, unknown> } {
  const dir = tempDir('memlint-repack-');
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  const manifest = JSON.parse(readFileSync(join(dir, 'package/package.json'), 'utf8')) as Record<string, unknown>;
  manifest.version = version;
  writeFileSync(join(dir, 'package/package.json'), JSON.stringify(manifest, null, 2));
  const file = join(dir, `memlint-${version}.tgz`);
  execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
  return { file, manifest };
}

/**
 * An npm registry on 127.0.0.1 serving one package (its packument and tarball), in a process of
 * its own so that the test's synchronous runs do not stall it; requests() lists the paths asked for.
 */
function localRegistry(pkg: { file: string; manifest: Record<string, unknown> }) {
  const dir = tempDir('memlint-registry-');
  const script = `
    const http = require('http'), fs = require('fs'), crypto = require('crypto');
    const [file, manifestJson, dir] = process.argv.slice(1);
    const data = fs.readFileSync(file), manifest = JSON.parse(manifestJson);
    const tgz = '/' + manifest.name + '/-/' + manifest.name + '-' + manifest.version + '.tgz';
    const server = http.createServer((req, res) => {
      fs.appendFileSync(dir + '/requests', req.url + '\\n');
      const base = 'http://127.0.0.1:' + server.address().port;
      if (req.url === '/' + manifest.name) {
        const dist = { tarball: base + tgz, shasum: crypto.createHash('sha1').update(data).digest('hex'), integrity: 'sha512-' + crypto.createHash('sha512').update(data).digest('base64') };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: { ...manifest, dist } } }));
      } else if (req.url === tgz) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(data);
      } else res.writeHead(404).end('{}');
    });
    server.listen(0, '127.0.0.1', () => {
      fs.writeFileSync(dir + '/port.tmp', String(server.address().port));
      fs.renameSync(dir + '/port.tmp', dir + '/port');
    });`;
  const child = spawn(process.execPath, ['-e', script, pkg.file, JSON.stringify(pkg.manifest), dir], { stdio: 'ignore' });
  const portFile = join(dir, 'port');
  // The port file is renamed into place whole; a busy machine may take seconds to start the server.
  for (let i = 0; i < 4800 && !existsSync(portFile); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  return {
    url: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/`,
    requests: () => (existsSync(join(dir, 'requests')) ? readFileSync(join(dir, 'requests'), 'utf8').split('\n').filter(Boolean) : []),
    stop: () => child.kill(),
  };
}

describe('action.yml', () => {
  let tarball: string;
  beforeAll(() => {
    tarball = packPackage();
  });

  it('parses as a composite action whose inputs are all described and documented in docs/ci.md', () => {
    expect(action.runs.using).toBe('composite');
    const ci = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toBeTruthy();
      expect(ci, `docs/ci.md documents input ${name}`).toContain(`| \`${name}\` |`);
    }
    for (const name of Object.keys(action.outputs)) expect(ci, `docs/ci.md documents output ${name}`).toContain(`| \`${name}\` |`);
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'format', 'base']));
    // No input is spliced into a script: they reach the shell only through env.
    for (const step of action.runs.steps) expect(step.run ?? '', step.id).not.toMatch(/\$\{\{/);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('action.yml');
  });

  it("lint: never runs the checkout's node_modules/.bin/memlint (not even --version); the lock file's version is the action's own, so its own build runs", () => {
    const h = hostedRepo({
      onMain: { 'src/app.ts': 'export const answer = 43;\n' },
      onFeature: {
        [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'),
        [`${MEM}/project_feature.md`]: '---\nname: project_feature\ntype: project\n---\n\nNo description.\n',
        'package-lock.json': LOCK(VERSION),
      },
    });
    const workspace = cloneOf(h, 'workspace', 'feature');
    installPackage(workspace, tarball);
    const marker = plantBinary(workspace);
    const r = runAction(workspace, {}, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', GITHUB_EVENT_NAME: 'pull_request' });
    expect(r.code, r.stdout).toBe(1);
    expect(r.steps).toEqual(['memlint', 'lint', 'summary', 'Fail on lint errors']);
    expect(r.stdout).toContain(`memlint ${VERSION} (the action's own build): ${join(ROOT, 'dist/cli.js')}`);
    expect(r.stdout).toMatch(new RegExp(`::error file=${MEM}/project_feature\\.md,line=\\d+.*description`));
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.summary).toContain('### Memory changes: `merge base of origin/main and HEAD` → `HEAD`');
    expect(r.summary).toContain('| topic | **added** | `project_feature.md` |');
    expect(r.summary).toMatch(/\| lines \| \d+ \| \d+ \| 200 \|/);
    expect(existsSync(marker), 'the checkout\'s binary ran').toBe(false);
  });

  it('lint as docs/ci.md uses it, `uses: ./node_modules/memlint` after npm ci: the installed package runs its own build, offline', () => {
    const h = hostedRepo({ onMain: { 'src/app.ts': 'export const answer = 43;\n' }, onFeature: { [`${MEM}/project_feature.md`]: topicFile('project_feature'), [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'), 'package-lock.json': LOCK(VERSION) } });
    const workspace = cloneOf(h, 'workspace', 'feature');
    installPackage(workspace, tarball);
    const own = join(workspace, 'node_modules/memlint');
    const r = runAction(workspace, {}, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', npm_config_offline: 'true' }, own);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`memlint ${VERSION} (the action's own build): ${join(own, 'dist/cli.js')}`);
  });

  it("lint: a lock file naming another version installs that version from the registry, outside the checkout (its .npmrc unread), and runs it", () => {
    const other = '0.0.9-registry';
    const registry = localRegistry(repackAs(tarball, other));
    try {
      const h = hostedRepo({ onMain: { 'src/app.ts': 'export const answer = 43;\n' }, onFeature: { [`${MEM}/project_feature.md`]: topicFile('project_feature'), [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'), 'package-lock.json': LOCK(other), '.npmrc': 'registry=http://127.0.0.1:9/\n' } });
      const workspace = cloneOf(h, 'workspace', 'feature');
      const marker = plantBinary(workspace);
      const userConfig = join(tempDir('memlint-npmrc-'), 'npmrc');
      writeFileSync(userConfig, `registry=${registry.url}\n`);
      const r = runAction(workspace, {}, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', NPM_CONFIG_USERCONFIG: userConfig, npm_config_cache: tempDir('memlint-npm-cache-') });
      expect(r.code, r.stdout).toBe(0);
      expect(r.outputs['memlint-version']).toMatch(/\(the lock file's version, from the registry\)$/);
      expect(r.stdout).toMatch(new RegExp(`: \\S*/memlint-${other.replace(/\./g, '\\.')}/node_modules/memlint/dist/cli\\.js\\n`));
      expect(registry.requests()).toContain(`/memlint/-/memlint-${other}.tgz`);
      expect(existsSync(marker), 'the checkout\'s binary ran').toBe(false);
    } finally {
      registry.stop();
    }
  });

  it('workflow commands: an input, a lock version and a file name holding a line break, a colon or a comma stay inside their annotation', () => {
    const h = hostedRepo({ onMain: { 'src/app.ts': 'export const answer = 43;\n' }, onFeature: { 'package-lock.json': LOCK('1.0.0\n::warning::from-lock') } });
    const workspace = cloneOf(h, 'workspace', 'feature');
    const bad = runAction(workspace, { command: 'lint\n::warning::from-input' }, { GITHUB_BASE_REF: 'main' });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('::error title=memlint::input command must be lint or update-branch, got "lint%0A::warning::from-input"');
    const version = runAction(workspace, { format: 'sarif' }, { GITHUB_BASE_REF: 'main' });
    expect(version.stdout).toContain('::warning title=memlint::memlint version "1.0.0%0A::warning::from-lock" from the lock file is not a plain version');
    for (const r of [bad, version]) expect(commandLines(r.stdout).filter((l) => /^::warning::from/.test(l))).toEqual([]);

    // update-branch: a source file whose name holds a line break, a colon and a comma conflicts.
    const name = 'src/notes\n::warning::from-name,x:y.ts';
    const c = hostedRepo({ onMain: { [name]: 'main\n' }, onFeature: { [name]: 'feature\n' } });
    const clone = cloneOf(c, 'workspace', 'feature');
    const r = runAction(clone, { command: 'update-branch' }, { GITHUB_BASE_REF: '', GITHUB_HEAD_REF: '', GITHUB_EVENT_NAME: 'push' });
    expect(r.code, r.stdout).toBe(1);
    expect(r.outputs.status).toBe('conflict');
    expect(r.stdout).toContain('::error file=src/notes%0A%3A%3Awarning%3A%3Afrom-name%2Cx%3Ay.ts,title=memlint update-branch::');
    expect(commandLines(r.stdout).filter((l) => !l.startsWith('::error file=src/notes%0A'))).toEqual([]);
  });

  it("lint with format sarif: no lock file, so the action's own memlint; clean memory passes", () => {
    const h = hostedRepo({ onMain: { 'src/app.ts': 'export const answer = 43;\n' }, onFeature: { [`${MEM}/user_role.md`]: topicFile('user_role', 'The user leads the payments team', 'user') } });
    const workspace = cloneOf(h, 'workspace', 'feature');
    const r = runAction(workspace, { format: 'sarif' }, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`(the action's own build): ${join(ROOT, 'dist/cli.js')}\n`);
    const sarif = JSON.parse(readFileSync(r.outputs['sarif-file']!, 'utf8')) as { version: string };
    expect(sarif.version).toBe('2.1.0');
    expect(r.summary).toContain('| topic | **edited** | `user_role.md` |');
  });

  it('update-branch on a pull_request event: from the detached merge checkout, works on the head branch', () => {
    const h = hostedRepo({
      onMain: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('feedback_main') },
      onFeature: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature') },
    });
    const workspace = cloneOf(h, 'workspace');
    git(workspace, 'checkout', '-q', '--detach', 'origin/main');
    const r = runAction(workspace, { command: 'update-branch' }, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', GITHUB_EVENT_NAME: 'pull_request' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.status).toBe('merged');
    expect(git(workspace, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('feature');
    expect(git(h.author, 'ls-remote', 'origin', 'refs/heads/feature').split('\t')[0]).toBe(r.outputs.commit);
  });

  it('update-branch: a runner with no git identity merges main in, pushes, and reports the status', () => {
    const h = hostedRepo({
      onMain: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('feedback_main'), [`${MEM}/feedback_main.md`]: topicFile('feedback_main') },
      onFeature: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'), [`${MEM}/project_feature.md`]: topicFile('project_feature') },
    });
    const workspace = join(h.dir, 'workspace');
    expect(spawnSync('git', ['clone', '-q', '-b', 'feature', h.origin, workspace]).status).toBe(0);
    // As a checkout that does not set up tracking leaves it.
    git(workspace, 'branch', '--unset-upstream');
    const r = runAction(workspace, { command: 'update-branch' }, { GITHUB_BASE_REF: '', GITHUB_HEAD_REF: '', GITHUB_EVENT_NAME: 'push' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.status).toBe('merged');
    expect(r.outputs.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(h.author, 'ls-remote', 'origin', 'refs/heads/feature').split('\t')[0]).toBe(r.outputs.commit);
    expect(git(workspace, 'log', '-1', '--format=%an <%ae>').trim()).toBe('github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>');

    // A conflict in a source file: the step fails, annotates the file, and pushes nothing.
    git(h.author, 'checkout', '-q', 'main');
    commitFiles(h.author, { 'src/app.ts': 'export const answer = 1;\n' }, 'main: answer');
    git(h.author, 'push', '-q', 'origin', 'main');
    git(h.author, 'fetch', '-q', 'origin');
    git(h.author, 'checkout', '-q', '-B', 'feature', 'origin/feature');
    commitFiles(h.author, { 'src/app.ts': 'export const answer = 2;\n' }, 'feature: answer');
    git(h.author, 'push', '-q', 'origin', 'feature');
    git(workspace, 'pull', '-q', '--ff-only');
    git(workspace, 'fetch', '-q', 'origin');
    const conflict = runAction(workspace, { command: 'update-branch' }, { GITHUB_BASE_REF: '' });
    expect(conflict.code).toBe(1);
    expect(conflict.outputs.status).toBe('conflict');
    expect(conflict.stdout).toContain('::error file=src/app.ts,title=memlint update-branch::not a memory file');
    expect(git(workspace, 'status', '--porcelain')).toBe('');
  });
});
