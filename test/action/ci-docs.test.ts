// Every workflow in docs/ci.md is complete as written: each one parses, and each step a step needs
// comes before it (the checkout, with the depth the diff needs; Node; the install that puts the
// action in node_modules; the permissions). The update job, which can push, never installs or runs
// anything from the branch it updates.
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/repo.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  'working-directory'?: string;
}
interface Job {
  'runs-on'?: string;
  needs?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}
interface GitLabJob {
  image?: string;
  variables?: Record<string, string | number>;
  script: string[];
}

const ci = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const blocks = [...ci.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const github = blocks.map((b) => parse(b) as Workflow).filter((w) => w && typeof w === 'object' && 'jobs' in w);
const gitlab = blocks.map((b) => parse(b) as Record<string, GitLabJob>).filter((w) => w && typeof w === 'object' && !('jobs' in w));
const dir = (p: unknown) => normalize(String(p ?? '.')).replace(/\/$/, '') || '.';
const isMemlint = (s: Step) => /^\.\/(?:(.+)\/)?node_modules\/memlint$/.test(s.uses ?? '');

describe('docs/ci.md', () => {
  it('holds complete workflows only: no placeholder owner, no fragment', () => {
    expect(ci).not.toMatch(/OWNER\//);
    expect(github.length).toBe(3); // lint, lint with SARIF, update branches
    expect(gitlab.length).toBe(1);
    for (const b of blocks) expect(Array.isArray(parse(b)), b.split('\n')[0]).toBe(false);
    for (const w of github) {
      expect(w.name).toBeTruthy();
      expect(Object.keys(w.on).length).toBeGreaterThan(0);
      expect(w.permissions, w.name).toBeTypeOf('object');
      for (const job of Object.values(w.jobs)) {
        expect(job['runs-on']).toBeTruthy();
        for (const s of job.steps) if (s.uses && !s.uses.startsWith('./')) expect(s.uses).toMatch(/^[\w-]+\/[\w/-]+@v\d+$/);
      }
    }
  });

  it('GitHub: each step has what it needs before it: the checkout (deep enough for the diff), Node, npm ci, permissions', () => {
    let memlintSteps = 0;
    for (const w of github) {
      for (const [name, job] of Object.entries(w.jobs)) {
        const where = `${w.name} / ${name}`;
        job.steps.forEach((step, i) => {
          const before = job.steps.slice(0, i);
          const checkouts = new Map(before.filter((s) => s.uses?.startsWith('actions/checkout@')).map((s) => [dir(s.with?.path), s]));
          const nodeModulesAt = (path: string) => before.some((s) => /\bnpm ci\b/.test(s.run ?? '') && dir(s['working-directory']) === path && before.some((n) => n.uses?.startsWith('actions/setup-node@')));
          if (/^\s*(?:npx memlint|\S*node_modules\/)/m.test(step.run ?? '')) expect(nodeModulesAt(dir(step['working-directory'])), `${where}: npm ci before ${step.run}`).toBe(true);
          if (step.run && /\bnpm ci\b/.test(step.run)) expect(checkouts.has(dir(step['working-directory'])), `${where}: a checkout before npm ci`).toBe(true);
          if (!isMemlint(step)) return;
          memlintSteps++;
          const pkgDir = dir(/^\.\/(?:(.+)\/)?node_modules\/memlint$/.exec(step.uses!)![1]);
          expect(nodeModulesAt(pkgDir), `${where}: setup-node and npm ci in ${pkgDir} before ${step.uses}`).toBe(true);
          const workdir = dir(step.with?.['working-directory']);
          const checkout = checkouts.get(workdir);
          expect(checkout, `${where}: ${workdir} is checked out before memlint runs there`).toBeDefined();
          const command = String(step.with?.command ?? 'lint');
          if (command === 'lint') {
            expect(String(w.permissions.contents ?? job.permissions?.contents), where).toMatch(/^(read|write)$/);
            if (step.with?.summary !== 'false') expect(checkout!.with?.['fetch-depth'], `${where}: the summary's diff needs the base branch and the merge base`).toBe(0);
            if (step.with?.format === 'sarif') {
              expect(w.permissions['security-events'], where).toBe('write');
              const upload = job.steps.slice(i + 1).find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
              expect(upload?.with?.sarif_file, where).toBe(`\${{ steps.${step.id}.outputs.sarif-file }}`);
              expect(upload?.if, `${where}: the SARIF is uploaded when lint finds errors too`).toBe('always()');
            }
          } else {
            expect(command).toBe('update-branch');
            expect(w.permissions.contents, `${where}: update-branch pushes`).toBe('write');
            expect(checkout!.with?.['fetch-depth'], `${where}: the merge needs the history`).toBe(0);
            expect(checkout!.with?.ref, `${where}: the branch to update is checked out`).toBeTruthy();
            // The job can push: memlint comes from another checkout, which keeps no credentials,
            // and no step runs anything in the branch's checkout.
            expect(pkgDir).not.toBe(workdir);
            expect(checkouts.get(pkgDir)?.with?.['persist-credentials'], where).toBe(false);
            for (const s of job.steps) if (s.run) expect(dir(s['working-directory']), `${where}: ${s.run}`).not.toBe(workdir);
            expect(job.steps.filter((s) => s.run).every((s) => /--ignore-scripts/.test(s.run!)), `${where}: no install script runs`).toBe(true);
          }
        });
      }
    }
    expect(memlintSteps).toBe(3);
  });

  it('GitLab: Node, npm ci before memlint, full history; the job that pushes runs nothing of the branches it checks out', () => {
    for (const [name, job] of Object.entries(gitlab[0]!)) {
      expect(job.image, name).toMatch(/^node:(2\d)/);
      const script = job.script.join('\n');
      const install = script.indexOf('npm ci --ignore-scripts');
      expect(install, name).toBeGreaterThanOrEqual(0);
      expect(String(job.variables?.GIT_DEPTH), `${name}: full history for diff and merges`).toBe('0');
      const firstCheckout = script.search(/git\b.*\bcheckout /);
      if (firstCheckout < 0) {
        expect(script.indexOf('npx memlint'), name).toBeGreaterThan(install);
        continue;
      }
      // Checks out merge request branches with a token that can push.
      expect(script.slice(firstCheckout)).not.toMatch(/\bnpx\b|\bnpm\b|node_modules/);
      expect(script).toMatch(/git -c core\.hooksPath=\/dev\/null checkout /);
      expect(script.slice(firstCheckout)).toMatch(/node \/tmp\/memlint\/dist\/cli\.js update-branch/);
      expect(script.indexOf('cp -RL node_modules/memlint /tmp/memlint')).toBeGreaterThan(install);
    }
  });
});
