// Reads a V8 .cpuprofile (written by `node --cpu-prof`) and says where the time went: self time
// per function and per script, so a missed target names its cause.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Self time (ms) per node id, from the sample stream. */
function selfTimes(profile) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attribute the gap after it to it instead.
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  return self;
}

const sourceMaps = new Map();

/**
 * For a bundled chunk, the source module of each line, from esbuild's `// src/...` and
 * `// node_modules/...` markers, so a profile of dist/ names the file to fix.
 */
function moduleAt(path, line) {
  let marks = sourceMaps.get(path);
  if (marks === undefined) {
    marks = [];
    try {
      readFileSync(path, 'utf8').split('\n').forEach((text, i) => {
        const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(text);
        if (m) marks.push([i, m[1]]);
      });
    } catch {
      // not readable: keep the chunk's own name
    }
    sourceMaps.set(path, marks);
  }
  let found = null;
  for (const [at, name] of marks) {
    if (at > line) break;
    found = name;
  }
  return found;
}

function scriptName(url, root) {
  if (!url) return '(native / V8)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  return path.startsWith('/') ? relative(root, path) : path;
}

/** Self time per function and per source module, averaged over the given profiles of one command. */
export function summarizeProfiles(files, root, top = 12) {
  const byFunction = new Map();
  const byScript = new Map();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    const self = selfTimes(profile);
    total += ((profile.endTime ?? 0) - (profile.startTime ?? 0)) / 1000;
    for (const node of profile.nodes) {
      const ms = self.get(node.id) ?? 0;
      if (!ms) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      let script = scriptName(url, root);
      if (url.startsWith('file://') && script.startsWith('dist/')) {
        const source = moduleAt(new URL(url).pathname, lineNumber);
        if (source) script = `${source} (in ${script})`;
      }
      const fn = `${functionName || '(anonymous)'} ${script}${url && !script.includes(' (in ') ? `:${lineNumber + 1}` : ''}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      // Group node_modules by package and bundled code by source module: the level at which a fix is chosen.
      const group = script.includes('node_modules/')
        ? script.replace(/^.*?node_modules\/((?:@[^/]+\/)?[^/ ]+).*$/, 'node_modules/$1')
        : script.replace(/ \(in .*\)$/, '');
      byScript.set(group, (byScript.get(group) ?? 0) + ms);
    }
  }
  const n = files.length || 1;
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms: ms / n }));
  return { files, runs: files.length, totalMs: total / n, functions: sorted(byFunction), scripts: sorted(byScript) };
}

export function profilesIn(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().map((f) => join(dir, f));
}

/**
 * The git processes a command started and how long each ran, from git's own trace2 "perf"
 * stream (GIT_TRACE2_PERF=<file>): the `start` line names the command, the matching `exit`
 * line gives its elapsed time. Only top-level git processes (depth d0) are listed. The lines of
 * processes that overlap (the driver's git calls while `git merge` runs it) interleave, and the
 * stream names no process: an exit is matched with the start of the same process, the one whose
 * wall-clock time less its elapsed time (when that process began) is the nearest.
 */
export function parseGitTrace(file) {
  const calls = [];
  const open = [];
  const began = (f) => wallSeconds(f[0]) - Number(f[5]);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('|').map((x) => x.trim());
    if (f.length < 9 || f[1] !== 'd0') continue;
    if (f[3] === 'start') {
      const call = { argv: f[8], ms: null, began: began(f) };
      calls.push(call);
      open.push(call);
    } else if (f[3] === 'exit' && open.length) {
      const at = began(f);
      let best = 0;
      for (let i = 1; i < open.length; i++) if (Math.abs(open[i].began - at) < Math.abs(open[best].began - at)) best = i;
      open.splice(best, 1)[0].ms = Number(f[5]) * 1000;
    }
  }
  return calls.map(({ argv, ms }) => ({ argv, ms }));
}

/** Seconds since midnight from trace2's "HH:MM:SS.ffffff" (the first field of a perf line, before the source location). */
function wallSeconds(field) {
  const m = /(\d{2}):(\d{2}):(\d{2}\.\d+)/.exec(field);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}
