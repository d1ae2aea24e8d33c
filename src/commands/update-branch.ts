// `memlint update-branch [--base REF] [--push] [--json]` (docs/merge.md): thin, the work is in
// src/merge/update-branch.ts.
import { parse } from './args.js';
import { selfCommand, updateBranch, type UpdateBranchReport } from '../merge/update-branch.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint update-branch [--base REF] [--push] [--json]

Makes a pull request whose only conflicts are in memory files mergeable on the host. GitHub's
merge button, merge queues and GitLab.com never run a custom merge driver; this merges REF into
the current branch with memlint's driver active for this merge (whatever the local git config
says), settles memory files still in conflict as "memlint resolve" does, and commits a normal
merge commit (parents HEAD and REF) whose message names the memory files settled.

If a file that is not memory conflicts, or a memory conflict is a true one (an entry edited
differently on both sides), the merge is taken back: branch, index and working tree exactly
as they were. The files are listed, exit 1. It does not fetch: fetch first.

Options:
  --base REF  what to merge (default: the upstream's default branch, <remote>/HEAD, e.g.
              origin/HEAD; "git remote set-head origin --auto" records it)
  --push      push the merge commit to the branch's upstream, never forced; a push rejected
              because the branch moved meanwhile is reported, exit 1
  --json      print the report as JSON on stdout (shape in docs/merge.md)
  -h, --help  show this help

A branch that has nothing of its own moves forward to REF (a fast-forward, no merge commit).
It refuses, touching nothing, when REF is the branch itself or its upstream, and when REF adds
a file that is here untracked or ignored (the merge would overwrite it). No git hook runs.

Exit codes: 0 merged and committed (and pushed with --push), fast-forwarded, or already up to
date (no commit);
1 conflicts left (nothing changed) or the push was rejected because the branch moved;
2 usage error, uncommitted changes, an operation in progress (nothing touched), or failure.
`;

export function reportJson(r: UpdateBranchReport): string {
  const push = r.push ? { remote: r.push.remote, ref: r.push.ref, ...r.push.outcome } : null;
  return JSON.stringify({ status: r.status, base: r.base, baseCommit: r.baseCommit, branch: r.branch, head: r.head, commit: r.commit, settled: r.settled, conflicts: r.conflicts, push, warnings: r.warnings }, null, 2) + '\n';
}

export function reportText(r: UpdateBranchReport): string {
  const out: string[] = [];
  const onto = r.branch ?? 'HEAD';
  if (r.status === 'up-to-date') out.push(`${onto} is up to date with ${r.base}: nothing to merge`);
  if (r.status === 'fast-forward') out.push(`fast-forwarded ${onto} to ${r.base} (${r.commit!.slice(0, 12)}): nothing of its own to merge, no merge commit`);
  if (r.status === 'conflict') {
    for (const c of r.conflicts) out.push(`conflict  ${c.path}: ${c.reason}`);
    out.push(`the merge of ${r.base} into ${onto} was taken back: ${r.conflicts.length} file${r.conflicts.length === 1 ? '' : 's'} in conflict, the branch is as it was`);
  }
  if (r.status === 'merged') {
    for (const s of r.settled) out.push(`${s.by.padEnd(8)}${s.path}`);
    const n = r.settled.length;
    out.push(`merged ${r.base} into ${onto} (${r.commit!.slice(0, 12)})${n ? `: ${n} memory file${n === 1 ? '' : 's'} settled` : ''}`);
  }
  if (r.push) {
    const where = `${r.push.remote} ${r.push.ref.replace(/^refs\/heads\//, '')}`;
    const o = r.push.outcome;
    if (o.status === 'pushed' || o.status === 'up-to-date') out.push(`pushed to ${where}`);
    else if (o.status === 'rejected') out.push(`push to ${where} rejected: the branch moved there meanwhile (${o.reason}); the merge stays committed here: fetch and run update-branch again`);
  }
  return out.map((l) => `${l}\n`).join('');
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { base: { type: 'string' }, push: { type: 'boolean' }, json: { type: 'boolean' } }, 'update-branch', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  // The driver git starts is this very program: how this process was started, not an input.
  const report = await updateBranch(io, { base: values.base, push: !!values.push, memlint: selfCommand(process.execPath, process.argv[1]!) });
  for (const w of report.warnings) io.stderr.write(`${w}\n`);
  io.stdout.write(values.json ? reportJson(report) : reportText(report));
  if (report.status === 'conflict') return 1;
  const push = report.push?.outcome;
  if (push?.status === 'rejected') return 1;
  if (push?.status === 'failed') {
    io.stderr.write(`memlint: push to ${report.push!.remote} failed: ${push.reason} (the merge stays committed here)\n`);
    return 2;
  }
  return 0;
}
