// Runs every lint fixture under test/fixtures/<rule-id>/: each file states its own expected output.
// Each runs the program in this process (test/helpers/in-process.ts) in a fresh repository; a few
// run through the built CLI as well, which must print exactly the same.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFixture } from '../helpers/fixture.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { ROOT, memlint, tempDir, writeFiles, initRepo, git, type CliResult } from '../helpers/repo.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const dirs = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory());

// `{{1..N}}` in a file name makes N files; in a line of a block, N lines (each with the number in
// place of the template). Size rules need hundreds of lines or files: the fixture stays short.
const RANGE_RE = /\{\{(\d+)\.\.(\d+)\}\}/;

function expandRange(text: string, make: (n: number) => string): string[] | null {
  const m = RANGE_RE.exec(text);
  if (!m) return null;
  const out: string[] = [];
  for (let n = Number(m[1]); n <= Number(m[2]); n++) out.push(make(n));
  return out;
}

function expandTemplates(files: Map<string, string>): Map<string, string> {
  const expandText = (text: string) =>
    text
      .split('\n')
      .flatMap((line) => expandRange(line, (n) => line.replace(RANGE_RE, String(n)).replace(/\{\{n\}\}/g, String(n))) ?? [line])
      .join('\n');
  const out = new Map<string, string>();
  for (const [name, content] of files) {
    const names = expandRange(name, (n) => String(n));
    if (names) for (const n of names) out.set(name.replace(RANGE_RE, n), expandText(content).replace(/\{\{n\}\}/g, n));
    else out.set(name, expandText(content));
  }
  return out;
}

// An empty repository made once and copied for each fixture: copying its .git folder costs less than
// the five git calls that set one up.
let template: string | undefined;
function freshRepo(): string {
  template ??= initRepo(tempDir('memlint-fx-template-'));
  const repo = tempDir('memlint-fx-');
  cpSync(join(template, '.git'), join(repo, '.git'), { recursive: true });
  return repo;
}

type Runner = (cwd: string, args: string[], opts: { env?: Record<string, string> }) => CliResult | Promise<CliResult>;

async function runFixture(file: string, run: Runner = memlintInProcess) {
  const parsed = parseFixture(file);
  const fx = { ...parsed, files: expandTemplates(parsed.files), fixed: expandTemplates(parsed.fixed) };
  const repo = freshRepo();
  const memdir = join(repo, 'mem');
  const staged = parsed.head.size > 0;
  if (staged) {
    // HEAD holds the `head=` files; the `file=` files are the staged change (the memdir replaced:
    // removed here, and what `git add -A` below finds missing it stages as deleted).
    writeFiles(repo, expandTemplates(new Map([...parsed.head].map(([rel, text]) => [`mem/${rel}`, text]))));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'head');
    rmSync(memdir, { recursive: true, force: true });
  }
  writeFiles(repo, parsed.repo);
  // Renames and deletions in a commit of their own, after the files were committed: expected
  // messages name it as {commit} ({date}).
  let moved: { commit: string; full: string; date: string } | undefined;
  if (parsed.moves.size > 0) {
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'code');
    for (const [from, to] of parsed.moves) {
      if (to === null) git(repo, 'rm', '-q', from);
      else {
        mkdirSync(dirname(join(repo, to)), { recursive: true });
        git(repo, 'mv', from, to);
      }
    }
    git(repo, 'commit', '-qm', 'move');
    const [commit, full, date] = git(repo, 'log', '-1', '--format=%h %H %cs').trim().split(' ');
    moved = { commit: commit!, full: full!, date: date! };
  }
  // A memory may name that commit too: `{commit}` in a file= block is its full id.
  writeFiles(memdir, moved ? new Map([...fx.files].map(([rel, text]) => [rel, text.split('{commit}').join(moved!.full)])) : fx.files);
  git(repo, 'add', '-A');
  if (parsed.committed) {
    const at = `${parsed.committed}T12:00:00`;
    execFileSync('git', ['commit', '-qm', 'memory'], { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at } });
  }
  const env: Record<string, string> = fx.today ? { MEMLINT_TODAY: fx.today } : {};
  // Only the rules under test run, at their default severities.
  const config = { rules: Object.fromEntries(ALL_RULES.map((id) => [id, fx.rules.includes(id) ? DEFAULTS.get(id)! : 'off'])), ...(fx.claudeCode ? { claudeCode: fx.claudeCode } : {}) };
  writeFiles(repo, { '.memlintrc.json': JSON.stringify(config) });
  const r = await run(repo, staged ? ['--staged', '--format', 'json'] : ['mem', '--format', 'json'], { env });
  expect(r.stderr).toBe('');
  const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; severity: number; message: string; line: number; column: number }> }>;
  const named = (message: string) => (moved ? message.split(moved.full).join('{commit}').split(moved.commit).join('{commit}').split(`(${moved.date})`).join('({date})') : message);
  const actual = results.flatMap((res) => res.messages.map((m) => `${relative(memdir, res.filePath)}:${m.line}:${m.column} ${m.ruleId} ${named(m.message)}`));
  return { fx, repo, memdir, actual, env, stdout: r.stdout.split(repo).join('<repo>'), code: r.code };
}

