// Precision and recall of the content rules, measured on the labelled corpus in test/corpus
// (see test/corpus/README.md): every corpus document is written out as a real memory folder in a
// real git repository, linted by the program in this process (test/helpers/in-process.ts: the
// same main() as the CLI), and its messages compared with the labels.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { ROOT, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { expectFixHolds } from '../helpers/fix-checks.js';

const CORPUS = join(ROOT, 'test', 'corpus');
const CONTENT_RULES = ['no-secrets', 'no-hidden-unicode', 'no-prompt-injection', 'absolute-dates', 'feedback-structure', 'no-derivable-content', 'user-judgement', 'no-local-addresses'];
// The bar: [precision, recall] minimums (null: not required).
const THRESHOLDS: Record<string, [number, number | null]> = {
  'no-secrets': [0.95, 0.95],
  'no-hidden-unicode': [0.95, 0.95],
  'no-prompt-injection': [0.95, 0.95],
  'absolute-dates': [0.95, 0.95],
  'no-derivable-content': [0.8, null],
  'user-judgement': [0.8, null],
  'feedback-structure': [0.8, null],
  'no-local-addresses': [0.8, null],
};

interface CorpusDoc {
  name: string;
  today: string;
  memory: Map<string, string>;
  repo: Map<string, string>;
  /** "file:line rule" */
  labels: Set<string>;
}

const MARKER = /[ \t]*⟦([^⟧]+)⟧[ \t]*$/;

