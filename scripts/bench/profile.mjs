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

function scriptName(url, root) {
  if (!url) return '(native / V8)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  return path.startsWith('/') ? relative(root, path) : path;
}

export function summarizeProfile(file, root, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const self = selfTimes(profile);
  const total = ((profile.endTime ?? 0) - (profile.startTime ?? 0)) / 1000;
  const byFunction = new Map();
  const byScript = new Map();
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const script = scriptName(url, root);
    const fn = `${functionName || '(anonymous)'} ${script}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    // Group node_modules by package and dist chunks by file: the level at which a fix is chosen.
    const group = script.includes('node_modules/')
      ? script.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, 'node_modules/$1')
      : script;
    byScript.set(group, (byScript.get(group) ?? 0) + ms);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms }));
  return { file, totalMs: total, functions: sorted(byFunction), scripts: sorted(byScript) };
}

export function newestProfile(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  return files.length ? join(dir, files[files.length - 1]) : null;
}