const listing = (await memlintInProcess(ROOT, ['lint', '--help', '--rules'])).stdout.trim().split('\n');
const ALL_RULES = listing.map((l) => l.split(/\s+/)[0]!);
const DEFAULTS = new Map(listing.map((l) => [l.split(/\s+/)[0]!, l.split(/\s+/)[1]!]));

for (const d of dirs) {
  describe(d.name, () => {
    const files = readdirSync(join(FIXTURES, d.name)).filter((f) => f.endsWith('.md'));
    it('has fixtures', () => {
      expect(files.length).toBeGreaterThan(0);
    });
    for (const f of files) {
      it(f, async () => {
        const { fx, memdir, actual, env, repo } = await runFixture(join(FIXTURES, d.name, f));
        expect(fx.rules).toContain(d.name);
        expect(actual).toEqual(fx.expected);
        if (fx.fixed.size > 0) {
          const r = await memlintInProcess(repo, ['mem', '--fix'], { env });
          expect(r.code).toBeLessThan(2);
          for (const [rel, want] of fx.fixed) {
            const p = join(memdir, rel);
            expect(existsSync(p), `${rel} exists after --fix`).toBe(true);
            expect(readFileSync(p, 'utf8')).toBe(want);
          }
          // A second run finds nothing more to fix.
          const again = await memlintInProcess(repo, ['mem', '--fix'], { env });
          expect(again.stdout).not.toContain('Fixed ');
        }
      });
    }
  });
}

// The built CLI prints what the in-process program prints: for the rule listing, a plain fixture,
// a staged one (`head=` blocks) and one with --fix, whose fixed files must match too.
describe('through the built CLI', () => {
  it('lists the same rules', () => {
    expect(memlint(ROOT, ['lint', '--help', '--rules']).stdout.trim().split('\n')).toEqual(listing);
  });
  const all = dirs.flatMap((d) => readdirSync(join(FIXTURES, d.name)).filter((f) => f.endsWith('.md')).map((f) => join(FIXTURES, d.name, f)));
  const text = (f: string) => readFileSync(f, 'utf8');
  const picks = [
    all.find((f) => !/```\w*\s+(head|fixed)=/.test(text(f)) && !/\{\{/.test(text(f)))!,
    all.find((f) => /```\w*\s+head=/.test(text(f)))!,
    all.find((f) => /```\w*\s+fixed=/.test(text(f)))!,
  ];
  for (const file of picks) {
    it(relative(FIXTURES, file), async () => {
      const viaCli = await runFixture(file, memlint);
      const inProcess = await runFixture(file, memlintInProcess);
      expect(viaCli.actual).toEqual(viaCli.fx.expected);
      expect(viaCli.stdout).toBe(inProcess.stdout);
      expect(viaCli.code).toBe(inProcess.code);
      if (viaCli.fx.fixed.size > 0) {
        const cli = memlint(viaCli.repo, ['mem', '--fix'], { env: viaCli.env });
        const own = await memlintInProcess(inProcess.repo, ['mem', '--fix'], { env: inProcess.env });
        expect(cli.code).toBe(own.code);
        expect(cli.stdout).toBe(own.stdout);
        for (const rel of viaCli.fx.fixed.keys()) expect(readFileSync(join(viaCli.memdir, rel), 'utf8')).toBe(readFileSync(join(inProcess.memdir, rel), 'utf8'));
      }
    });
  }
});
