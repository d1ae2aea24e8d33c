// The cost of each test file of a measured run (docs/development.md, "What the suite costs"):
//   node scripts/suite-cost/report.mjs TRACE COST [TRACE_BEFORE COST_BEFORE] [--top N]
// TRACE: `strace -f -ttt -e trace=execve,clone,clone3,fork,vfork` of the run; COST: what
// file-cpu.ts wrote. Each process start (a successful execve) belongs to the test file its vitest
// worker ran at the time, found up its chain of parents. Prints a Markdown table: CPU seconds
// (worker and children), git and Node starts per file; with a second run (BEFORE), both side by
// side for the files both runs measured.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;

function measure(tracePath, costPath) {
  const files = readFileSync(costPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const byWorker = new Map();
  for (const f of files) byWorker.set(f.pid, [...(byWorker.get(f.pid) ?? []), f]);
  // Process ids are reused over a long run: parents are read as the trace goes, never after.
  const parent = new Map();
  const pending = new Map();
  const starts = new Map();
  const ownerOf = (pid, t) => {
    for (let p = pid, hops = 0; p !== undefined && hops < 100; p = parent.get(p), hops++) {
      const ran = byWorker.get(p);
      if (ran) return ran.find((f) => f.t0 / 1000 - 0.05 <= t && t <= f.t1 / 1000 + 0.05)?.file ?? '(between files)';
    }
    return '(outside the workers)';
  };
  const count = (pid, t, argv) => {
    const file = ownerOf(pid, t);
    const kind = kindOf(argv);
    const c = starts.get(file) ?? { git: 0, node: 0, other: 0 };
    c[kind]++;
    starts.set(file, c);
  };
  for (const line of readFileSync(tracePath, 'utf8').split('\n')) {
    const m = /^(\d+)\s+(\d+\.\d+) (.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const t = Number(m[2]);
    const rest = m[3];
    const resumed = /^<\.\.\. (\w+) resumed>.*= (-?\d+)$/.exec(rest);
    if (resumed) {
      if (/^(?:clone3?|v?fork)$/.test(resumed[1]) && Number(resumed[2]) > 0) parent.set(Number(resumed[2]), pid);
      if (resumed[1] === 'execve' && pending.has(pid) && resumed[2] === '0') count(pid, t, pending.get(pid));
      if (resumed[1] === 'execve') pending.delete(pid);
      continue;
    }
    const call = /^(\w+)\(/.exec(rest)?.[1];
    if (call && /^(?:clone3?|v?fork)$/.test(call)) {
      const child = /= (\d+)$/.exec(rest);
      if (child) parent.set(Number(child[1]), pid);
    } else if (call === 'execve') {
      const list = /\[(.*?)\]/.exec(rest)?.[1] ?? '';
      const argv = [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]);
      if (rest.includes('<unfinished')) pending.set(pid, argv);
      else if (/= 0$/.test(rest)) count(pid, t, argv);
    }
  }
  // Only the test files: starts between two files or outside the workers (the global setup) are left out.
  const out = new Map();
  for (const f of files) out.set(f.file, { cpu: f.self + f.kids, ...(starts.get(f.file) ?? { git: 0, node: 0, other: 0 }) });
  return out;
}

function kindOf(argv) {
  const name = (argv[0] ?? '').split('/').pop();
  if (name === 'git' || name.startsWith('git-')) return 'git';
  if (name === 'node' || name === 'nodejs') return 'node';
  return 'other';
}

const after = measure(args[0], args[1]);
const before = args[2] ? measure(args[2], args[3]) : null;
const root = new URL('../..', import.meta.url).pathname;
const name = (f) => (f.startsWith(root) ? f.slice(root.length) : f);
const sum = (m, k) => [...m.values()].reduce((s, c) => s + c[k], 0);
const zero = { cpu: 0, git: 0, node: 0, other: 0 };
// With two runs, the files both measured (a run that stopped early measured fewer).
const ranked = [...after.keys()].filter((f) => !before || before.has(f)).sort((a, b) => ((before ?? after).get(b) ?? zero).cpu - ((before ?? after).get(a) ?? zero).cpu);
const cells = (c) => [c.cpu.toFixed(1), c.git, c.node, c.other];
if (before) {
  console.log('| test file | CPU s | | git starts | | Node starts | | other starts | |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of ranked.slice(0, top)) {
    const [a, b] = [cells(before.get(f) ?? zero), cells(after.get(f) ?? zero)];
    console.log(`| ${name(f)} | ${a.map((x, i) => `${x} | ${b[i]}`).join(' | ')} |`);
  }
  const total = (m) => {
    const both = new Map(ranked.map((f) => [f, m.get(f)]));
    return { cpu: sum(both, 'cpu'), git: sum(both, 'git'), node: sum(both, 'node'), other: sum(both, 'other') };
  };
  const [a, b] = [cells(total(before)), cells(total(after))];
  console.log(`| all ${ranked.length} files | ${a.map((x, i) => `${x} | ${b[i]}`).join(' | ')} |`);
} else {
  console.log('| test file | CPU s | git starts | Node starts | other starts |');
  console.log('|---|---:|---:|---:|---:|');
  for (const f of ranked.slice(0, top)) console.log(`| ${name(f)} | ${cells(after.get(f)).join(' | ')} |`);
  console.log(`| all ${after.size} files | ${sum(after, 'cpu').toFixed(1)} | ${sum(after, 'git')} | ${sum(after, 'node')} | ${sum(after, 'other')} |`);
}
