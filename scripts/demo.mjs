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

rmSync(work, { recursive: true, force: true });
process.stdout.write(ok ? `\n${bold('Demo finished: memlint behaved as expected.')}\n` : '\nDemo finished with surprises (see above).\n');
process.exitCode = ok ? 0 : 1;
