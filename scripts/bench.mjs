// `npm run bench`: memlint side by side with markdownlint-cli2 and remark-cli, and its own speed
// targets. Builds nothing itself (npm run bench builds first); writes docs/BENCHMARKS.md after a
// full run, bench-work/BENCHMARKS.{quick,partial}.md otherwise, and bench-work/results.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseGitTrace, profilesIn, summarizeProfiles } from './bench/profile.mjs';
import { renderReport } from './bench/report.mjs';
import { ROW_IDS, SIZES, profiledCommand, runRow } from './bench/rows.mjs';
import { PEERS_DIR, peersInstalled } from './bench/peers.mjs';
import { median, rssMethod, runOnce } from './bench/timing.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = join(ROOT, 'bench-work');
const DEFAULT_RUNS = 7;
const PROFILE_RUNS = 5;

const USAGE = `Usage: node scripts/bench.mjs [--quick] [--only ROW]... [--runs N] [--seed S] [--no-profile]
Rows: ${ROW_IDS.join(', ')}`;

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        runs: { type: 'string' },
        seed: { type: 'string' },
        'no-profile': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    return values;
  } catch (err) {
    console.error(`bench: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
}

function log(message, transient = false) {
  if (transient && process.stderr.isTTY) process.stderr.write(`\r${message}   \r`);
  else if (!transient) process.stderr.write(`${message}\n`);
}

function machine(method) {
  const cpu = cpus();
  const gitVersion = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim();
  return {
    CPU: `${cpu[0]?.model ?? 'unknown'}, ${cpu.length} logical cores`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    OS: `Linux ${release()}`,
    Node: process.version,
    git: gitVersion,
    'load average at start (1/5/15 min)': loadavg().map((x) => x.toFixed(2)).join(' / '),
    'peak RSS method': method === 'gnu-time' ? 'GNU time (/usr/bin/time -f %M)' : 'in-process probe (process.resourceUsage().maxRSS)',
    NODE_EXTRA_CA_CERTS: extraCaCerts(method),
  };
}

/**
 * Node (20 at least) loads the certificates NODE_EXTRA_CA_CERTS names at every start, before any
 * code runs. Where it is set, every Node process of every row pays for it, `node -e 0` too, so the
 * ratios against `node -e 0` are smaller than on a machine without it: say so, with both times.
 */
function extraCaCerts(method) {
  if (!process.env.NODE_EXTRA_CA_CERTS) return 'not set';
  const time = (env) => {
    const ms = [];
    for (let i = 0; i < 11; i++) ms.push(runOnce({ argv: [process.execPath, '-e', '0'], cwd: ROOT, env }, method).ms);
    return median(ms).toFixed(1);
  };
  const withIt = time({});
  const without = time({ NODE_EXTRA_CA_CERTS: '' });
  return `set. Node loads the certificates it names at every start, so every Node process here pays for them, \`node -e 0\` included, and each ratio against \`node -e 0\` is lower than where it is unset: \`node -e 0\` took ${withIt} ms with it and ${without} ms without (medians of 11 runs)`;
}

/**
 * One run at a time: rows reset and stage files in the generated repositories, and two runs
 * would also time each other. A lock left by a dead process is taken over.
 */
/**
 * The peers the project does not depend on (scripts/bench/package.json: markdownlint-cli2 needs
 * Node 22, memlint supports Node 20), installed from their own lock once, from npm's cache when it
 * has them, so a second run needs no network.
 */
function installPeers() {
  if (peersInstalled()) return true;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEERS_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !peersInstalled()) {
    console.error('bench: the benchmark peers are not installed and "npm ci" in scripts/bench failed; run it there once with network access');
    return false;
  }
  return true;
}

function takeLock() {
  const lock = join(WORK, '.bench-lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      process.on('exit', () => rmSync(lock, { force: true }));
      return true;
    } catch {
      const pid = Number(readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = pid > 0;
      } catch {
        alive = false;
      }
      if (alive) {
        console.error(`bench: another benchmark run (pid ${pid}) is using bench-work/; wait for it to finish`);
        return false;
      }
      rmSync(lock, { force: true });
    }
  }
  return false;
}

