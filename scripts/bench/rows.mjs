// The benchmark rows: what runs against what, on which generated data, and the targets each
// row checks. A row whose memlint command is not in this build reports "not available yet".
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MEMDIR_REL, cached, ensureLargeRepo, ensureMemdirRepo, git } from './generate.mjs';
import { markdownlintCommand, peerCounts, remarkCommand, writePeerConfigs } from './peers.mjs';
import { assertGenerated, ensureMergeScenario, restoreOurs, stageEdits, tracked } from './scenarios.mjs';
import { compare, median, runOnce } from './timing.mjs';

export const SIZES = {
  full: {
    lint: [
      { id: 'lint-20', topics: 20, logDays: 0 },
      { id: 'lint-566', topics: 200, logDays: 365 },
      { id: 'lint-2000', topics: 2000, logDays: 0 },
    ],
    perFile: [20, 200, 2000],
    repoFiles: 20_000,
    mergeTopics: 200,
  },
  quick: {
    lint: [
      { id: 'lint-20', topics: 20, logDays: 0 },
      { id: 'lint-566', topics: 60, logDays: 30 },
      { id: 'lint-2000', topics: 300, logDays: 0 },
    ],
    perFile: [20, 60, 300],
    repoFiles: 2_000,
    mergeTopics: 200,
  },
};

export const ROW_IDS = ['lint-20', 'lint-566', 'lint-566-dated', 'lint-2000', 'per-file', 'staged-none', 'hook-pre-commit-code', 'hook-pre-commit-rm', 'staged-doc', 'staged-three', 'staged-rm', 'hook-post-tool-use', 'pre-push-none', 'merge-driver', 'merge-git', 'update-branch', 'consolidate-566', 'consolidate-2000'];

function memlint(ctx, args, cwd, extra = {}) {
  return { name: 'memlint', argv: [process.execPath, ctx.cli, ...args], cwd, display: `memlint ${args.join(' ')}`, ...extra };
}

const nodeNothing = (cwd) => ({ name: 'node -e 0', argv: [process.execPath, '-e', '0'], cwd, display: 'node -e 0' });

/** One shell word of a GIT_TRACE line: git quotes an argument in single quotes when it must ('it'\''s'). */
function traceWords(line) {
  const words = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let w = '';
    while (i < line.length && line[i] !== ' ') {
      if (line[i] === "'") {
        const close = line.indexOf("'", i + 1);
        w += line.slice(i + 1, close);
        i = close + 1;
      } else if (line[i] === '\\') {
        w += line[i + 1];
        i += 2;
      } else w += line[i++];
    }
    words.push(w);
  }
  return words;
}

/**
 * The floor command of a start-up row (scripts/bench/floor.cjs): run memlint once with GIT_TRACE
 * at set-up, keep the git calls it made, and replay just those. A call that read stdin (git
 * cat-file --batch) is not in a row with a floor: its input is not in the trace.
 */
function gitFloor(ctx, subject, name) {
  const calls = join(ctx.work, `floor-${name}.json`);
  return {
    command: { name: 'floor', argv: [process.execPath, join(ctx.root, 'scripts/bench/floor.cjs'), calls], cwd: subject.cwd, display: 'floor: node and the same git calls (scripts/bench/floor.cjs)' },
    record: () => {
      const trace = join(ctx.work, `floor-${name}.trace`);
      rmSync(trace, { force: true });
      runOnce({ ...subject, env: { ...(subject.env ?? {}), GIT_TRACE: trace } }, ctx.method, { capture: true });
      const lines = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n') : [];
      const args = lines.flatMap((l) => {
        const m = /trace: (?:built-in|exec): git (.*)$/.exec(l);
        return m ? [traceWords(m[1])] : [];
      });
      const readsStdin = args.find((a) => a.some((w, k) => (w === '-' && a[k - 1] === '-f') || w === '--stdin' || w.startsWith('--batch')));
      if (readsStdin) throw new Error(`the floor of ${name} cannot replay "git ${readsStdin.join(' ')}": its input is not in the trace`);
      writeFileSync(calls, JSON.stringify(args.map((a) => ({ args: a }))));
      return args.map((a) => `git ${a.join(' ')}`).join('; ');
    },
  };
}

