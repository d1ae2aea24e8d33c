// The merge driver keeps `[[name]]` links (issue 25): two branches each add and edit lines that hold
// links (index hooks, topic bodies, a session log), and after a real `git merge` through the driver
// as `memlint install` configures it, every link either side wrote is there, byte for byte.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverConfig } from '../../src/merge/command.js';
import { CLI, git, initRepo, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const LINK_RE = /\[\[[^\[\]\n]*\]\]/g;
const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: About ${name}\nmetadata:\n  type: reference\n---\n${body}`;

function commit(dir: string, files: Record<string, string>, message: string): void {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** Each link of a text with how often it occurs. */
function links(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(LINK_RE)) out.set(m[0], (out.get(m[0]) ?? 0) + 1);
  return out;
}

describe('the merge driver keeps [[links]]', () => {
  it('both sides add and edit lines with links in the index, a topic and a session log: every link kept', () => {
    const dir = initRepo();
    for (const [key, value] of driverConfig({ memlint: `node ${CLI}` })) git(dir, 'config', key, value);
    const log = 'logs/2026/11/30/a1b2c3-fix-login.md';
    const base = {
      '.gitattributes': `${MEM}/**/*.md merge=memlint\n`,
      [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Billing](billing.md) — rounding, see [[ledger-rounding]]\n- [Login](login.md) — the login flow\n- [Ops](ops.md) — paging\n',
      [`${MEM}/billing.md`]: topic('billing', 'Round half to even, see [[ledger-rounding]].\n\nFinance reconciles monthly.\n\nThe bank rounds too.\n'),
      [`${MEM}/login.md`]: topic('login', 'The cookie is set on redirect.\n'),
      [`${MEM}/ops.md`]: topic('ops', 'Paging goes to the on-call.\n'),
      [`${MEM}/${log}`]: '> the login loops\n< looking at [[login]]\n',
    };
    commit(dir, base, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    const theirs = {
      [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Billing](billing.md) — rounding, see [[ledger-rounding]]\n- [Login](login.md) — the login flow, [[session-cookie|cookie]] notes\n- [Ops](ops.md) — paging\n- [Rota](rota.md) — who is on call, [[ops#paging]]\n',
      [`${MEM}/billing.md`]: topic('billing', 'Round half to even, see [[ledger-rounding]].\n\nFinance reconciles monthly, with [[finance-calendar]].\n\nThe bank rounds too.\n'),
      [`${MEM}/rota.md`]: topic('rota', 'Weekly, see [[ops]].\n'),
      [`${MEM}/${log}`]: '> the login loops\n< looking at [[login]]\n< found it: [[session-cookie]] drops on redirect\n',
    };
    commit(dir, theirs, 'theirs');
    git(dir, 'checkout', '-q', 'main');
    const ours = {
      [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Billing](billing.md) — rounding, see [[ledger-rounding]] and [[迁移-规则]]\n- [Login](login.md) — the login flow\n- [Ops](ops.md) — paging, [[ 升级 ]] path\n- [Audit](audit.md) — audit trail, [[billing]]\n',
      [`${MEM}/billing.md`]: topic('billing', 'Round half to even, see [[ledger-rounding]].\n\nFinance reconciles monthly.\n\nThe bank rounds too, see [[bank-rules|the bank]].\n'),
      [`${MEM}/audit.md`]: topic('audit', 'Every write is logged, see [[billing]].\n'),
      [`${MEM}/${log}`]: '> the login loops\n< looking at [[login]]\n. Read src/auth.ts for [[login]]\n',
    };
    commit(dir, ours, 'ours');
    const r = spawnSync('git', ['merge', '--no-edit', 'other'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_EDITOR: 'true' } });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/CONFLICT/);
    expect(r.status).toBe(0);
    // Every link of either side is in the merged file at least as often as that side wrote it.
    for (const rel of [`${MEM}/MEMORY.md`, `${MEM}/billing.md`, `${MEM}/${log}`]) {
      const merged = links(readFileSync(join(dir, rel), 'utf8'));
      for (const side of [ours, theirs] as Array<Record<string, string>>) {
        for (const [l, n] of links(side[rel]!)) expect(merged.get(l) ?? 0, `${rel} ${l}`).toBeGreaterThanOrEqual(n);
      }
    }
    expect(readFileSync(join(dir, MEM, 'rota.md'), 'utf8')).toBe(theirs[`${MEM}/rota.md`]);
    expect(readFileSync(join(dir, MEM, 'audit.md'), 'utf8')).toBe(ours[`${MEM}/audit.md`]);
    // The driver merged them (not git's line merge): the index holds both new entries, in one piece.
    const index = readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [Rota](rota.md) — who is on call, [[ops#paging]]\n');
    expect(index).toContain('- [Audit](audit.md) — audit trail, [[billing]]\n');
    expect(index).toContain('- [Login](login.md) — the login flow, [[session-cookie|cookie]] notes\n');
  });
});
