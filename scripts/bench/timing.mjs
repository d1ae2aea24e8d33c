// Whole-process timing: wall time from Node's monotonic clock around a synchronous spawn, peak
// RSS from the kernel's rusage of the finished child, read by GNU time (`/usr/bin/time -f %M`,
// which takes it from wait4()). Without /usr/bin/time, Node processes report their own peak
// through a preloaded probe (process.resourceUsage().maxRSS at exit) and others report none.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GNU_TIME = '/usr/bin/time';
const PROBE = fileURLToPath(new URL('./rss-probe.cjs', import.meta.url));

export function rssMethod() {
  if (process.env.MEMLINT_BENCH_RSS === 'probe') return 'node-probe';
  if (existsSync(GNU_TIME)) {
    const r = spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' });
    if (r.status === 0 && /^\d+\s*$/.test(r.stderr.trim().split('\n').pop() ?? '')) return 'gnu-time';
  }
  return 'node-probe';
}

const scratch = mkdtempSync(join(tmpdir(), 'memlint-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * Run one command once. `cmd` = { argv: [file, ...args], cwd, env?, prepare?() }.
 * `prepare` runs before the clock starts (e.g. restoring a file the command rewrites).
 * Returns { ms, rssKb (null if unknown), code, stderr (first 2 KB) }.
 */
export function runOnce(cmd, method, { capture = false } = {}) {
  if (cmd.prepare) cmd.prepare();
  const rssFile = join(scratch, 'rss');
  rmSync(rssFile, { force: true });
  let file = cmd.argv[0];
  let args = cmd.argv.slice(1);
  let env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...(cmd.env ?? {}) };
  if (method === 'gnu-time') {
    args = ['-f', '%M', '-o', rssFile, '--', file, ...args];
    file = GNU_TIME;
  } else {
    env = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(), MEMLINT_BENCH_RSS_FILE: rssFile };
  }
  const stdin = cmd.input === undefined ? 'ignore' : 'pipe';
  const stdio = capture ? [stdin, 'pipe', 'pipe'] : [stdin, 'ignore', 'pipe'];
  const start = process.hrtime.bigint();
  const r = spawnSync(file, args, { cwd: cmd.cwd, env, stdio, maxBuffer: 1 << 28, encoding: 'utf8', ...(cmd.input === undefined ? {} : { input: cmd.input }) });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw new Error(`cannot run ${cmd.argv.join(' ')}: ${r.error.message}`);
  let rssKb = null;
  if (existsSync(rssFile)) {
    // GNU time writes "Command exited with non-zero status N" before the figure; take the last number.
    // The probe appends one figure per Node process; the peak of any one process counts.
    const nums = readFileSync(rssFile, 'utf8').match(/^\d+$/gm);
    if (nums) rssKb = method === 'gnu-time' ? Number(nums[nums.length - 1]) : Math.max(...nums.map(Number));
  }
  return { ms, rssKb, code: r.status ?? 128 + 1, stdout: r.stdout ?? '', stderr: capture ? r.stderr ?? '' : (r.stderr ?? '').slice(0, 2048) };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Time commands against each other: one warm-up each, then `runs` rounds, each round running
 * every command once (order reversed on odd rounds, so neither always goes first). Ratios are
 * taken within a round: subject (commands[0]) over each other command.
 */
export function compare(commands, { runs, method, onProgress }) {
  const samples = commands.map(() => ({ ms: [], rssKb: [], codes: new Set() }));
  const warm = commands.map((c) => runOnce(c, method));
  for (let round = 0; round < runs; round++) {
    const order = commands.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const r = runOnce(commands[i], method);
      samples[i].ms.push(r.ms);
      if (r.rssKb !== null) samples[i].rssKb.push(r.rssKb);
      samples[i].codes.add(r.code);
    }
    onProgress?.(round + 1);
  }
  const results = commands.map((c, i) => ({
    name: c.name,
    display: c.display,
    ms: samples[i].ms,
    median: median(samples[i].ms),
    min: Math.min(...samples[i].ms),
    max: Math.max(...samples[i].ms),
    rssKb: samples[i].rssKb.length ? median(samples[i].rssKb) : null,
    rssMaxKb: samples[i].rssKb.length ? Math.max(...samples[i].rssKb) : null,
    codes: [...samples[i].codes].sort(),
    warmCode: warm[i].code,
  }));
  const ratios = results.slice(1).map((other) => {
    const per = results[0].ms.map((t, k) => t / other.ms[k]);
    // Noise only ever adds time, so the fastest runs are the least disturbed: their ratio is a
    // second opinion when the machine is busy (the targets use the median of per-round ratios).
    const fastest = Math.min(...results[0].ms) / Math.min(...other.ms);
    return { vs: other.name, median: median(per), min: Math.min(...per), max: Math.max(...per), fastest, per };
  });
  return { results, ratios };
}
