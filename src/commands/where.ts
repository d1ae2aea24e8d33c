// memlint where: the auto memory directory Claude Code would use here, every candidate it weighed
// and why each lost, and whether the winner lies inside this repository (src/claude/where.ts
// finds it; this prints it).
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { homeOf, type Candidate } from '../claude/auto-memory.js';
import { strayStoresOf } from '../claude/stores.js';
import { linkProblem, linkState } from '../claude/team-link.js';
import { buildWhereReport, type WhereReport } from '../claude/where.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint where [--all] [--json]

Shows the auto memory directory Claude Code would use when started in this folder, following
Claude Code's own order:
  1. CLAUDE_COWORK_MEMORY_PATH_OVERRIDE
  2. autoMemoryDirectory from policy settings, then .claude/settings.local.json, then
     ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR/settings.json); never .claude/settings.json
  3. <CLAUDE_CONFIG_DIR or ~/.claude>/projects/<slug of the canonical git root>/memory/
Every candidate that was set is listed, with the reason it was not used. Also reports whether
auto memory is enabled and whether the directory lies inside this repository.

Options:
  --all       also list the other Claude Code memory stores that belong to this repository and
              are not the one in use (keyed by a linked worktree, by a former path of the
              repository, or the default store when autoMemoryDirectory points elsewhere), with
              their .md files and newest mtime; "memlint adopt" brings them in
  --json      print the report as JSON (shape documented in docs/interop.md)
  -h, --help  show this help

Exit codes: 0 report printed, 2 usage error.
`;

function candidateLine(c: Candidate): string {
  const where = c.file ? ` (${c.file})` : '';
  const label = c.accepted ? 'used    ' : c.rule === 'shadowed' || c.rule === 'not-reached' ? 'skipped ' : c.rule === 'project-settings' ? 'ignored ' : 'rejected';
  const value = JSON.stringify(c.value);
  const tail = c.accepted ? (c.path && c.path !== c.value ? ` -> ${c.path}` : '') : `: ${c.reason}`;
  return `  ${label} ${c.source}${where} ${value}${tail}`;
}

export function formatWhere(r: WhereReport): string {
  const out: string[] = [];
  out.push(r.resolved);
  out.push(`  source:       ${r.source === 'default' ? 'default (no override, no autoMemoryDirectory setting in use)' : r.source}`);
  const enabled = r.autoMemoryEnabled;
  out.push(`  auto memory:  ${enabled.value ? 'enabled' : 'DISABLED'} (${enabled.source}${enabled.file ? `, ${enabled.file}` : ''})`);
  if (!r.repository) out.push('  repository:   not inside a git repository');
  else if (!r.repository.path) out.push(`  repository:   outside this repository (${r.repository.root}); run "memlint link" to keep memory in it`);
  else {
    const state = r.repository.ignored ? 'git-ignored' : r.repository.committed ? 'committed' : 'not committed yet';
    out.push(`  repository:   inside, at ${r.repository.path} (${state})`);
  }
  const t = r.teamLink;
  if (t?.memdir) {
    const how = t.decided ? 'config "link": every checkout links it on npm install' : 'committed, no "link" setting';
    const state = t.linked ? 'this checkout uses it' : t.optedOut ? `you opted out (${t.optedOut})` : `NOT used here; fix: ${t.fix}`;
    out.push(`  team memory:  ${t.memdir} (${how}); ${state}`);
  }
  out.push('');
  out.push('Project');
  out.push(`  started in:      ${r.projectRoot}`);
  out.push(`  git root:        ${r.gitRoot ?? '(none)'}`);
  out.push(`  canonical root:  ${r.canonicalRoot} (${r.canonicalRootReason})`);
  out.push(`  slug:            ${r.slug}`);
  out.push(`  default:         ${r.defaultPath}`);
  out.push('');
  out.push("Candidates, in Claude Code's order");
  for (const c of r.candidates) out.push(candidateLine(c));
  if (r.strayStores) {
    out.push('');
    out.push('Other memory stores of this repository, not in use');
    if (r.strayStores.length === 0) out.push('  (none)');
    for (const st of r.strayStores) {
      out.push(`  ${st.dir}`);
      out.push(`    ${st.kind}: ${st.reason}`);
      out.push(`    ${st.mdFiles} .md file${st.mdFiles === 1 ? '' : 's'}, newest ${st.newest ?? '-'}`);
    }
    if (r.strayStores.length) out.push('  "memlint adopt --dry-run" shows what "memlint adopt" would bring into the repository\'s memory');
  }
  if (r.notes.length) {
    out.push('');
    out.push('Notes');
    for (const n of r.notes) out.push(`  - ${n}`);
  }
  return out.join('\n') + '\n';
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, all: { type: 'boolean' } }, 'where');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]} (see "memlint where --help")`);
  const report = buildWhereReport(io.cwd, io.env, homeOf(io.env));
  if (values.all) report.strayStores = strayStoresOf(report, io.env);
  if (report.repository) {
    const state = await linkState(report.repository.root, io.env, homeOf(io.env)).catch(() => null);
    if (state) report.teamLink = { memdir: state.memdir, decided: state.decided, linked: state.linked, optedOut: state.optedOut, fix: linkProblem(state)?.fix ?? null };
  }
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatWhere(report));
  return 0;
}
