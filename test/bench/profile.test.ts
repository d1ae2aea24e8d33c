// The bench's reading of git's trace2 perf stream: processes that overlap write interleaved lines
// and the stream names no process, so each exit must go to its own start.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGitTrace } from '../../scripts/bench/profile.mjs';
import { initRepo, tempDir } from '../helpers/repo.js';

describe('parseGitTrace', () => {
  it('gives each git process its own elapsed time when their lines interleave', async () => {
    const repo = initRepo(tempDir('memlint-trace-'));
    const trace = join(tempDir('memlint-trace-out-'), 'trace.txt');
    const env = { ...process.env, GIT_TRACE2_PERF: trace };
    // A long git process (it waits for its stdin), and short ones that start and end inside it.
    const long = spawn('git', ['hash-object', '--stdin'], { cwd: repo, env, stdio: ['pipe', 'ignore', 'ignore'] });
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i++) expect(spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: repo, env }).status).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    long.stdin.end('text\n');
    await new Promise((r) => long.on('close', r));
    const calls = parseGitTrace(trace);
    expect(calls.map((c) => c.argv)).toEqual(['git hash-object --stdin', ...Array(3).fill('git rev-parse --show-toplevel')]);
    // The long one outlived the three that ran inside it (a first-come pairing gives it the first
    // short one's time, and the last short one its own).
    for (const c of calls.slice(1)) expect(c.ms).not.toBeNull();
    expect(calls[0]!.ms!).toBeGreaterThan(calls.slice(1).reduce((sum, c) => sum + c.ms!, 0));
  });
});