async function main() {
  const opts = parseOptions();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = !!opts.quick;
  const runs = opts.runs ? Number(opts.runs) : quick ? 2 : DEFAULT_RUNS;
  if (!Number.isInteger(runs) || runs < 1) {
    console.error('bench: --runs takes a whole number above 0');
    return 2;
  }
  const only = opts.only ?? [];
  for (const id of only) {
    if (!ROW_IDS.includes(id)) {
      console.error(`bench: unknown row "${id}"\n${USAGE}`);
      return 2;
    }
  }
  const cli = join(ROOT, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.error('bench: dist/cli.js is missing; run "npm run bench" (it builds first) or "npm run build"');
    return 2;
  }
  if (!installPeers()) return 2;
  mkdirSync(join(WORK, 'cache'), { recursive: true });
  if (!takeLock()) return 2;
  const method = rssMethod();
  const ctx = { root: ROOT, work: WORK, cache: join(WORK, 'cache'), cli, seed: opts.seed ?? 'memlint', sizes: quick ? SIZES.quick : SIZES.full, runs, method };
  const startedAt = new Date().toISOString();
  const info = machine(method);

  const floorSamples = [];
  for (let i = 0; i < 5; i++) floorSamples.push(runOnce({ argv: ['true'], cwd: ROOT }, method).ms);
  const floor = { median: median(floorSamples) };

  const rowIds = only.length ? ROW_IDS.filter((id) => only.includes(id)) : ROW_IDS;
  const rows = [];
  for (const id of rowIds) {
    log(`${id}`);
    const row = runRow(ctx, id, log);
    rows.push(row);
    if (row.id !== 'per-file') for (const r of row.ratios) log(`  memlint / ${r.vs}: ${r.median.toFixed(3)}x  (${row.results[0].median.toFixed(1)} ms vs ${row.results.find((x) => x.name === r.vs).median.toFixed(1)} ms)`);
    for (const t of row.targets) log(`  ${t.holds === true ? 'holds ' : t.holds === false ? 'MISSES' : 'n/a   '} ${t.label}: ${t.measured} (${t.limit})`);
  }

  const profiles = [];
  if (!opts['no-profile']) {
    for (const row of rows) {
      if (row.status !== 'ok' || !row.targets.some((t) => t.holds === false || t.stretch?.holds === false)) continue;
      if (row.id === 'per-file') continue; // profiled through the lint rows of the same sizes
      const dir = join(WORK, 'profiles', row.id);
      try {
        const { row: built, cmd } = profiledCommand(ctx, row.id, dir);
        // Cold code is sampled unevenly: average several runs.
        for (let i = 0; i < PROFILE_RUNS; i++) runOnce(cmd, method);
        // Which git processes it starts, and for how long, as git itself measures them.
        const trace = join(dir, 'git-trace2.txt');
        runOnce({ ...cmd, argv: [cmd.argv[0], ...cmd.argv.slice(cmd.argv.indexOf('--cpu-prof-dir') + 2)], env: { ...(cmd.env ?? {}), GIT_TRACE2_PERF: trace } }, method);
        const gitCalls = existsSync(trace) ? parseGitTrace(trace) : [];
        built.teardown?.();
        const files = profilesIn(dir);
        if (files.length) profiles.push({ id: row.id, command: cmd.display ?? cmd.name, gitCalls, ...summarizeProfiles(files, ROOT) });
        log(`profiled ${row.id}: ${files.length} profiles in ${dir}`);
      } catch (err) {
        log(`could not profile ${row.id}: ${err.message}`);
      }
    }
  }

  info['load average at end (1/5/15 min)'] = loadavg().map((x) => x.toFixed(2)).join(' / ');
  const run = {
    startedAt,
    finishedAt: new Date().toISOString(),
    quick,
    runs,
    defaultRuns: DEFAULT_RUNS,
    method,
    nodeCmd: 'node',
    machine: info,
    floor,
    rows,
    profiles,
    rowIds: ROW_IDS,
  };
  const kind = quick ? '.quick' : only.length ? '.partial' : '';
  writeFileSync(join(WORK, `results${kind}.json`), JSON.stringify(run, null, 2) + '\n');
  const report = renderReport(run, { notesFile: join(ROOT, 'scripts', 'bench', 'NOTES.md') });
  const target = quick ? join(WORK, 'BENCHMARKS.quick.md') : only.length ? join(WORK, 'BENCHMARKS.partial.md') : join(ROOT, 'docs', 'BENCHMARKS.md');
  mkdirSync(join(target, '..'), { recursive: true });
  writeFileSync(target, report);
  log(`wrote ${target}`);
  return 0;
}

process.exitCode = await main();