/** One run with output captured: is the command in this build, and what did it say? */
function probe(cmd, method) {
  const r = runOnce(cmd, method, { capture: true });
  const unavailable = r.code === 2 || r.code > 128;
  return { ...r, unavailable, reason: unavailable ? (r.stderr.trim().split('\n')[0] || `exit ${r.code}`) : null };
}

function memdirFileCount(repo) {
  return git(repo, ['ls-files', '--', MEMDIR_REL]).trim().split('\n').filter((l) => l.endsWith('.md')).length;
}

function ratioTarget(label, ratios, vs, limit, stretch) {
  const r = ratios.find((x) => x.vs === vs);
  if (!r) return { label, limit: `<= ${limit}x`, measured: null, holds: null };
  const t = { label, limit: `<= ${limit}x`, measured: `${r.median.toFixed(3)}x`, fastest: `${r.fastest.toFixed(3)}x`, holds: r.median <= limit };
  if (stretch !== undefined) t.stretch = { limit: `<= ${stretch}x`, holds: r.median <= stretch };
  return t;
}

function lintRow(ctx, spec) {
  const repo = ensureMemdirRepo(ctx.cache, { seed: ctx.seed, topics: spec.topics, logDays: spec.logDays });
  writePeerConfigs(repo);
  const files = memdirFileCount(repo);
  const subject = memlint(ctx, [MEMDIR_REL], repo);
  const commands = [subject, markdownlintCommand(ctx.root, repo, MEMDIR_REL), remarkCommand(ctx.root, repo, MEMDIR_REL)];
  return {
    title: `lint, ${files} files (${spec.topics} topics${spec.logDays ? ` + ${spec.logDays} daily logs` : ''})`,
    files,
    commands,
    facts: () => {
      const json = runOnce(memlint(ctx, ['--format', 'json', MEMDIR_REL], repo), ctx.method, { capture: true });
      let memlintFindings = null;
      let memlintFiles = null;
      try {
        const results = JSON.parse(json.stdout);
        memlintFiles = results.length;
        memlintFindings = results.reduce((n, r) => n + r.messages.length, 0);
      } catch {
        // not JSON: leave the counts unknown
      }
      const md = runOnce(commands[1], ctx.method, { capture: true });
      const rm = runOnce({ ...commands[2], argv: commands[2].argv.filter((a) => a !== '--quiet') }, ctx.method, { capture: true });
      const mdCounts = peerCounts('markdownlint-cli2', md.stdout + md.stderr);
      const rmText = (rm.stdout + rm.stderr).replace(/\x1b\[[0-9;]*m/g, '');
      const rmFiles = rmText.split('\n').filter((l) => /^\S.*\.md(:|$)/.test(l)).length;
      return {
        'files processed': { memlint: memlintFiles, 'markdownlint-cli2': mdCounts.files, 'remark-cli': rmFiles },
        findings: { memlint: memlintFindings, 'markdownlint-cli2': mdCounts.findings, 'remark-cli': peerCounts('remark-cli', rmText).findings },
      };
    },
    targets: (res) => {
      const t = [];
      if (spec.id === 'lint-566') t.push(ratioTarget(`lint of the ${files}-file memdir vs markdownlint-cli2`, res.ratios, 'markdownlint-cli2', 0.35, 0.15));
      if (spec.id === 'lint-2000') {
        t.push(ratioTarget(`lint of ${files} files (${spec.topics} topics) vs markdownlint-cli2`, res.ratios, 'markdownlint-cli2', 0.35));
        const a = res.results[0].rssKb;
        const b = res.results[1].rssKb;
        t.push({ label: `peak RSS at ${spec.topics} topics below markdownlint-cli2's`, limit: `< ${b === null ? '?' : (b / 1024).toFixed(1)} MB`, measured: a === null ? null : `${(a / 1024).toFixed(1)} MB`, holds: a === null || b === null ? null : a < b });
      }
      return t;
    },
  };
}

function perFileRow(ctx) {
  const sizes = ctx.sizes.perFile.map((topics) => {
    const repo = ensureMemdirRepo(ctx.cache, { seed: ctx.seed, topics, logDays: 0 });
    return { topics, repo, files: memdirFileCount(repo) };
  });
  const commands = sizes.map((s) => memlint(ctx, [MEMDIR_REL], s.repo, { name: `memlint, ${s.files} files`, display: `memlint ${MEMDIR_REL} (${s.files} files)` }));
  return {
    title: `lint cost per file, ${sizes.map((s) => s.files).join(' -> ')} files (topics only)`,
    commands,
    derive: (res) => {
      const n = sizes.map((s) => s.files);
      const rounds = res.results[0].ms.length;
      const m1s = [];
      const m2s = [];
      for (let k = 0; k < rounds; k++) {
        const t = res.results.map((r) => r.ms[k]);
        const m1 = (t[1] - t[0]) / (n[1] - n[0]);
        const m2 = (t[2] - t[1]) / (n[2] - n[1]);
        m1s.push(m1);
        m2s.push(m2);
      }
      return {
        perFileMs: res.results.map((r, i) => r.median / n[i]),
        marginalMs: [median(m1s), median(m2s)],
        // Ratio of the median marginal costs: a per-round ratio divides two small, noisy
        // differences and swings widely.
        marginalRatio: median(m2s) / median(m1s),
        files: n,
      };
    },
    targets: (res, d) => {
      const falling = d.perFileMs.every((x, i) => i === 0 || x <= d.perFileMs[i - 1]);
      return [
        { label: 'average cost per file (whole run / files) flat or falling with size', limit: 'non-increasing', measured: d.perFileMs.map((x) => `${x.toFixed(3)} ms`).join(' -> '), holds: falling },
        { label: `marginal cost per file, ${d.files[1]}->${d.files[2]} over ${d.files[0]}->${d.files[1]} (ratio of medians)`, limit: '<= 1.10x (flat within noise)', measured: `${d.marginalRatio.toFixed(2)}x (${d.marginalMs.map((x) => `${x.toFixed(3)}`).join(' then ')} ms/file)`, holds: d.marginalRatio <= 1.1 },
      ];
    },
  };
}

function largeRepo(ctx) {
  if (!ctx.largeRepo) {
    ctx.largeRepo = ensureLargeRepo(ctx.cache, { seed: ctx.seed, count: ctx.sizes.repoFiles, topics: 200, logDays: 365 });
  }
  return ctx.largeRepo;
}

// The limits are the ones issues 13 and 14 accept for the simpler house and the one Markdown model
// (lint <= 0.35x markdownlint-cli2, --staged <= 1.25x and <= 2.5x node -e 0, the merge driver
// <= 1.3x); the earlier, tighter ones (0.3x, 1.2x, 2x) are in docs/BENCHMARKS.md's history.
const STAGED = {
  none: {
    title: 'nothing memory-related staged (two source files)',
    target: ['--staged, nothing memory-related staged (source files), vs node -e 0', 1.25],
  },
  doc: {
    title: 'a Markdown file that is not memory staged (README.md and a source file)',
    // The harness's own row, held to the issue's limit for "nothing memory-related"; an exact answer
    // takes two git processes here (scripts/bench/NOTES.md).
    target: ['--staged, a non-memory Markdown file staged (README.md), vs node -e 0 (the harness\'s own row)', 1.25],
  },
  three: {
    title: 'three topic files staged',
    target: ['--staged, three topic files staged, vs node -e 0', 2.5],
  },
  // A staged deletion or rename may make a memory stale (no-stale-reference): the launcher then
  // greps tracked Markdown for the lost paths' folders, one git process more than 'none'.
  rm: {
    title: 'a source file deleted (git rm) that no memory names',
    target: ['--staged, a staged deletion no memory names, vs node -e 0', 1.25],
  },
};

/**
 * The pre-push hook when the pushed commits change no memory: git's pre-push stdin for a push of a
 * new commit (made with commit-tree, so no ref moves) over the current one.
 */
function prePushRow(ctx) {
  const repo = largeRepo(ctx);
  const head = git(repo, ['rev-parse', 'HEAD']).trim();
  const pushed = git(repo, ['commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'bench: a push with no memory in it']).trim();
  const input = `refs/heads/main ${pushed} refs/heads/main ${head}\n`;
  const subject = memlint(ctx, ['consolidate', '--pre-push'], repo, { input });
  const floor = gitFloor(ctx, subject, 'pre-push-none');
  return {
    title: `consolidate --pre-push in a repository of ${ctx.sizes.repoFiles.toLocaleString('en')} tracked files, the pushed commit changes no memory`,
    setup: () => ({ 'tracked files': tracked(repo), pushed: `${pushed.slice(0, 12)} over ${head.slice(0, 12)}`, 'git calls (the floor)': floor.record() }),
    teardown: () => {},
    commands: [subject, nodeNothing(repo), floor.command],
    runsFactor: 3,
    targets: (res) => [ratioTarget('pre-push hook, no memory in the pushed range, vs node -e 0', res.ratios, 'node -e 0', 1.3)],
  };
}

function stagedRow(ctx, which) {
  const repo = largeRepo(ctx);
  const sources = git(repo, ['ls-files', '--', 'src']).split('\n').slice(0, 2);
  const topicFiles = git(repo, ['ls-files', '--', `${MEMDIR_REL}/*_*.md`]).trim().split('\n').filter((p) => !p.includes('/logs/'));
  const edits = {
    none: sources.map((p) => [p, '// touched\n']),
    doc: [['README.md', '\nBuild notes moved to the wiki.\n'], [sources[0], '// touched\n']],
    three: topicFiles.slice(0, 3).map((p) => [p, '\nConfirmed again on 2026-11-27.\n']),
    rm: [],
  }[which];
  const spec = STAGED[which];
  const subject = memlint(ctx, ['--staged'], repo);
  // The rows whose git calls read no stdin (staged-three reads blobs through cat-file --batch,
  // staged-rm greps for patterns it writes to git grep -f -).
  const floor = which === 'none' || which === 'doc' ? gitFloor(ctx, subject, `staged-${which}`) : null;
  return {
    title: `--staged in a repository of ${ctx.sizes.repoFiles.toLocaleString('en')} tracked files, ${spec.title}`,
    setup: () => {
      let staged = stageEdits(repo, ctx.work, edits);
      if (which === 'rm') {
        git(repo, ['rm', '-q', '--', sources[1]]);
        staged = [`${sources[1]} (deleted)`];
      }
      return { 'tracked files': tracked(repo), staged: staged.join(', '), ...(floor ? { 'git calls (the floor)': floor.record() } : {}) };
    },
    teardown: () => stageEdits(repo, ctx.work, []),
    commands: [subject, nodeNothing(repo), ...(floor ? [floor.command] : [])],
    runsFactor: 3,
    targets: (res) => [ratioTarget(spec.target[0], res.ratios, 'node -e 0', spec.target[1])],
  };
}

const shellQuote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * The pre-commit hook as git runs it (memlint's block of `.husky/pre-commit`, from hooks/, with
 * this build's memlint) when the commit stages code alone (`code`) or deletes a source file no
 * memory names (`rm`): what every such commit costs.
 */
function preCommitHookRow(ctx, which) {
  const repo = largeRepo(ctx);
  const sources = git(repo, ['ls-files', '--', 'src']).split('\n').slice(0, 2);
  const script = readFileSync(join(ctx.root, 'hooks', 'pre-commit'), 'utf8')
    .replace('@find@', `memlint=${shellQuote(ctx.cli)}`)
    .replaceAll('@run@', `${shellQuote(process.execPath)} "$memlint"`);
  const what = which === 'code' ? 'nothing memory-related staged (two source files)' : STAGED.rm.title;
  return {
    title: `the pre-commit hook as git runs it, in a repository of ${ctx.sizes.repoFiles.toLocaleString('en')} tracked files, ${what}`,
    setup: () => {
      if (which === 'code') return { 'tracked files': tracked(repo), staged: stageEdits(repo, ctx.work, sources.map((p) => [p, '// touched\n'])).join(', ') };
      stageEdits(repo, ctx.work, []);
      git(repo, ['rm', '-q', '--', sources[1]]);
      return { 'tracked files': tracked(repo), staged: `${sources[1]} (deleted)` };
    },
    teardown: () => stageEdits(repo, ctx.work, []),
    commands: [{ name: 'pre-commit hook', argv: ['sh', '-e', '-c', script], cwd: repo, display: "sh -e .husky/pre-commit (memlint's block)" }, nodeNothing(repo), memlint(ctx, ['--staged'], repo, { name: 'memlint --staged' })],
    runsFactor: 3,
    targets: (res) => [ratioTarget(`pre-commit hook, ${which === 'code' ? 'nothing memory-related staged (source files)' : 'a staged deletion no memory names'}, vs node -e 0`, res.ratios, 'node -e 0', 1.25)],
  };
}

/**
 * `memlint hook` as Claude Code runs it after an Edit of a topic file in a 200-topic memdir: the
 * documented PostToolUse payload on stdin, the project in CLAUDE_PROJECT_DIR.
 */
function hookRow(ctx) {
  const repo = ensureMemdirRepo(ctx.cache, { seed: ctx.seed, topics: 200, logDays: 0 });
  const topic = git(repo, ['ls-files', '--', `${MEMDIR_REL}/*_*.md`]).trim().split('\n').find((p) => !p.includes('/logs/'));
  const file = join(repo, topic);
  const input = JSON.stringify({
    session_id: 'bench',
    transcript_path: join(repo, 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'a', new_string: 'a', replace_all: false },
    tool_response: { filePath: file, success: true },
    tool_use_id: 'toolu_bench',
  });
  return {
    title: `memlint hook, PostToolUse of an Edit of a topic file in a ${memdirFileCount(repo)}-file memdir (200 topics)`,
    commands: [memlint(ctx, ['hook'], repo, { input, env: { CLAUDE_PROJECT_DIR: repo } }), nodeNothing(repo)],
    runsFactor: 3,
    targets: (res) => [ratioTarget('hook, PostToolUse on a 200-topic memdir, vs node -e 0', res.ratios, 'node -e 0', 2)],
  };
}

function mergeDriverRow(ctx) {
  const s = ensureMergeScenario(ctx.cache, { seed: ctx.seed, topics: ctx.sizes.mergeTopics });
  const scratch = join(s.workDir, 'scratch');
  mkdirSync(scratch, { recursive: true });
  const oursMemlint = join(scratch, 'ours-memlint');
  const oursMergeFile = join(scratch, 'ours-merge-file');
  const subject = memlint(ctx, ['merge', s.base, oursMemlint, s.theirs, s.markerSize, s.path], s.repo, {
    prepare: () => restoreOurs(s, oursMemlint),
    display: 'memlint merge %O %A %B %L %P (git\'s temp files of a real merge)',
  });
  const mergeFile = {
    name: 'git merge-file',
    argv: ['git', 'merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', oursMergeFile, s.base, s.theirs],
    cwd: s.repo,
    prepare: () => restoreOurs(s, oursMergeFile),
    display: 'git merge-file %A %O %B',
  };
  return {
    title: `merge driver on a ${ctx.sizes.mergeTopics}-entry MEMORY.md, concurrent edits on both sides`,
    commands: [subject, nodeNothing(s.repo), mergeFile],
    runsFactor: 3,
    facts: () => {
      const r = runOnce(subject, ctx.method, { capture: true });
      const merged = readFileSync(oursMemlint, 'utf8');
      const kept = s.expect.added.filter((f) => merged.includes(`](${f})`)).length;
      const mf = runOnce(mergeFile, ctx.method, { capture: true });
      return {
        'memlint result': `exit ${r.code}; ${kept}/${s.expect.added.length} added entries present; removed entry ${merged.includes(`](${s.expect.removed})`) ? 'still present' : 'gone'}; conflict markers: ${/^<{7}/m.test(merged) ? 'yes' : 'none'}`,
        'git merge-file result': `exit ${mf.code} (${mf.code} conflicts left)`,
        'driver input': `base ${lines(s.base)} lines, ours ${lines(s.oursOriginal)}, theirs ${lines(s.theirs)}; marker size ${s.markerSize}; path ${s.path}`,
      };
    },
    targets: (res) => [ratioTarget('merge driver vs node -e 0', res.ratios, 'node -e 0', 1.3)],
  };
}

function lines(p) {
  return readFileSync(p, 'utf8').split('\n').length - 1;
}

/** The merge scenario's branches, a reset to `ours` as it started, and the driver command for `git -c`. */
function mergeBranches(ctx) {
  const s = ensureMergeScenario(ctx.cache, { seed: ctx.seed, topics: ctx.sizes.mergeTopics });
  const reset = () => {
    assertGenerated(s.repo, ctx.work);
    git(s.repo, ['reset', '-q', '--hard', 'ours-start']);
  };
  return { s, reset, driver: `${JSON.stringify(process.execPath)} ${JSON.stringify(ctx.cli)} merge %O %A %B %L %P` };
}

function mergeGitRow(ctx) {
  const { s, reset, driver } = mergeBranches(ctx);
  return {
    title: `git merge of two branches that both edited the ${ctx.sizes.mergeTopics}-entry index (whole git merge)`,
    commands: [
      { name: 'git merge, memlint driver', argv: ['git', '-c', `merge.memlint.driver=${driver}`, 'merge', '--no-edit', '-q', 'theirs'], cwd: s.repo, prepare: reset, display: 'git -c merge.memlint.driver=... merge theirs' },
      { name: 'git merge, text merge', argv: ['git', 'merge', '--no-edit', '-q', 'theirs'], cwd: s.repo, prepare: reset, display: 'git merge theirs (no driver defined: git\'s line merge)' },
    ],
    teardown: reset,
    needs: 'merge',
    runsFactor: 3,
    targets: () => [],
  };
}

/**
 * `memlint update-branch` on the same two branches as merge-git: the whole command (its checks,
 * the merge with the driver forced on, the commit), against the `git merge` that does the same
 * work where the driver is configured (which also commits), and against git's own line merge.
 */
function updateBranchRow(ctx) {
  const { s, reset, driver } = mergeBranches(ctx);
  const withDriver = 'git merge, memlint driver';
  return {
    title: `update-branch of the ${ctx.sizes.mergeTopics}-entry index branches (both sides edited it) vs git merge`,
    setup: () => {
      reset();
      return { branch: git(s.repo, ['symbolic-ref', '--short', 'HEAD']).trim(), merged: 'theirs into ours' };
    },
    commands: [
      memlint(ctx, ['update-branch', '--base', 'theirs'], s.repo, { prepare: reset, display: 'memlint update-branch --base theirs' }),
      { name: withDriver, argv: ['git', '-c', `merge.memlint.driver=${driver}`, 'merge', '--no-edit', '-q', 'theirs'], cwd: s.repo, prepare: reset, display: 'git -c merge.memlint.driver=... merge theirs (the same merge where the driver is configured; commits)' },
      { name: 'git merge, text merge', argv: ['git', 'merge', '--no-edit', '-q', 'theirs'], cwd: s.repo, prepare: reset, display: "git merge theirs (no driver defined: git's line merge, conflicts)" },
    ],
    teardown: reset,
    needs: 'update-branch',
    runsFactor: 3,
    facts: () => {
      const r = runOnce(memlint(ctx, ['update-branch', '--base', 'theirs', '--json'], s.repo, { prepare: reset }), ctx.method, { capture: true });
      let said = `exit ${r.code}`;
      try {
        const j = JSON.parse(r.stdout);
        said += `; status ${j.status}; settled ${j.settled.map((x) => `${x.path} (${x.by})`).join(', ') || 'none'}`;
      } catch {
        said += `: ${(r.stdout + r.stderr).trim().split('\n')[0]}`;
      }
      return { 'update-branch result': said };
    },
    targets: (res) => [ratioTarget('update-branch vs git merge with the memlint driver configured (same merge, committed)', res.ratios, withDriver, 2)],
  };
}

function consolidateRow(ctx, spec) {
  const repo = ensureMemdirRepo(ctx.cache, { seed: ctx.seed, topics: spec.topics, logDays: spec.logDays });
  writePeerConfigs(repo);
  const files = memdirFileCount(repo);
  const before = () => git(repo, ['status', '--porcelain', '--', MEMDIR_REL]);
  return {
    title: `consolidate --check, ${files} files (${spec.topics} topics${spec.logDays ? ` + ${spec.logDays} daily logs` : ''})`,
    commands: [memlint(ctx, ['consolidate', '--check', MEMDIR_REL], repo), markdownlintCommand(ctx.root, repo, MEMDIR_REL)],
    facts: () => {
      const r = runOnce(memlint(ctx, ['consolidate', '--check', MEMDIR_REL], repo), ctx.method, { capture: true });
      const dirty = before();
      return { 'consolidate says': `exit ${r.code}: ${(r.stdout + r.stderr).trim().split('\n')[0].slice(0, 200)}`, 'memdir unchanged by --check': dirty ? `NO: ${dirty.split('\n').length} paths changed` : 'yes' };
    },
    targets: (res) => (spec.logDays ? [ratioTarget(`consolidate --check at ${files} files vs markdownlint-cli2`, res.ratios, 'markdownlint-cli2', 0.3)] : []),
  };
}

/**
 * The 566-file memdir as a team keeps it (issue 29): committed, then a later commit that gives 40
 * topics a relative date each (so absolute-dates needs commit dates), and three untracked topics
 * with one (which have none: no blame for them). memlint against markdownlint-cli2 on it.
 */
function datedRow(ctx) {
  const spec = ctx.sizes.lint[1];
  const base = ensureMemdirRepo(ctx.cache, { seed: ctx.seed, topics: spec.topics, logDays: spec.logDays });
  const repo = join(cached(ctx.cache, `${base.split('/').slice(-2, -1)[0]}-dated`, (tmp) => {
    const r = join(tmp, 'repo');
    cpSync(base, r, { recursive: true });
    const mem = join(r, MEMDIR_REL);
    const topics = readdirSync(mem).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md').sort().slice(0, 40);
    for (const f of topics) appendFileSync(join(mem, f), '\nThe vendor call moved to tomorrow.\n');
    git(r, ['add', '-A']);
    git(r, ['commit', '-q', '-m', 'memory: notes']);
    for (const n of [1, 2, 3]) writeFileSync(join(mem, `project_untracked_${n}.md`), `---\nname: Untracked ${n}\ndescription: Not committed yet\ntype: project\n---\nWe ship next Friday.\n`);
  }), 'repo');
  writePeerConfigs(repo);
  const files = memdirFileCount(repo) + 3;
  const commands = [memlint(ctx, [MEMDIR_REL], repo), markdownlintCommand(ctx.root, repo, MEMDIR_REL), remarkCommand(ctx.root, repo, MEMDIR_REL)];
  return {
    title: `lint, ${files} files committed with relative dates in 40 (${spec.topics} topics + ${spec.logDays} daily logs)`,
    files,
    commands,
    targets: (res) => [ratioTarget(`lint of the ${files}-file memdir with dated lines, in git, vs markdownlint-cli2`, res.ratios, 'markdownlint-cli2', 0.3)],
  };
}

export function buildRow(ctx, id) {
  if (id === 'lint-566-dated') return datedRow(ctx);
  const lint = ctx.sizes.lint.find((s) => s.id === id);
  if (lint) return lintRow(ctx, lint);
  if (id === 'per-file') return perFileRow(ctx);
  if (id === 'staged-none') return stagedRow(ctx, 'none');
  if (id === 'hook-pre-commit-code') return preCommitHookRow(ctx, 'code');
  if (id === 'hook-pre-commit-rm') return preCommitHookRow(ctx, 'rm');
  if (id === 'staged-doc') return stagedRow(ctx, 'doc');
  if (id === 'staged-three') return stagedRow(ctx, 'three');
  if (id === 'staged-rm') return stagedRow(ctx, 'rm');
  if (id === 'hook-post-tool-use') return hookRow(ctx);
  if (id === 'pre-push-none') return prePushRow(ctx);
  if (id === 'merge-driver') return mergeDriverRow(ctx);
  if (id === 'merge-git') return mergeGitRow(ctx);
  if (id === 'update-branch') return updateBranchRow(ctx);
  if (id === 'consolidate-566') return consolidateRow(ctx, ctx.sizes.lint[1]);
  if (id === 'consolidate-2000') return consolidateRow(ctx, ctx.sizes.lint[2]);
  throw new Error(`unknown row ${id}`);
}

/** Set up, probe, time, derive and judge one row. */
export function runRow(ctx, id, log) {
  const row = buildRow(ctx, id);
  const out = { id, title: row.title, status: 'ok', setup: null, facts: null, results: [], ratios: [], derived: null, targets: [], commands: row.commands.map((c) => c.display ?? c.name) };
  try {
    if (row.needs) {
      const help = probe({ name: 'help', argv: [process.execPath, ctx.cli, row.needs, '--help'], cwd: ctx.root }, ctx.method);
      if (help.unavailable) {
        out.status = 'unavailable';
        out.reason = help.reason;
        log(`  not available yet: ${help.reason}`);
        return out;
      }
    }
    out.setup = row.setup ? row.setup() : null;
    const p = probe(row.commands[0], ctx.method);
    if (p.unavailable) {
      out.status = 'unavailable';
      out.reason = p.reason;
      log(`  not available yet: ${p.reason}`);
      return out;
    }
    // Rows of sub-200 ms commands get more rounds: cheap, and their ratios are the noisiest.
    const runs = ctx.runs * (row.runsFactor ?? 1);
    const res = compare(row.commands, { runs, method: ctx.method, onProgress: (k) => log(`  round ${k}/${runs}`, true) });
    out.results = res.results;
    out.ratios = res.ratios;
    out.derived = row.derive ? row.derive(res) : null;
    out.targets = row.targets(res, out.derived);
    out.facts = row.facts ? row.facts() : null;
  } catch (err) {
    out.status = 'error';
    out.reason = String(err.message ?? err).split('\n')[0];
    log(`  error: ${out.reason}`);
  } finally {
    row.teardown?.();
  }
  return out;
}

/** For a memlint command, the argv that writes a CPU profile into `dir`. */
export function profiledCommand(ctx, id, dir) {
  const row = buildRow(ctx, id);
  if (row.setup) row.setup();
  const cmd = row.commands[0];
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { row, cmd: { ...cmd, argv: [cmd.argv[0], '--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', dir, ...cmd.argv.slice(1)] } };
}

export { existsSync };
