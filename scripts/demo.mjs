// `npm run demo`: lint the bundled example memory (clean), then a copy with planted problems,
// then let --fix settle what it can. Run after the build (npm run demo builds first).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.js');
const tty = process.stdout.isTTY;
const bold = (s) => (tty ? `\x1b[1m${s}\x1b[0m` : s);

function memlint(args, cwd) {
  process.stdout.write(`\n${bold(`$ memlint ${args.join(' ')}`)}\n`);
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...(tty ? { FORCE_COLOR: '1' } : {}) } });
  process.stdout.write(`(exit ${r.status})\n`);
  return r.status;
}

let ok = true;
const expect = (cond, what) => {
  if (!cond) {
    ok = false;
    process.stderr.write(`demo: unexpected: ${what}\n`);
  }
};

process.stdout.write(bold('1. The bundled example memory (examples/memory) is clean:\n'));
expect(memlint(['examples/memory'], root) === 0, 'the example memory should lint clean');

const work = mkdtempSync(join(tmpdir(), 'memlint-demo-'));
const mem = join(work, 'memory');
cpSync(join(root, 'examples', 'memory'), mem, { recursive: true });

// Plant the problems real committed memory has.
appendFileSync(
  join(mem, 'MEMORY.md'),
  [
    '- [Testing again](feedback_testing.md) — integration tests hit a real database',
    '- Always run the linter before pushing (content written into the index)',
    '- [Deploy notes](project_deploy_notes.md) — entry whose topic file was never committed',
    '- [Release freeze](project_release_freeze.md) — no merges to main from 2026-12-14 to 2027-01-04 except hotfixes approved by the release captain, because the payments year-end close runs then',
    '',
  ].join('\n'),
);
writeFileSync(
  join(mem, 'feedback_standups.md'),
  '---\nname: Stand-up notes\ndescription: Keep stand-up summaries to three bullets\ntype: preference\n---\n\nKeep stand-up summaries to three bullets.\n',
);
writeFileSync(join(mem, 'README.md'), '# Notes for humans\n\nThis folder is our agent memory.\n');
const topic = join(mem, 'reference_linear.md');
writeFileSync(topic, readFileSync(topic, 'utf8') + '\n<<<<<<< ours\nBugs go to LEDGER.\n=======\nBugs go to PAY.\n>>>>>>> theirs\n');

process.stdout.write(`\n${bold('2. A copy with planted problems (a duplicate, content in the index, a dangling link, a long hook, a bad type, an orphan, a README, conflict markers):')}\n`);
expect(memlint(['memory'], work) === 1, 'the planted problems should fail the lint');

process.stdout.write(`\n${bold('3. --fix settles what it can without losing a byte of text, and reports the rest:')}\n`);
expect(memlint(['memory', '--fix'], work) === 1, 'some problems need a person');

process.stdout.write(`\n${bold('4. The same findings as JSON (ESLint\'s shape), for tools:')}\n`);
const json = spawnSync(process.execPath, [cli, 'memory', '--format', 'json'], { cwd: work, encoding: 'utf8' });
const results = JSON.parse(json.stdout);
const count = results.reduce((n, r) => n + r.messages.length, 0);
process.stdout.write(`${results.length} files, ${count} messages; first: ${JSON.stringify(results.find((r) => r.messages.length)?.messages[0])}\n`);

process.stdout.write(`\n${bold('5. What the agent loads at session start, and its budget:')}\n`);
expect(memlint(['show', 'examples/memory', '--budget'], root) === 0, 'show --budget should work');

// The merge driver: two branches that both taught the agent something merge with no conflict.
process.stdout.write(`\n${bold('6. Two branches each add a memory and edit a different entry; git merges MEMORY.md with the driver:')}\n`);
const repo = join(work, 'repo');
const git = (...args) => {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0 && !(args[0] === 'merge')) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r;
};
cpSync(join(root, 'examples', 'memory'), join(repo, '.claude', 'memory'), { recursive: true });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Demo');
git('config', 'user.email', 'demo@example.com');
git('config', 'core.autocrlf', 'false');
git('config', 'merge.memlint.driver', `node ${JSON.stringify(cli)} merge %O %A %B %L %P`);
writeFileSync(join(repo, '.gitattributes'), '.claude/memory/**/*.md merge=memlint\n');
git('add', '-A');
git('commit', '-q', '-m', 'memory');
const index = join(repo, '.claude', 'memory', 'MEMORY.md');
const topicText = (name, type, description) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${description}.\n\n**Why:** asked for in review.\n\n**How to apply:** every time.\n`;
git('checkout', '-q', '-b', 'alice');
writeFileSync(join(repo, '.claude', 'memory', 'feedback_changelog.md'), topicText('Changelog entries', 'feedback', 'Every user-visible change gets a changelog line in the same PR'));
writeFileSync(index, readFileSync(index, 'utf8').replace('## Project', '- [Changelog entries](feedback_changelog.md) — every user-visible change gets a changelog line\n\n## Project').replace('no database mocks;', 'no database mocks or SQLite;'));
git('add', '-A');
git('commit', '-q', '-m', 'alice: changelog feedback');
git('checkout', '-q', 'main');
writeFileSync(join(repo, '.claude', 'memory', 'feedback_flags.md'), topicText('Feature flags', 'feedback', 'New payout behaviour ships behind a feature flag, off by default'));
writeFileSync(index, readFileSync(index, 'utf8').replace('## Project', '- [Feature flags](feedback_flags.md) — new payout behaviour ships behind a flag, off by default\n\n## Project').replace('findings first', 'findings first and numbered'));
git('add', '-A');
git('commit', '-q', '-m', 'main: feature flag feedback');
// For comparison: git's own line merge of the same three versions.
const version = (rev) => git('show', `${rev}:.claude/memory/MEMORY.md`).stdout;
const base = join(work, 'base.md');
const ours = join(work, 'ours.md');
const theirs = join(work, 'theirs.md');
writeFileSync(base, version(git('merge-base', 'main', 'alice').stdout.trim()));
writeFileSync(ours, version('main'));
writeFileSync(theirs, version('alice'));
const plain = spawnSync('git', ['merge-file', '-p', ours, base, theirs], { encoding: 'utf8' });
process.stdout.write(`git's line merge of MEMORY.md alone: ${plain.status > 0 ? `${plain.status} conflict(s), both branches appended in the same place` : 'clean'}\n`);
const merged = git('merge', '--no-edit', 'alice');
process.stdout.write(`$ git merge alice\n${merged.stdout}${merged.stderr}(exit ${merged.status})\n`);
expect(merged.status === 0, 'the merge should be clean');
const after = readFileSync(index, 'utf8');
for (const needle of ['feedback_changelog.md', 'feedback_flags.md', 'or SQLite', 'findings first and numbered']) {
  expect(after.includes(needle), `the merged index should hold ${needle}`);
}
process.stdout.write(after.split('\n').filter((l) => /changelog|flags|SQLite|numbered/.test(l)).map((l) => `  ${l}`).join('\n') + '\n');
expect(memlint(['.claude/memory'], repo) === 0, 'the merged memory should lint clean');

rmSync(work, { recursive: true, force: true });
process.stdout.write(ok ? `\n${bold('Demo finished: memlint behaved as expected.')}\n` : '\nDemo finished with surprises (see above).\n');
process.exitCode = ok ? 0 : 1;
