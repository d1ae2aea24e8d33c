// Scenario set-up for the rows that need more than a memdir: a merge with concurrent edits of a
// 200-entry index (git's own temp files captured from a real `git merge`), and staged states in
// the large repository. Every git command here runs in a repository this benchmark generated.
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, MEMDIR_REL, cached, generateMemdir, git, initRepo, writeTree } from './generate.mjs';

/** Bump when a scenario's set-up changes. */
const SCENARIO_VERSION = 2;

/** Refuse to run a destructive git command anywhere but a generated repository. */
export function assertGenerated(repo, root) {
  const top = git(repo, ['rev-parse', '--show-toplevel']).trim();
  if (realpathSync(top) !== realpathSync(repo) || !realpathSync(repo).startsWith(realpathSync(root))) {
    throw new Error(`refusing to touch ${repo}: not a repository generated under ${root}`);
  }
}

function newTopic(slug, title, type, text) {
  return {
    file: `${slug}.md`,
    content: `---\nname: "${title}"\ndescription: "${text}"\ntype: ${type}\n---\n\n${text}\n\n**Why:** Agreed in the planning review on 2026-11-20.\n\n**How to apply:** Follow it for every change from 2026-12-01 on.\n`,
    line: `- [${title}](${slug}.md) — ${text}`,
  };
}

/** Insert `line` after the `afterIndex`-th entry line of the index text. */
function insertAfterEntry(indexText, afterIndex, line) {
  const lines = indexText.split('\n');
  let seen = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('- [')) seen++;
    if (seen === afterIndex) {
      lines.splice(i + 1, 0, line);
      return lines.join('\n');
    }
  }
  throw new Error(`index has no entry ${afterIndex}`);
}

function editEntryHook(indexText, entryIndex, suffix) {
  const lines = indexText.split('\n');
  let seen = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('- [') && ++seen === entryIndex) {
      // Replace the hook's last words so the line stays within the limit.
      lines[i] = lines[i].replace(/(\s\S+){3}$/, '') + ` ${suffix}`;
      return lines.join('\n');
    }
  }
  throw new Error(`index has no entry ${entryIndex}`);
}

function deleteEntry(indexText, entryIndex) {
  const lines = indexText.split('\n');
  let seen = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('- [') && ++seen === entryIndex) {
      const target = /\]\(([^)]+)\)/.exec(lines[i])[1];
      lines.splice(i, 1);
      return { text: lines.join('\n'), target };
    }
  }
  throw new Error(`index has no entry ${entryIndex}`);
}

/**
 * A repository whose `ours` and `theirs` branches both changed a 200-entry MEMORY.md since
 * `base`: each side adds three topics (at different places), edits two other entries' hooks,
 * and theirs removes one entry with its topic file. Git's temp files for the index merge are
 * captured by a copying driver during a real `git merge`, with the arguments git passes.
 */
