// action.yml: it parses, every input is documented, and its run: steps execute as a GitHub runner
// executes a composite action (bash --noprofile --norc -eo pipefail, GITHUB_* set, step outputs
// through GITHUB_OUTPUT, `if:` and `${{ }}` evaluated) against a bare origin and fresh clones.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
function runAction(workspace: string, inputs: Record<string, string>, env: Record<string, string>): Run {
  const temp = tempDir('memlint-runner-');
  const summary = join(temp, 'step-summary.md');
  writeFileSync(summary, '');
  const ctx: Context = {
    inputs: Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? ''])),
    github: { action_path: ROOT.replace(/\/+$/, ''), event: { repository: { default_branch: 'main' } } },
    steps: {},
  };
  const base = { ...process.env, HOME: temp, GIT_CONFIG_NOSYSTEM: '1', GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: temp, GITHUB_ACTIONS: 'true', CI: 'true', ...env };
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

  it("docs/ci.md's workflows are valid YAML: GitHub's with jobs and permissions, GitLab's with scripts", () => {
    const ci = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    const blocks = [...ci.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      const doc = parse(block) as Record<string, unknown> | unknown[];
      if (Array.isArray(doc)) continue; // a fragment: steps to add to a job
      if ('jobs' in doc) expect(doc, block.split('\n')[0]).toHaveProperty('permissions');
      else for (const job of Object.values(doc)) expect(job).toHaveProperty('script');
    }
  });

  it('lint: runs the version the lock file names, annotates the pull request, writes the memory change to the step summary', () => {
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
    const r = runAction(workspace, {}, { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', GITHUB_EVENT_NAME: 'pull_request' });
    expect(r.code, r.stdout).toBe(1);
    expect(r.steps).toEqual(['memlint', 'lint', 'summary', 'Fail on lint errors']);
    expect(r.stdout).toContain(`memlint ${VERSION} (${VERSION} from the lock file): ${join(workspace, 'node_modules/.bin/memlint')}`);
    expect(r.stdout).toMatch(new RegExp(`::error file=${MEM}/project_feature\\.md,line=\\d+.*description`));
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.summary).toContain('### Memory changes: `merge base of origin/main and HEAD` → `HEAD`');
    expect(r.summary).toContain('| topic | **added** | `project_feature.md` |');
    expect(r.summary).toMatch(/\| lines \| \d+ \| \d+ \| 200 \|/);
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