function parseCorpusDoc(path: string): CorpusDoc {
  const lines = readFileSync(path, 'utf8').split('\n');
  const doc: CorpusDoc = { name: relative(CORPUS, path), today: '2026-04-24', memory: new Map(), repo: new Map(), labels: new Set() };
  for (let i = 0; i < lines.length; i++) {
    const today = /^today:\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(lines[i]!);
    if (today) doc.today = today[1]!;
    const open = /^(`{3,})(\S*)\s+(file|repo)=(\S+)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, fence, , kind, rel] = open;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== fence; i++) body.push(lines[i]!);
    if (kind === 'repo') {
      doc.repo.set(rel!, body.join('\n') + '\n');
      continue;
    }
    const clean = body.map((l, k) => {
      const m = MARKER.exec(l);
      if (!m) return l;
      for (const rule of m[1]!.split(/[\s,]+/).filter(Boolean)) {
        if (!CONTENT_RULES.includes(rule)) throw new Error(`${path}: unknown rule ${rule} in a label`);
        doc.labels.add(`${rel}:${k + 1} ${rule}`);
      }
      return l.slice(0, m.index);
    });
    doc.memory.set(rel!, clean.join('\n') + '\n');
  }
  return doc;
}

const COMMITTED = { GIT_AUTHOR_DATE: '2026-03-10T12:00:00Z', GIT_COMMITTER_DATE: '2026-03-10T12:00:00Z' };

/**
 * The document's repository, made once and copied by each test that lints it: its project files
 * (`repo=` blocks) committed first where it has them or its memory names that commit
 * (`{{commit}}`), then the memory.
 */
const built = new Map<CorpusDoc, string>();
function docRepo(doc: CorpusDoc): string {
  let made = built.get(doc);
  if (!made) {
    made = initRepo(tempDir('memlint-corpus-base-'));
    writeFiles(made, doc.repo);
    let memory = doc.memory;
    if (doc.repo.size > 0 || [...memory.values()].some((t) => t.includes('{{commit}}'))) {
      git(made, 'add', '-A');
      execGit(made, COMMITTED, 'commit', '-q', '--allow-empty', '-m', 'project files');
      // The commit just made, as `git rev-parse --short=9 HEAD` names it (a loose ref in a new repository).
      const head = readFileSync(join(made, '.git', 'refs', 'heads', 'main'), 'utf8').slice(0, 9);
      memory = new Map([...memory].map(([rel, text]) => [rel, text.replaceAll('{{commit}}', head)]));
    }
    writeFiles(join(made, 'mem'), memory);
    git(made, 'add', '-A');
    execGit(made, COMMITTED, 'commit', '-q', '-m', 'memory');
    built.set(doc, made);
  }
  const repo = tempDir('memlint-corpus-');
  cpSync(made, repo, { recursive: true });
  return repo;
}

async function lintDoc(doc: CorpusDoc, allRules: string[]): Promise<Set<string>> {
  const repo = docRepo(doc);
  writeFiles(repo, { '.memlintrc.json': JSON.stringify({ rules: Object.fromEntries(allRules.map((id) => [id, CONTENT_RULES.includes(id) ? 'warn' : 'off'])) }) });
  const r = await memlintInProcess(repo, ['mem', '--format', 'json'], { env: { MEMLINT_TODAY: doc.today } });
  expect(r.stderr).toBe('');
  const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>;
  const actual = new Set<string>();
  for (const f of results) for (const m of f.messages) actual.add(`${relative(join(repo, 'mem'), f.filePath).split('\\').join('/')}:${m.line} ${m.ruleId}`);
  return actual;
}

function execGit(cwd: string, env: Record<string, string>, ...args: string[]) {
  execFileSync('git', args, { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('content rules on the labelled corpus', () => {
  const docs = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort()
    .map((f) => parseCorpusDoc(join(CORPUS, f)));

  it('holds at least 150 memory files, English and Chinese', () => {
    const files = docs.reduce((n, d) => n + d.memory.size, 0);
    expect(files).toBeGreaterThanOrEqual(150);
    const zh = docs.some((d) => [...d.memory.values()].some((t) => /[\u4e00-\u9fff]/.test(t)));
    expect(zh).toBe(true);
  });

  it('--fix with every rule at its default settles in one run and breaks no link or limit', async () => {
    let fixed = 0;
    for (const doc of docs) {
      const repo = docRepo(doc);
      const mem = join(repo, 'mem');
      const read = () => new Map([...doc.memory.keys()].filter((rel) => existsSync(join(mem, rel))).map((rel) => [rel, readFileSync(join(mem, rel), 'utf8')]));
      const before = read().get('MEMORY.md') ?? '';
      const first = await memlintInProcess(repo, ['mem', '--fix'], { env: { MEMLINT_TODAY: doc.today } });
      expect(first.code, `${doc.name}: ${first.stderr}`).toBeLessThan(2);
      if (first.stdout.includes('Fixed ')) fixed++;
      const after = read();
      expectFixHolds(mem, before, after.get('MEMORY.md') ?? '', doc.name);
      const second = await memlintInProcess(repo, ['mem', '--fix'], { env: { MEMLINT_TODAY: doc.today } });
      expect(second.stdout, doc.name).not.toContain('Fixed ');
      expect(read(), doc.name).toEqual(after);
    }
    expect(fixed).toBeGreaterThan(0);
  });

  it('meets the precision and recall bar for every content rule', async () => {
    const allRules = (await memlintInProcess(ROOT, ['lint', '--help', '--rules'])).stdout.trim().split('\n').map((l) => l.split(/\s+/)[0]!);
    const counts = new Map(CONTENT_RULES.map((r) => [r, { tp: 0, fp: 0, fn: 0 }]));
    const misses: string[] = [];
    for (const doc of docs) {
      const actual = await lintDoc(doc, allRules);
      for (const key of new Set([...actual, ...doc.labels])) {
        const rule = key.split(' ')[1]!;
        const c = counts.get(rule);
        if (!c) continue;
        if (actual.has(key) && doc.labels.has(key)) c.tp++;
        else if (actual.has(key)) {
          c.fp++;
          misses.push(`FP ${doc.name} ${key}`);
        } else {
          c.fn++;
          misses.push(`FN ${doc.name} ${key}`);
        }
      }
    }
    const rows = CONTENT_RULES.map((rule) => {
      const { tp, fp, fn } = counts.get(rule)!;
      const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
      const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
      return { rule, tp, fp, fn, precision, recall };
    });
    console.log(
      ['rule                  labelled  TP  FP  FN  precision  recall', ...rows.map((r) => `${r.rule.padEnd(22)}${String(r.tp + r.fn).padStart(8)}${String(r.tp).padStart(4)}${String(r.fp).padStart(4)}${String(r.fn).padStart(4)}${r.precision.toFixed(3).padStart(11)}${r.recall.toFixed(3).padStart(8)}`)].join('\n'),
    );
    if (misses.length) console.log(misses.join('\n'));
    for (const r of rows) {
      const [minP, minR] = THRESHOLDS[r.rule]!;
      expect(r.tp + r.fn, `${r.rule} has labelled cases`).toBeGreaterThan(0);
      expect(r.precision, `${r.rule} precision`).toBeGreaterThanOrEqual(minP);
      if (minR !== null) expect(r.recall, `${r.rule} recall`).toBeGreaterThanOrEqual(minR);
    }
  });
});