export function ensureMergeScenario(root, { seed, topics }) {
  const name = `merge-v${GENERATOR_VERSION}.${SCENARIO_VERSION}-${seed}-${topics}t`;
  const dir = cached(root, name, (tmp) => {
    const repo = join(tmp, 'repo');
    initRepo(repo);
    const memdir = join(repo, MEMDIR_REL);
    writeTree(memdir, generateMemdir({ seed, topics }));
    writeFileSync(join(repo, '.gitattributes'), `${MEMDIR_REL}/** merge=memlint\n`);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'base']);
    const indexPath = join(memdir, 'MEMORY.md');
    const base = readFileSync(indexPath, 'utf8');

    git(repo, ['checkout', '-q', '-b', 'ours']);
    let ours = base;
    const oursAdds = [
      newTopic('feedback_payout_batch_size', 'Payout batch size', 'feedback', 'payout batches stay under 5,000 transfers per file sent to the bank'),
      newTopic('project_ledger_read_replica', 'Ledger read replica', 'project', 'reporting reads move to the ledger read replica on 2026-12-09'),
      newTopic('reference_bank_sandbox', 'Partner bank sandbox', 'reference', 'sandbox credentials and limits for the partner bank live in the vault'),
    ];
    oursAdds.forEach((t, k) => {
      writeFileSync(join(memdir, t.file), t.content);
      ours = insertAfterEntry(ours, 10 + k * 60, t.line);
    });
    ours = editEntryHook(ours, 5, 'reviewed 2026-11-21');
    ours = editEntryHook(ours, 120, 'owner confirmed 2026-11-22');
    writeFileSync(indexPath, ours);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'ours: three topics, two hooks edited']);

    git(repo, ['checkout', '-q', '-b', 'theirs', 'main']);
    let theirs = base;
    const theirAdds = [
      newTopic('feedback_refund_reason_codes', 'Refund reason codes', 'feedback', 'refunds always carry one of the twelve reason codes finance reports on'),
      newTopic('project_card_network_update', 'Card network update', 'project', 'the card network message format changes on 2027-02-10; tests by 2027-01-20'),
      newTopic('reference_settlement_calendar', 'Settlement calendar', 'reference', 'bank holidays per market for settlement are in the shared calendar'),
    ];
    theirAdds.forEach((t, k) => {
      writeFileSync(join(memdir, t.file), t.content);
      theirs = insertAfterEntry(theirs, 30 + k * 50, t.line);
    });
    theirs = editEntryHook(theirs, 70, 'reviewed 2026-11-23');
    theirs = editEntryHook(theirs, 160, 'still current 2026-11-24');
    const removed = deleteEntry(theirs, 180);
    theirs = removed.text;
    rmSync(join(memdir, removed.target));
    writeFileSync(indexPath, theirs);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'theirs: three topics, two hooks edited, one removed']);

    // Capture what git hands a merge driver for MEMORY.md.
    git(repo, ['checkout', '-q', 'ours']);
    git(repo, ['tag', 'ours-start']);
    const capture = join(tmp, 'driver-input');
    mkdirSync(capture);
    const q = (p) => `'${p.replace(/'/g, `'\\''`)}'`;
    git(repo, [
      '-c', `merge.memlint.driver=cp %O ${q(join(capture, 'base'))} && cp %A ${q(join(capture, 'ours'))} && cp %B ${q(join(capture, 'theirs'))} && echo %L > ${q(join(capture, 'args'))} && echo %P >> ${q(join(capture, 'args'))}`,
      'merge', '--no-edit', '-q', 'theirs',
    ]);
    git(repo, ['reset', '-q', '--hard', 'ours-start']);
    writeFileSync(join(tmp, 'expect.json'), JSON.stringify({ added: [...oursAdds, ...theirAdds].map((t) => t.file), removed: removed.target }));
  });
  const capture = join(dir, 'driver-input');
  const [markerSize, path] = readFileSync(join(capture, 'args'), 'utf8').trim().split('\n');
  return {
    repo: join(dir, 'repo'),
    base: join(capture, 'base'),
    oursOriginal: join(capture, 'ours'),
    theirs: join(capture, 'theirs'),
    markerSize,
    path,
    expect: JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')),
    workDir: dir,
  };
}

/** Reset the large repository to its commit, then stage the given edits (path -> appended text). */
export function stageEdits(repo, root, edits) {
  assertGenerated(repo, root);
  git(repo, ['reset', '-q', '--hard', 'HEAD']);
  for (const [rel, extra] of edits) {
    const p = join(repo, rel);
    writeFileSync(p, readFileSync(p, 'utf8') + extra);
  }
  if (edits.length) git(repo, ['add', '--', ...edits.map(([rel]) => rel)]);
  const staged = git(repo, ['diff', '--cached', '--name-only']).trim().split('\n').filter(Boolean);
  return staged;
}

/** A working copy of OURS for each driver run (the driver writes its result into it). */
export function restoreOurs(scenario, target) {
  copyFileSync(scenario.oursOriginal, target);
}

export function tracked(repo) {
  return git(repo, ['ls-files', '-z']).split('\0').filter(Boolean).length;
}

export { existsSync };
