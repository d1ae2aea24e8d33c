// The team's link (contract §10): "memlint install --link" records the decision in the committed
// config and links the lead's checkout; every other clone and linked worktree is then linked by
// "memlint install --local" (what npm's prepare runs), after Claude Code's memory for that
// checkout so far is adopted (a person's `user` memories named, never put in the shared folder).
// doctor, the SessionStart hook and where say the same when a checkout is not linked. Real git (a
// bare remote, two clones, a linked worktree), a HOME of its own so ~/.claude is a temp folder.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizePath } from '../../src/claude/auto-memory.js';
import { CLI, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cliInProcess, hermetic, type Hermetic } from '../interop/helpers.js';
import { npmInstall, topic } from './helpers.js';

const MEM = '.claude/memory';
const COMMITTED = '2026-10-01T00:00:00Z';
const DEPLOYS = topic('Deploys', 'project', 'Deploys go out on Tuesdays', 'Deploys go out on Tuesdays, after the freeze.\n');

/**
 * A clone of a bare remote whose main branch commits the team's memory, committed at COMMITTED.
 * Made once per file and copied for every test (a folder holding both, the lead's origin pointed
 * at the copied remote): some ten git processes each, the same for every test.
 */
let teamOnce: { base: string; remote: string; lead: string } | undefined;
function team(): { base: string; remote: string; lead: string } {
  teamOnce ??= makeTeam();
  const base = tempDir();
  cpSync(teamOnce.base, base, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  const remote = join(base, 'remote.git');
  const lead = join(base, 'lead');
  const config = join(lead, '.git', 'config');
  const url = `\turl = ${teamOnce.remote}\n`;
  const text = readFileSync(config, 'utf8');
  if (!text.includes(url)) throw new Error(`team: no origin ${teamOnce.remote} in ${config}`);
  writeFileSync(config, text.replace(url, `\turl = ${remote}\n`));
  return { base, remote, lead };
}

function makeTeam(): { base: string; remote: string; lead: string } {
  const base = tempDir();
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const lead = initRepo(join(base, 'lead'));
  writeFiles(lead, {
    'package.json': `${JSON.stringify({ name: 'app', private: true }, null, 2)}\n`,
    '.gitignore': 'node_modules\n',
    [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n',
    [`${MEM}/project_deploys.md`]: DEPLOYS,
  });
  npmInstall(lead, { husky: false });
  commitAt(lead, 'init');
  git(lead, 'remote', 'add', 'origin', remote);
  git(lead, 'push', '-q', '-u', 'origin', 'main');
  return { base, remote, lead };
}

function commitAt(dir: string, message: string): void {
  git(dir, 'add', '-A');
  const r = spawnSync('git', ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', message], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: COMMITTED, GIT_COMMITTER_DATE: COMMITTED } });
  expect(r.status, r.stderr).toBe(0);
}

/** Claude Code's default store for a checkout (its memory until linked), with files in it. */
function defaultStore(h: Hermetic, checkout: string, files: Record<string, string>): string {
  const store = join(h.configDir, 'projects', sanitizePath(checkout), 'memory');
  writeFiles(store, files);
  return store;
}

function autoMemoryDirectory(dir: string): string | undefined {
  const file = join(dir, '.claude', 'settings.local.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { autoMemoryDirectory?: string }).autoMemoryDirectory : undefined;
}

const linkLines = (out: string) => out.split('\n').filter((l) => l.startsWith('memlint link:'));

describe('the team links once, every checkout follows', () => {
  it('names a user-level memory folder with a space as one shell word in the adopt command it advises', async () => {
    const h = hermetic();
    const { lead } = team();
    const own = join(h.home, 'My Notes', "Bob's memory");
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(h.configDir, 'settings.json'), `${JSON.stringify({ autoMemoryDirectory: own })}\n`);
    const r = await cliInProcess(lead, ['install', '--link'], h);
    expect(r.code, r.stderr).toBe(0);
    const command = /\("(memlint adopt .*?)" brings its memory in\)/.exec(r.stdout)?.[1];
    expect(command, r.stdout).toBe(`memlint adopt '${own.replace("'", "'\\''")}'`);
    const words = spawnSync('sh', ['-c', `printf '%s\\n' ${command!.slice('memlint adopt '.length)}`], { encoding: 'utf8' }).stdout;
    expect(words).toBe(`${own}\n`);
  });

  it('install --link records the decision and links; a second clone and a linked worktree link on install --local', async () => {
    const h = hermetic();
    const { base, remote, lead } = team();
    // What the lead's Claude Code kept so far: one project memory and one about the lead.
    const store = defaultStore(h, lead, {
      'MEMORY.md': '# Memory\n\n- [Role](user_role.md) — leads payments\n- [Retry](project_retry.md) — payout retries are idempotent\n',
      'user_role.md': topic('Role', 'user', 'The user leads the payments team', 'Leads payments; reads diffs before descriptions.\n'),
      'project_retry.md': topic('Retry', 'project', 'Payout retries are idempotent', 'Payout retries are idempotent: the ledger dedupes by key.\n'),
    });

    const r = await cliInProcess(lead, ['install', '--link'], h);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(lead, '.memlintrc.json'), 'utf8'))).toEqual({ link: MEM });
    expect(autoMemoryDirectory(lead)).toBe(join(lead, MEM));
    const [line, ...more] = linkLines(r.stdout);
    expect(more).toEqual([]);
    expect(line).toContain(`linked: Claude Code now keeps this checkout's memory in ${MEM}`);
    expect(line).toContain(`adopted 2 files from ${store} first`);
    expect(line).toContain('1 user memory (about you: user_role.md)');
    // The project memory is in the shared folder, indexed; the one about the lead is not.
    expect(readFileSync(join(lead, MEM, 'project_retry.md'), 'utf8')).toContain('ledger dedupes by key');
    expect(existsSync(join(lead, MEM, 'user_role.md'))).toBe(false);
    expect(readFileSync(join(lead, MEM, 'MEMORY.md'), 'utf8')).toBe('# Memory\n\n- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n- [Retry](project_retry.md) — payout retries are idempotent\n');
    // The store is read, never written.
    expect(readFileSync(join(store, 'MEMORY.md'), 'utf8')).toContain('user_role.md');
    // A person's private Claude Code files stay out of commits.
    const ignore = readFileSync(join(lead, '.gitignore'), 'utf8');
    for (const p of ['.claude/settings.local.json', '.claude/agent-memory-local/', 'CLAUDE.local.md']) expect(ignore).toContain(`\n${p}\n`);
    const doctor = await cliInProcess(lead, ['doctor'], h);
    expect(doctor.stdout).toMatch(/^ok +link: Claude Code uses the committed \.claude\/memory in this checkout \(localSettings\)$/m);
    expect(doctor.stdout).toMatch(/^ok +stray stores: none/m);
    // A second run changes nothing and says so in one line.
    expect(linkLines((await cliInProcess(lead, ['install', '--link'], h)).stdout)).toEqual([`memlint link: already linked: Claude Code uses ${MEM} here (localSettings)`]);
    commitAt(lead, 'share memory');
    git(lead, 'push', '-q', 'origin', 'main');

    // A teammate clones and runs what npm ci's prepare runs.
    const mate = join(base, 'mate');
    git(base, 'clone', '-q', remote, mate);
    npmInstall(mate, { husky: false });
    const local = (await cliInProcess(mate, ['install', '--local'], h));
    expect(local.code, local.stderr).toBe(0);
    expect(linkLines(local.stdout)).toEqual([`memlint link: linked: Claude Code now keeps this checkout's memory in ${MEM} (autoMemoryDirectory in .claude/settings.local.json)`]);
    expect(autoMemoryDirectory(mate)).toBe(join(mate, MEM));
    // Memory files carry their committed date from the first session, not the clone's time.
    for (const f of ['MEMORY.md', 'project_deploys.md', 'project_retry.md']) expect(statSync(join(mate, MEM, f)).mtimeMs).toBe(Date.parse(COMMITTED));
    expect(git(mate, 'status', '--porcelain')).toBe('');
    expect((await cliInProcess(mate, ['where'], h)).stdout).toContain(`team memory:  ${join(mate, MEM)} (config "link": every checkout links it on npm install); this checkout uses it`);

    // A linked worktree of that clone is a checkout of its own, linked to its own folder: at once,
    // by the post-checkout hook that sets a new worktree up, and "install --local" there agrees.
    const wt = join(base, 'wt');
    const add = spawnSync('git', ['worktree', 'add', '-q', '-b', 'topic', wt], { cwd: mate, encoding: 'utf8', env: h.env });
    expect(add.status, add.stderr).toBe(0);
    expect(autoMemoryDirectory(wt)).toBe(join(wt, MEM));
    npmInstall(wt, { husky: false });
    expect(linkLines((await cliInProcess(wt, ['install', '--local'], h)).stdout)).toEqual([`memlint link: already linked: Claude Code uses ${MEM} here (localSettings)`]);
    const wtDoctor = await cliInProcess(wt, ['doctor'], h);
    expect(wtDoctor.stdout).toMatch(/^ok +link: /m);
  });

  it('a store adopted on install --local puts its entries after the folder\'s own, not above its heading', async () => {
    const h = hermetic();
    const { base, remote, lead } = team();
    expect((await cliInProcess(lead, ['install', '--link'], h)).code).toBe(0);
    commitAt(lead, 'link');
    git(lead, 'push', '-q', 'origin', 'main');
    const mate = join(base, 'mate');
    git(base, 'clone', '-q', remote, mate);
    npmInstall(mate, { husky: false });
    // Claude Code writes a store's index as bare entries, with no heading of its own.
    defaultStore(h, mate, {
      'MEMORY.md': '- [Stray](project_stray.md) — stray memory\n- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n- [Flags](reference_flags.md) — flags\n',
      'project_stray.md': topic('Stray', 'project', 'stray memory', 'Stray.\n'),
      'reference_flags.md': topic('Flags', 'reference', 'flags', 'Flags.\n'),
    });
    const local = await cliInProcess(mate, ['install', '--local'], h);
    expect(local.code, local.stderr).toBe(0);
    expect(linkLines(local.stdout)[0]).toContain('adopted 3 files from');
    expect(readFileSync(join(mate, MEM, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n\n- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n- [Stray](project_stray.md) — stray memory\n- [Flags](reference_flags.md) — flags\n',
    );
  });

  it('once the team links, the pre-commit hook stops a new user memory outside team/ and lets it in on purpose', async () => {
    const h = hermetic();
    const { lead } = team();
    expect((await cliInProcess(lead, ['install', '--link'], h)).code).toBe(0);
    commitAt(lead, 'share memory');
    // What the agent writes about the person into the linked folder, staged by "git add -A".
    writeFiles(lead, { [`${MEM}/user_role.md`]: topic('Role', 'user', 'The user leads payments', 'Leads payments.\n') });
    writeFileSync(join(lead, MEM, 'MEMORY.md'), `${readFileSync(join(lead, MEM, 'MEMORY.md'), 'utf8')}- [Role](user_role.md) — leads payments\n`);
    git(lead, 'add', '-A');
    const refused = spawnSync('git', ['commit', '-q', '-m', 'remember the lead'], { cwd: lead, encoding: 'utf8', env: h.env });
    expect(refused.status).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain(`${MEM}/user_role.md:4:1  error  a user memory describes one person and stays private`);
    expect(git(lead, 'log', '--format=%s', '-1')).toBe('share memory\n');
    // Shared on purpose: moved into team/, its entry pointing there.
    mkdirSync(join(lead, MEM, 'team'));
    git(lead, 'mv', `${MEM}/user_role.md`, `${MEM}/team/user_role.md`);
    writeFileSync(join(lead, MEM, 'MEMORY.md'), readFileSync(join(lead, MEM, 'MEMORY.md'), 'utf8').replace('(user_role.md)', '(team/user_role.md)'));
    git(lead, 'add', '-A');
    const shared = spawnSync('git', ['commit', '-q', '-m', 'share who leads payments'], { cwd: lead, encoding: 'utf8', env: h.env });
    expect(shared.status, `${shared.stdout}${shared.stderr}`).toBe(0);
  });

  it('a person opts out with git config memlint.link false or MEMLINT_LINK=0, and doctor says so', async () => {
    const h = hermetic();
    const { base, remote, lead } = team();
    expect((await cliInProcess(lead, ['install', '--link'], h)).code).toBe(0);
    commitAt(lead, 'share memory');
    git(lead, 'push', '-q', 'origin', 'main');
    const mate = join(base, 'mate');
    git(base, 'clone', '-q', remote, mate);
    npmInstall(mate, { husky: false });
    git(mate, 'config', 'memlint.link', 'false');
    const r = (await cliInProcess(mate, ['install', '--local'], h));
    expect(r.code).toBe(0);
    const resolved = join(h.configDir, 'projects', sanitizePath(mate), 'memory');
    expect(linkLines(r.stdout)).toEqual([`memlint link: not linked: you opted out (git config memlint.link=false); Claude Code keeps using ${resolved}`]);
    expect(autoMemoryDirectory(mate)).toBeUndefined();
    const doctor = await cliInProcess(mate, ['doctor'], h);
    expect(doctor.stdout).toMatch(/^ok +link: opted out \(git config memlint\.link=false\): Claude Code uses .*, not the team's \.claude\/memory$/m);

    git(mate, 'config', '--unset', 'memlint.link');
    const env = (await cliInProcess(mate, ['install', '--local'], { ...h, env: { ...h.env, MEMLINT_LINK: '0' } }));
    expect(linkLines(env.stdout)[0]).toMatch(/^memlint link: not linked: you opted out \(MEMLINT_LINK=0\)/);
    expect(autoMemoryDirectory(mate)).toBeUndefined();
  });

  it('doctor exits 1 naming both folders, and the SessionStart hook tells the agent, when the committed memory is not the one in use', async () => {
    const h = hermetic();
    const { lead } = team();
    const resolved = join(h.configDir, 'projects', sanitizePath(lead), 'memory');
    const doctor = await cliInProcess(lead, ['doctor', '--json'], h);
    expect(doctor.code).toBe(1);
    const check = (JSON.parse(doctor.stdout) as { checks: Array<{ part: string; ok: boolean; detail: string; fix?: string }> }).checks.find((c) => c.part === 'link')!;
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(`shares its memory in ${join(lead, MEM)}, but Claude Code in this checkout uses ${resolved} (default)`);
    expect(check.fix).toMatch(/^memlint install --link /);

    const payload = JSON.stringify({ hook_event_name: 'SessionStart', cwd: lead, source: 'startup' });
    const hook = spawnSync(process.execPath, [CLI, 'hook'], { cwd: lead, input: payload, encoding: 'utf8', env: { ...h.env, CLAUDE_PROJECT_DIR: lead } });
    expect(hook.status).toBe(0);
    const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain(`This repository shares its memory in ${join(lead, MEM)} (committed), but Claude Code in this checkout uses ${resolved}`);
    expect(context.length).toBeLessThanOrEqual(1000);

    // Once linked, both are quiet about it.
    expect((await cliInProcess(lead, ['link'], h)).code).toBe(0);
    expect((await cliInProcess(lead, ['doctor'], h)).stdout).toMatch(/^ok +link: /m);
    const after = spawnSync(process.execPath, [CLI, 'hook'], { cwd: lead, input: payload, encoding: 'utf8', env: { ...h.env, CLAUDE_PROJECT_DIR: lead } });
    expect(after.stdout).toBe('');
  });

  it('uninstall takes back the link: the recorded setting, and this checkout\'s autoMemoryDirectory, never a person\'s own', async () => {
    const h = hermetic();
    const { lead } = team();
    writeFileSync(join(lead, 'package.json'), `${JSON.stringify({ name: 'app', private: true, memlint: { claudeCode: '2.1.332' } }, null, 2)}\n`);
    expect((await cliInProcess(lead, ['install', '--link'], h)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(lead, 'package.json'), 'utf8')).memlint).toEqual({ claudeCode: '2.1.332', link: MEM });
    expect(autoMemoryDirectory(lead)).toBe(join(lead, MEM));
    const settings = join(lead, '.claude', 'settings.local.json');
    writeFileSync(settings, `${JSON.stringify({ model: 'opus', autoMemoryDirectory: join(lead, MEM) }, null, 2)}\n`);

    const r = await cliInProcess(lead, ['uninstall'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^package\.json: update /m);
    expect(r.stdout).toMatch(/^\.claude\/settings\.local\.json: update \(autoMemoryDirectory .* removed/m);
    expect(JSON.parse(readFileSync(join(lead, 'package.json'), 'utf8')).memlint).toEqual({ claudeCode: '2.1.332' });
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ model: 'opus' });
    expect((await cliInProcess(lead, ['uninstall'], h)).stdout).toBe('memlint uninstall: nothing of memlint installed here\n');

    // A .memlintrc.json that held only the link goes; a directory the person chose outside stays.
    writeFileSync(join(lead, 'package.json'), `${JSON.stringify({ name: 'app', private: true }, null, 2)}\n`);
    expect((await cliInProcess(lead, ['install', '--link'], h)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(lead, '.memlintrc.json'), 'utf8'))).toEqual({ link: MEM });
    const own = join(h.home, 'my-memory');
    mkdirSync(own);
    writeFileSync(settings, `${JSON.stringify({ autoMemoryDirectory: own }, null, 2)}\n`);
    expect((await cliInProcess(lead, ['uninstall'], h)).code).toBe(0);
    expect(existsSync(join(lead, '.memlintrc.json'))).toBe(false);
    expect(autoMemoryDirectory(lead)).toBe(own);

    // A config memlint cannot read stops nothing else uninstall does: one note, the rest removed.
    expect((await cliInProcess(lead, ['install'], h)).code).toBe(0);
    writeFileSync(join(lead, '.memlintrc.json'), '{ "link": \n');
    const broken = await cliInProcess(lead, ['uninstall'], h);
    expect(broken.code).toBe(0);
    expect(broken.stdout).toMatch(/^note: cannot read config .*\.memlintrc\.json:2:1: Unexpected end of JSON input: its "link" setting, if any, left as it is$/m);
    expect(broken.stdout).toMatch(/^\.gitattributes: /m);
    expect(readFileSync(join(lead, '.memlintrc.json'), 'utf8')).toBe('{ "link": \n');

    // A "link": false was written by a person (install never writes it): it stays.
    writeFileSync(join(lead, '.memlintrc.json'), '{ "link": false }\n');
    expect((await cliInProcess(lead, ['uninstall'], h)).code).toBe(0);
    expect(readFileSync(join(lead, '.memlintrc.json'), 'utf8')).toBe('{ "link": false }\n');
  });

  it('links nothing it cannot stand behind: a folder reached through a symlink out of the checkout, an override, a store that conflicts', async () => {
    const h = hermetic();
    const { lead } = team();
    // The override outranks the local settings: said, not written.
    expect((await cliInProcess(lead, ['install', '--link'], { ...h, env: { ...h.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: join(h.home, 'elsewhere') } })).code).toBe(1);
    expect(autoMemoryDirectory(lead)).toBeUndefined();

    // A store whose memory conflicts with the committed one: not linked, named, nothing written.
    const store = defaultStore(h, lead, { 'MEMORY.md': '- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n', 'project_deploys.md': topic('Deploys', 'project', 'Deploys go out on Thursdays', 'Deploys go out on Thursdays.\n') });
    const r = (await cliInProcess(lead, ['install', '--local'], h));
    expect(r.code).toBe(0);
    expect(linkLines(r.stdout)[0]).toMatch(new RegExp(`^memlint link: not linked: Claude Code's memory for this checkout so far \\(${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) conflicts with \\.claude/memory \\(project_deploys\\.md\\): run "memlint adopt"`));
    expect(autoMemoryDirectory(lead)).toBeUndefined();
    expect(readFileSync(join(lead, MEM, 'project_deploys.md'), 'utf8')).toBe(DEPLOYS);

    // A "link" folder that is a symlink leading out of the checkout.
    const outside = tempDir();
    mkdirSync(join(lead, 'shared'));
    symlinkSync(outside, join(lead, 'shared', 'memory'));
    writeFileSync(join(lead, '.memlintrc.json'), '{ "link": "shared/memory" }\n');
    const sym = (await cliInProcess(lead, ['install', '--local'], h));
    expect(sym.code).toBe(0);
    expect(linkLines(sym.stdout)[0]).toMatch(/^memlint link: not linked: .*symlink/);
    expect(autoMemoryDirectory(lead)).toBeUndefined();

    // A "link" that climbs out of the repository is a config error, said in one line by install --local.
    writeFileSync(join(lead, '.memlintrc.json'), '{ "link": "../elsewhere" }\n');
    const up = (await cliInProcess(lead, ['install', '--local'], h));
    expect(up.code).toBe(0);
    expect(linkLines(up.stdout)[0]).toMatch(/^memlint link: not linked: config .*"link" must be true, false or the memory folder as a path inside the repository/);
  });
});
