// memlint adopt: bring this repository's stray Claude Code memory stores (memlint where --all) into
// its memdir without loss. The stores are read, never written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { EXIT_FOUND, EXIT_OK, UsageError } from '../errors.js';
import { realOrResolved, isWithin } from '../fs/paths.js';
import { repository } from '../git/repo.js';
import { homeOf, resolveAutoMemoryPath } from '../claude/auto-memory.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { planAdopt } from '../claude/adopt.js';
import { defaultMemdir } from '../claude/link.js';
import { readStore, storeFolder, strayStoresOf } from '../claude/stores.js';
import { newestMtime, personalNote, recordAdopted, withoutPersonal } from '../claude/team-link.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint adopt [STORE...] [--memdir DIR] [--dry-run]

Brings Claude Code memory stores that belong to this repository but are not in use into the
repository's memory folder, without loss. With no STORE: every store "memlint where --all"
lists (keyed by a linked worktree, by a former path of the repository, or the default store left
behind when autoMemoryDirectory points elsewhere). A STORE is a store folder (…/memory) or its
project folder (~/.claude/projects/<slug>).
  - a topic file the memory folder lacks is copied;
  - one it has is merged as a merge with an empty base: both sides kept, a true conflict marked
    with conflict markers for a person (exit 1);
  - MEMORY.md entries are merged as sets (one entry per topic file), the store's after the
    memory folder's own; daily logs as a union;
  - user memories (type: user, outside team/) describe one person: they and their entries are
    left in the store and named, never put into the shared folder.
Nothing is removed from a store, and no store is ever written. A second run changes nothing.

Options:
  --memdir DIR  the memory folder to adopt into (default: the one Claude Code uses here when it
                lies in the repository, else .claude/memory/ or the repository's only one)
  --dry-run     print what would change, change nothing
  -h, --help    show this help

Exit codes: 0 adopted (or nothing to adopt), 1 a true conflict was marked or a file needs a
person, 2 usage error or failure.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { memdir: { type: 'string' }, 'dry-run': { type: 'boolean' } }, 'adopt');
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const cwd = io.cwd;
  const top = repository(io, cwd)?.root ?? null;
  if (!top) throw new UsageError('not inside a git repository: adopt brings memory into one');
  const root = realOrResolved(top);
  const resolution = resolveAutoMemoryPath({ cwd: root, env: io.env, home: homeOf(io.env) });

  let memdir: string;
  if (values.memdir !== undefined) memdir = path.resolve(cwd, values.memdir);
  else {
    const inUse = realOrResolved(resolution.resolved.replace(/[/\\]+$/, ''));
    memdir = isWithin(inUse, root) ? inUse : await defaultMemdir(root, cwd, io.env);
  }
  const safe = checkInsideRepo(root, memdir);
  if (!safe.ok) throw new UsageError(`${safe.reason}: adopt writes only the repository's memory folder`);

  let storeDirs: string[];
  if (positionals.length > 0) storeDirs = positionals.map((s) => storeFolder(s, cwd));
  else storeDirs = strayStoresOf(resolution, io.env).map((s) => s.dir);
  storeDirs = [...new Set(storeDirs.map(realOrResolved))];
  for (const s of storeDirs) if (isWithin(s, realOrResolved(memdir)) || isWithin(realOrResolved(memdir), s)) throw new UsageError(`${s} is the memory folder itself (or holds it): nothing to adopt`);
  const dry = !!values['dry-run'];
  const say = (s: string) => io.stdout.write(`${s}\n`);
  if (storeDirs.length === 0) {
    say('memlint adopt: no other Claude Code memory store of this repository ("memlint where --all"); nothing to adopt');
    return EXIT_OK;
  }

  const whole = await Promise.all(storeDirs.map(readStore));
  // A user memory describes one person (Claude Code: "always private"): named, never shared.
  const split = whole.map(withoutPersonal);
  const stores = split.map((x) => x.store);
  const personal = split.reduce((n, x) => n + x.personal.length, 0);
  const target = (rel: string) => path.join(memdir, ...rel.split('/'));
  const plan = planAdopt(stores, (rel) => {
    try {
      return readFileSync(target(rel), 'utf8');
    } catch {
      return null;
    }
  });
  const shown = (rel: string) => path.relative(cwd, target(rel)) || '.';
  for (const op of plan.ops) {
    const verb = dry ? `would ${op.kind}` : op.kind === 'copy' ? 'copied' : 'merged';
    const tail = op.conflicts.length ? `: CONFLICT (${op.conflicts.join('; ')}), marked for a person` : '';
    say(`${shown(op.rel)}: ${verb} from ${op.from}${tail}`);
  }
  for (const [i, x] of split.entries()) if (x.personal.length > 0) say(`memlint adopt: ${personalNote(x.personal, whole[i]!.dir, dry)}`);
  for (const s of plan.skipped) io.stderr.write(`memlint adopt: ${s.from}: ${s.reason}\n`);
  let refused = 0;
  if (!dry) {
    for (const op of plan.ops) {
      const check = checkInsideRepo(root, target(op.rel));
      if (!check.ok) {
        io.stderr.write(`memlint adopt: ${check.reason}\n`);
        refused++;
        continue;
      }
      writeInsideRepo(root, target(op.rel), op.after, { mkdir: true });
    }
  }
  const conflicts = plan.ops.filter((o) => o.conflicts.length > 0).length + plan.skipped.filter((s) => s.blocking).length + refused;
  // Brought in whole (its user memories named, not adopted, as linking does): doctor and the
  // SessionStart hook stop naming these stores until they change.
  if (!dry && conflicts === 0) for (const s of whole) recordAdopted({ cwd: root, env: io.env }, s.dir, newestMtime(s.dir, [...s.files.keys(), ...s.unreadable.map((u) => u.rel)]));
  const copied = plan.ops.filter((o) => o.kind === 'copy').length;
  const merged = plan.ops.length - copied;
  const storesWord = `store${storeDirs.length === 1 ? '' : 's'}`;
  // The user memories left out are named above, store by store.
  say(
    plan.ops.length === 0
      ? `memlint adopt: nothing to adopt from ${storeDirs.length} ${storesWord}: ${path.relative(cwd, memdir) || '.'} already holds what they hold${personal > 0 ? ', user memories aside' : ''}`
      : `memlint adopt: ${dry ? 'would adopt' : 'adopted'} ${copied} new file${copied === 1 ? '' : 's'} and ${merged} merged into ${path.relative(cwd, memdir) || '.'}${conflicts ? `; ${conflicts} need${conflicts === 1 ? 's' : ''} a person` : ''}; the stores are unchanged`,
  );
  return conflicts > 0 ? EXIT_FOUND : EXIT_OK;
}
