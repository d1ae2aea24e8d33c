// Human-readable and JSON accounts of a consolidation.
import { join, relative } from 'node:path';
import { ARCHIVE_INDEX } from '../memdir/kinds.js';
import type { Outcome } from './run.js';
import type { Plan } from './plan.js';
import { unifiedDiff } from './diff.js';
import { limitsMessage } from './limits.js';
import { TOPIC_RECALL } from '../memdir/limits.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The files a part is about, each once, in order: " (a.md, b.md and 3 more)". */
function named(files: string[], max = 4): string {
  const unique = [...new Set(files)];
  const shown = unique.slice(0, max).join(', ');
  return ` (${unique.length > max ? `${shown} and ${unique.length - max} more` : shown})`;
}

/**
 * One part a change, each naming the files it is about (the files archived, and where).
 * `archive`: the archive folder as the reader finds it (relative to where memlint ran).
 */
export function planSummary(plan: Plan, prune: boolean, archive: string): string[] {
  const r = plan.report;
  const parts: string[] = [];
  if (r.dates && r.dates.fixed.length) parts.push(`${plural(r.dates.fixed.length, 'relative date')} made absolute${named(r.dates.fixed.map((f) => f.file))}`);
  if (r.dates && r.dates.left) parts.push(`${plural(r.dates.left, 'relative date')} left as written (not certain: no date of its own in the text, a bare weekday, or a line of a session log; "memlint" shows the date each may mean, for a person to write)`);
  if (r.logs.appended.length) parts.push(`${plural(r.logs.appended.length, 'log entry', 'log entries')} added to topics${named(r.logs.appended.map((a) => a.topic))}`);
  if (r.dedupe.merged.length) parts.push(`${plural(r.dedupe.merged.length, 'duplicate topic')} merged (${r.dedupe.merged.map((m) => `${m.from} into ${m.into}`).join(', ')})`);
  if (r.index.added.length) parts.push(`${plural(r.index.added.length, 'index entry', 'index entries')} added${named(r.index.added.map((a) => a.target))}`);
  if (r.index.dangling.length) parts.push(`${plural(r.index.dangling.length, 'dangling entry', 'dangling entries')} moved to the archive index ${join(archive, ARCHIVE_INDEX)}${named(r.index.dangling.map((d) => d.target))}`);
  if (r.index.missing.length) parts.push(`${plural(r.index.missing.length, 'entry', 'entries')} whose file is not here kept (${r.index.missing.map((m) => `${m.target}: ${m.reason}`).join(', ')}; it may live in the agent's own store)`);
  if (r.index.duplicates.length) parts.push(`${plural(r.index.duplicates.length, 'duplicate entry', 'duplicate entries')} merged${named(r.index.duplicates.map((d) => d.target))}`);
  if (r.index.differing.length) parts.push(`${plural(r.index.differing.length, 'second entry', 'second entries')} for a topic left as written (${r.index.differing.map((d) => `MEMORY.md:${d.line}, ${d.target}: it says what line ${d.keptLine} does not; merging them is a person's choice, "memlint" suggests both ways`).join('; ')})`);
  if (r.index.shortened.length) parts.push(`${plural(r.index.shortened.length, 'long entry', 'long entries')} shortened${named(r.index.shortened.map((s) => s.target))}`);
  if (r.stale.stale.length) {
    const n = r.stale.stale.length;
    const files = r.stale.stale.map((s) => (s.archivedAs && s.archivedAs !== s.file ? `${s.file} as ${s.archivedAs}` : s.file)).join(', ');
    parts.push(prune ? `${plural(n, 'stale project memory', 'stale project memories')} archived to ${archive} (${files})` : `${plural(n, 'stale project memory', 'stale project memories')} (${r.stale.stale.map((s) => s.file).join(', ')}; "--prune" archives ${n === 1 ? 'it' : 'them'})`);
  }
  if (r.stale.gone.length) {
    const list = r.stale.gone.map((g) => `${g.file}: ${g.paths.join(', ')}`).join('; ');
    parts.push(prune ? `${plural(r.stale.gone.length, 'memory', 'memories')} whose every named path is gone archived to ${archive} (${list})` : `${plural(r.stale.gone.length, 'memory', 'memories')} whose every named path is gone (${list}; "--prune" archives ${r.stale.gone.length === 1 ? 'it' : 'them'}; nothing is deleted)`);
  }
  if (r.logs.withheld.length) parts.push(`${plural(r.logs.withheld.length, 'log entry', 'log entries')} holding a secret left in ${r.logs.withheld.length === 1 ? 'its log' : 'their logs'}, not copied${named(r.logs.withheld.map((w) => w.log))}`);
  if (r.index.withheld.length) parts.push(`${plural(r.index.withheld.length, 'index entry', 'index entries')} holding a secret left as ${r.index.withheld.length === 1 ? 'it is' : 'they are'}${named(r.index.withheld.map((w) => w.target))}`);
  if (r.logs.untagged.length) parts.push(`${plural(r.logs.untagged.length, 'untagged log entry', 'untagged log entries')} left for the agent step${named(r.logs.untagged.map((u) => u.log))}`);
  return parts;
}

function rel(cwd: string, p: string): string {
  const r = relative(cwd, p);
  return r === '' ? '.' : r;
}

export function describe(o: Outcome, cwd: string, prune: boolean): string[] {
  const name = rel(cwd, o.memdir);
  const out: string[] = [];
  const summary = o.plan ? planSummary(o.plan, prune, rel(cwd, o.archiveDir)) : [];
  switch (o.status) {
    case 'gates-closed':
    case 'locked':
    case 'failed':
      out.push(`${name}: ${o.message}`);
      break;
    case 'skipped':
      out.push(`${name}: not consolidated: ${o.message}`);
      break;
    case 'would-change':
      out.push(`${name}: would change ${plural(o.plan!.ops.length, 'file')}: ${summary.join('; ')}`);
      break;
    case 'consolidated':
      out.push(`${name}: consolidated (${plural(o.touched.length, 'file')} written or moved): ${summary.join('; ') || 'agent step'}`);
      break;
    case 'unchanged':
      out.push(`${name}: nothing to consolidate${summary.length ? ` (${summary.join('; ')})` : ''}`);
      break;
  }
  if (o.plan && o.plan.report.dates === null && o.status !== 'gates-closed') out.push(`${name}: relative dates not checked (the absolute-dates finder is not available in this build)`);
  if (o.plan && !o.plan.report.limits.ok) out.push(limitsMessage(name, o.plan.report.limits));
  for (const t of o.plan ? o.plan.report.index.tooLong : []) out.push(`${name}/MEMORY.md:${t.line}: over 150 characters, not shortened (${t.reason})`);
  const logsPastRecall = o.plan && o.status !== 'gates-closed' ? o.plan.report.logs.pastRecall : [];
  for (const topic of new Set(logsPastRecall.map((t) => t.topic))) {
    const from = logsPastRecall.filter((t) => t.topic === topic).map((t) => `${t.log}:${t.line}`);
    out.push(`${name}/${topic}: ${plural(from.length, 'log entry', 'log entries')} naming it left in ${from.length === 1 ? 'its log' : 'their logs'} (${from.slice(0, 4).join(', ')}${from.length > 4 ? ', …' : ''}): appending would take it past the ${TOPIC_RECALL.bytes.toLocaleString('en')} bytes or ${TOPIC_RECALL.lines} lines recall shows another session; split ${topic} first`);
  }
  for (const t of o.plan && o.status !== 'gates-closed' ? o.plan.report.index.pastRecall : []) {
    out.push(`${name}/MEMORY.md:${t.line}: left as it is: moving its text into ${t.target} would take that file past the ${TOPIC_RECALL.bytes.toLocaleString('en')} bytes or ${TOPIC_RECALL.lines} lines recall shows another session; split ${t.target} first`);
  }
  // Said where each one is: the value itself never (lint names it masked, and how to allow it).
  for (const w of o.plan && o.status !== 'gates-closed' ? o.plan.report.logs.withheld : []) {
    const into = w.topics.length ? ` into ${w.topics.join(', ')}` : '';
    out.push(`${name}/${w.log}:${w.line}: holds a secret (${w.kind}): left in the log, not copied${into} nor given to the agent step; remove it from memory and rotate it`);
  }
  for (const w of o.plan && o.status !== 'gates-closed' ? o.plan.report.index.withheld : []) {
    out.push(`${name}/${w.line === null ? w.target : `MEMORY.md:${w.line}`}: holds a secret (${w.kind}): left as it is, not copied or moved${w.line === null ? ' into the index' : ''}; remove it from memory and rotate it`);
  }
  if (o.agent) {
    if (o.agent.accepted) out.push(`${name}: agent step ${o.agent.touched.length ? `changed ${o.agent.touched.join(', ')}` : 'changed nothing'}`);
    else out.push(`${name}: agent step rolled back (${o.agent.problems.slice(0, 3).join('; ')}${o.agent.problems.length > 3 ? '; …' : ''})`);
  }
  return out;
}

/** The plan as a unified diff, each line passed through `mask` (the secrets masker). */
export function planDiff(plan: Plan, cwd: string, mask: (line: string) => string = (l) => l): string {
  let out = '';
  for (const op of plan.ops) {
    if (op.kind === 'write') out += unifiedDiff(rel(cwd, op.path), rel(cwd, op.path), op.before, op.after);
    else {
      out += `rename from ${rel(cwd, op.from)}\nrename to ${rel(cwd, op.to)}\n`;
      if (op.text !== op.before) out += unifiedDiff(rel(cwd, op.from), rel(cwd, op.to), op.before, op.text);
    }
  }
  return out === '' ? out : out.split('\n').map(mask).join('\n');
}

export function toJson(o: Outcome) {
  return {
    memdir: o.memdir,
    archiveDir: o.archiveDir,
    status: o.status,
    message: o.message,
    gates: o.gates,
    changes: (o.plan?.ops ?? []).map((op) => (op.kind === 'write' ? { action: op.before === null ? 'create' : 'write', path: op.path } : { action: 'move', path: op.from, to: op.to })),
    report: o.plan?.report ?? null,
    agent: o.agent,
  };
}
