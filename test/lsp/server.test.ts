// `memlint lsp --stdio` driven as an editor drives it (contract §12, §14; issues 27 and 28): real
// repositories, real files. Files on disk change only when the test, as the editor, applies an edit
// and saves. What the server does with the messages runs in this process (serve() on a pair of
// streams: test/lsp/client.ts); what only the process shows (the built server over stdio: bad
// frames ending it with one line on stderr and its exit code, stack traces, --help) starts it.
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, committedRepo, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { applyEdits, Client, editsByUri, type Diagnostic, type Range } from './client.js';

const clients: Client[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
});

/** A home and Claude Code config folder of the test's own, so `memlint where` resolves inside them. */
function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir('memlint-lsp-home-');
  return { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), MEMLINT_TODAY: '2026-03-02', ...extra };
}

/** The server in this process; `{ stdio: true }`, the built server over stdio. */
function start(cwd: string, env: NodeJS.ProcessEnv, { stdio = false } = {}): Client {
  const c = new Client(cwd, env, { inProcess: !stdio });
  clients.push(c);
  return c;
}

/** Every file below dir (its .git aside) with its bytes and mtime: what "nothing changed" compares. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.name === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${lstatSync(p).mtimeMs}:${e.isSymbolicLink() ? 'link' : readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return out;
}

const uriOf = (file: string) => pathToFileURL(file).href;
const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };
const TOPIC = (type: string, body = 'We deploy from the release branch after review.') => `---\nname: Deploy\ndescription: How we deploy to production\ntype: ${type}\n---\n${body}\n`;
const INDEX = '- [Deploy](deploy.md) — how we deploy\n';
const ORPHAN = '---\nname: Rollback\ndescription: How we roll a release back\ntype: project\n---\n## 2026-01-05 — rollback review\n\nThe release freeze starts tomorrow; rollbacks need two reviewers on Thursday next week.\n\n**Why:** a rushed rollback lost a day of orders.\n\n**How to apply:** before any rollback.\n';

function memoryRepo(files: Record<string, string> = {}): string {
  return committedRepo({ '.claude/memory/MEMORY.md': INDEX, '.claude/memory/deploy.md': TOPIC('reference'), ...files }, 'memory', tempDir('memlint-lsp-'));
}

describe('memlint lsp --stdio, as an editor drives it', () => {
  it('initialize advertises code actions and no formatting; a memory file gets the CLI\'s findings, once per version', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const file = join(repo, '.claude', 'memory', 'deploy.md');
    const uri = uriOf(file);
    // What memlint says about the text the editor will hold (written aside, not into the repository).
    const scratch = memoryRepo({ '.claude/memory/deploy.md': TOPIC('decision') });
    const cli = JSON.parse((await memlintInProcess(scratch, ['.claude/memory', '--format', 'json'], { env })).stdout) as Array<{ messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>;
    const expected = cli.flatMap((r) => r.messages);
    expect(expected.map((m) => m.ruleId)).toEqual(['frontmatter-type']);
    const before = snapshot(repo);

    const client = start(repo, env);
    const init = await client.initialize(repo);
    const caps = (init.result as { capabilities: Record<string, unknown> }).capabilities;
    expect(caps.documentFormattingProvider).toBeUndefined();
    expect(caps.documentRangeFormattingProvider).toBeUndefined();
    expect(caps.codeActionProvider).toEqual({ codeActionKinds: ['quickfix', 'source.fixAll.memlint'] });

    // The editor's text, not the file on disk, is what is linted.
    client.open(uri, TOPIC('decision'));
    const opened = await client.published(uri);
    expect(opened.version).toBe(1);
    expect(opened.diagnostics.map((d) => ({ code: d.code, source: d.source, line: d.range.start.line + 1, column: d.range.start.character + 1, message: d.message, severity: d.severity }))).toEqual(
      expected.map((m) => ({ code: m.ruleId, source: 'memlint', line: m.line, column: m.column, message: m.message, severity: 1 })),
    );

    // Format Document: refused, and the file is as it was.
    const formatted = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(formatted.error?.code).toBe(-32601);
    expect(formatted.result).toBeUndefined();

    const mark = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: TOPIC('reference') }] });
    expect(await client.published(uri, mark)).toEqual({ uri, version: 2, diagnostics: [] });
    // A code action request after the publish lints nothing again and publishes nothing more.
    expect(await client.codeActions(uri, WHOLE)).toEqual([]);
    // A client that sends ranges although the server asks for whole texts is followed too.
    const mark3 = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: 3, character: 6 }, end: { line: 3, character: 15 } }, text: 'decision' }] });
    expect((await client.published(uri, mark3)).diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(uri).map((p) => p.version)).toEqual([1, 2, 3]);
    expect(snapshot(repo)).toEqual(before);
    expect(client.stderr).toBe('');
  });

  it('a range whose character lies past its line\'s end stops at that end, as LSP says, never on a later line', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    const client = start(repo, env, { stdio: true });
    await client.initialize(repo);
    client.open(uri, TOPIC('reference'));
    expect((await client.published(uri)).diagnostics).toEqual([]);
    // "type: reference" is 15 characters: an end at character 99 means the end of that line (an
    // editor selecting to the end of a line may send any large number), not 84 characters into
    // the lines after it, which would cut away the closing `---` and the body.
    const mark = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 3, character: 6 }, end: { line: 3, character: 99 } }, text: 'decision' }] });
    expect((await client.published(uri, mark)).diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    // And the text is what the editor holds: putting the type back leaves nothing to report.
    const mark3 = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: 3, character: 6 }, end: { line: 3, character: 1000 } }, text: 'reference' }] });
    expect(await client.published(uri, mark3)).toEqual({ uri, version: 3, diagnostics: [] });
    // A whole-text change written with range: null (no range in LSP) replaces the text.
    const mark4 = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 4 }, contentChanges: [{ range: null, text: TOPIC('decision') }] });
    expect((await client.published(uri, mark4)).diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.stderr).toBe('');
  });

  it('offers each fix as memlint --fix makes it, and all of a file\'s fixes; files change only when the editor applies one', async () => {
    const repo = memoryRepo({ '.claude/memory/rollback.md': ORPHAN });
    const env = isolatedEnv();
    const topic = join(repo, '.claude', 'memory', 'rollback.md');
    const index = join(repo, '.claude', 'memory', 'MEMORY.md');
    // memlint --fix on a copy of the repository (the same commits, so the same line dates).
    const copy = tempDir('memlint-lsp-fixed-');
    cpSync(repo, copy, { recursive: true });
    const found = JSON.parse((await memlintInProcess(copy, ['.claude/memory/rollback.md', '--format', 'json'], { env })).stdout) as Array<{ messages: Array<{ ruleId: string }> }>;
    const ruleIds = found.flatMap((r) => r.messages.map((m) => m.ruleId)).sort();
    expect(ruleIds).toEqual(expect.arrayContaining(['absolute-dates', 'absolute-dates', 'index-orphan']));
    const fixed = await memlintInProcess(copy, ['--fix', '.claude/memory/rollback.md'], { env });
    expect(fixed.code).toBe(0);
    const fixedTopic = readFileSync(join(copy, '.claude', 'memory', 'rollback.md'), 'utf8');
    const fixedIndex = readFileSync(join(copy, '.claude', 'memory', 'MEMORY.md'), 'utf8');
    expect(fixedTopic).not.toBe(ORPHAN);
    expect(fixedIndex).not.toBe(INDEX);
    const before = snapshot(repo);

    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uriOf(topic), ORPHAN);
    const published = await client.published(uriOf(topic));
    expect(published.diagnostics.map((d) => d.code).sort()).toEqual(ruleIds);

    const actions = await client.codeActions(uriOf(topic), WHOLE);
    const quickfixes = actions.filter((a) => a.kind === 'quickfix');
    expect(quickfixes.map((a) => a.diagnostics?.[0]?.code).sort()).toEqual(['absolute-dates', 'absolute-dates', 'index-orphan']);
    // Each quick fix is the engine's own edit: the date written beside the word, the entry added to MEMORY.md.
    const orphanFix = quickfixes.find((a) => a.diagnostics?.[0]?.code === 'index-orphan')!;
    expect([...editsByUri(orphanFix.edit!).keys()]).toEqual([uriOf(index)]);
    const dateFix = quickfixes.find((a) => a.diagnostics?.[0]?.code === 'absolute-dates')!;
    const dateEdits = editsByUri(dateFix.edit!).get(uriOf(topic))!;
    expect(applyEdits(ORPHAN, dateEdits)).toMatch(/tomorrow \(\d{4}-\d\d-\d\d\)/);

    // Only what was asked for: the fix-all kind alone, as an editor asks on save.
    const onSave = await client.codeActions(uriOf(topic), WHOLE, ['source.fixAll']);
    expect(onSave.map((a) => a.kind)).toEqual(['source.fixAll.memlint']);
    const all = editsByUri(onSave[0]!.edit!);
    expect([...all.keys()].sort()).toEqual([uriOf(index), uriOf(topic)].sort());
    // Nothing was written by the server.
    expect(snapshot(repo)).toEqual(before);

    // The editor applies the edit (to the open buffer, and to MEMORY.md on disk) and saves.
    const topicText = applyEdits(ORPHAN, all.get(uriOf(topic))!);
    const indexText = applyEdits(readFileSync(index, 'utf8'), all.get(uriOf(index))!);
    expect(topicText).toBe(fixedTopic);
    expect(indexText).toBe(fixedIndex);
    writeFileSync(topic, topicText);
    writeFileSync(index, indexText);
    const mark = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri: uriOf(topic), version: 2 }, contentChanges: [{ text: topicText }] });
    client.notify('textDocument/didSave', { textDocument: { uri: uriOf(topic) } });
    expect((await client.published(uriOf(topic), mark)).diagnostics).toEqual([]);
    expect((await memlintInProcess(repo, ['.claude/memory'], { env })).code).toBe(0);
    expect(await client.stop()).toBe(0);
  });

  it('a date that is not certain is a quick fix the person chooses, never part of fix-all (issue 29)', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const topic = join(repo, '.claude', 'memory', 'deploy.md');
    // Not committed: the only day to count from is today's, so --fix writes no date.
    const text = TOPIC('reference', 'The `🚀` freeze starts tomorrow.');
    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uriOf(topic), text);
    const published = await client.published(uriOf(topic));
    expect(published.diagnostics.map((d) => d.code)).toEqual(['absolute-dates']);
    const actions = await client.codeActions(uriOf(topic), WHOLE);
    expect(actions.map((a) => [a.kind, a.title])).toEqual([['quickfix', 'Write the date: tomorrow (2026-03-03) (memlint suggests; --fix does not)']]);
    expect(applyEdits(text, editsByUri(actions[0]!.edit!).get(uriOf(topic))!)).toBe(TOPIC('reference', 'The `🚀` freeze starts tomorrow (2026-03-03).'));
    expect(await client.codeActions(uriOf(topic), WHOLE, ['source.fixAll'])).toEqual([]);
    expect(await client.stop()).toBe(0);
  });

  it('one answer lists at most 1,000 quick fixes, those of the range asked about; fix-all still fixes every finding (issue 28, contract §9)', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const topic = join(repo, '.claude', 'memory', 'deploy.md');
    // 1,500 lines of a dated section, each with two dates --fix writes: 3,000 fixable findings.
    const lines = Array.from({ length: 1500 }, (_, i) => `- Item ${i}: shipped yesterday, review it tomorrow.`);
    const text = TOPIC('project', `## 2026-02-27\n\n${lines.join('\n')}`);
    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uriOf(topic), text);
    const published = await client.published(uriOf(topic));
    expect(published.diagnostics.filter((d) => d.code === 'absolute-dates')).toHaveLength(3000);
    const everything: Range = { start: { line: 0, character: 0 }, end: { line: 2000, character: 0 } };
    const actions = await client.codeActions(uriOf(topic), everything);
    const quick = actions.filter((a) => a.kind === 'quickfix');
    expect(quick).toHaveLength(1000);
    // The first findings in the file's order: lines 8 to 507 (0-based 7 to 506), two each.
    expect(quick[0]!.diagnostics![0]!.range.start.line).toBe(7);
    expect(quick[999]!.diagnostics![0]!.range.start.line).toBe(506);
    expect(actions.filter((a) => a.kind === 'source.fixAll.memlint')).toHaveLength(1);
    const all = editsByUri(actions.find((a) => a.kind === 'source.fixAll.memlint')!.edit!).get(uriOf(topic))!;
    const fixed = applyEdits(text, all);
    expect(fixed.match(/yesterday \(2026-02-26\), review it tomorrow \(2026-02-28\)/g)).toHaveLength(1500);
    // A line near the end: its own two fixes, though 1,000 came before it.
    const line = 7 + 1400;
    const near = await client.codeActions(uriOf(topic), { start: { line, character: 0 }, end: { line, character: 200 } }, ['quickfix']);
    expect(near.map((a) => a.diagnostics![0]!.range.start.line)).toEqual([line, line]);
    expect(applyEdits(text, editsByUri(near[1]!.edit!).get(uriOf(topic))!)).toContain('- Item 1400: shipped yesterday, review it tomorrow (2026-02-28).');
    expect(await client.stop()).toBe(0);
  });

  it('a new memory file the editor has not saved yet gets the same findings as once saved', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const file = join(repo, '.claude', 'memory', 'rollback.md');
    const uri = uriOf(file);
    // What memlint says about the file once it is on disk (written aside, not into the repository).
    const scratch = memoryRepo({ '.claude/memory/rollback.md': ORPHAN });
    const cli = JSON.parse(memlint(scratch, ['.claude/memory/rollback.md', '--format', 'json'], { env }).stdout) as Array<{ messages: Array<{ ruleId: string; line: number; column: number }> }>;
    const expected = cli.flatMap((r) => r.messages).map((m) => ({ code: m.ruleId, line: m.line, column: m.column }));
    expect(expected.map((m) => m.code)).toContain('index-orphan');
    // A dangling symlink is on disk: the loader judges it, whatever the editor holds.
    symlinkSync(join(tempDir('memlint-lsp-outside-'), 'missing.md'), join(repo, '.claude', 'memory', 'gone.md'));
    const before = snapshot(repo);
    const client = start(repo, env);
    await client.initialize(repo);
    const gone = uriOf(join(repo, '.claude', 'memory', 'gone.md'));
    client.open(gone, ORPHAN);
    // A file in the memory folder that is no memory file stays unlinted, saved or not.
    const notes = uriOf(join(repo, '.claude', 'memory', 'notes.txt'));
    client.open(notes, 'The freeze starts tomorrow.\n');
    client.open(uri, ORPHAN);
    // Documents are linted in the order they changed: once the last is published, the other was decided.
    const published = await client.published(uri);
    expect(published.diagnostics.map((d) => ({ code: d.code, line: d.range.start.line + 1, column: d.range.start.character + 1 }))).toEqual(expected);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(notes).flatMap((p) => p.diagnostics)).toEqual([]);
    // As the CLI says it; the editor's text is not linted in its place.
    expect(client.publishes(gone).flatMap((p) => p.diagnostics.map((d) => d.message))).toEqual(['symlink to a missing file; not read']);
    expect(snapshot(repo)).toEqual(before);
  });

  /** A server on a memory repository with the topic `rollback.md` open, no index entry naming it yet. */
  async function orphanTopicOpen() {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const index = uriOf(join(repo, '.claude', 'memory', 'MEMORY.md'));
    const topic = uriOf(join(repo, '.claude', 'memory', 'rollback.md'));
    const client = start(repo, env, { stdio: true });
    await client.initialize(repo);
    client.open(topic, ORPHAN.replace('tomorrow; rollbacks need two reviewers on Thursday next week', '2026-03-03'));
    return { client, index, topic };
  }

  it('an index entry for a memory file the editor holds but has not saved yet links to an existing file', async () => {
    // The editor's text stands in for the file: the index, linted while the new topic is open, must
    // not say its entry points at nothing (the new topic, linted, is not an orphan either).
    const { client, index, topic } = await orphanTopicOpen();
    expect((await client.published(topic)).diagnostics.map((d) => d.code)).toEqual(['index-orphan']);
    const mark = client.received.length;
    client.open(index, `${INDEX}- [Rollback](rollback.md) — how we roll a release back\n`);
    expect((await client.published(index, mark)).diagnostics).toEqual([]);
    // Saved or not, once the topic is gone from the editor and the disk, the entry is dangling.
    client.notify('textDocument/didClose', { textDocument: { uri: topic } });
    const mark2 = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri: index, version: 2 }, contentChanges: [{ text: `${INDEX}- [Rollback](rollback.md) — how we roll a release back\n` }] });
    expect((await client.published(index, mark2)).diagnostics.map((d) => d.code)).toEqual(['index-link-target']);
    expect(await client.stop()).toBe(0);
    expect(client.stderr).toBe('');
  });

  it('an edit to one file of a memory folder publishes again what it settles in another open file (the orphan the index now names)', async () => {
    const { client, index, topic } = await orphanTopicOpen();
    client.open(index, INDEX);
    expect((await client.published(index)).diagnostics).toEqual([]);
    expect((await client.published(topic)).diagnostics.map((d) => d.code)).toEqual(['index-orphan']);
    // The entry the quick fix writes, typed into the index: the topic's finding goes, unedited.
    const mark = client.received.length;
    client.notify('textDocument/didChange', { textDocument: { uri: index, version: 2 }, contentChanges: [{ text: `${INDEX}- [Rollback](rollback.md) — how we roll a release back\n` }] });
    expect((await client.published(topic, mark)).diagnostics).toEqual([]);
    // Closing the index, whose entry was never saved: the disk's index names no rollback.md again.
    const mark2 = client.received.length;
    client.notify('textDocument/didClose', { textDocument: { uri: index } });
    expect((await client.published(topic, mark2)).diagnostics.map((d) => d.code)).toEqual(['index-orphan']);
    expect(await client.stop()).toBe(0);
    // Each publish for the topic says something new: nothing is sent twice.
    const sent = client.publishes(topic).map((p) => JSON.stringify(p.diagnostics));
    expect(sent.every((d, i) => i === 0 || d !== sent[i - 1])).toBe(true);
    expect(client.stderr).toBe('');
  });

  it('a topic the editor opens settles the open index\'s entry for it; a topic edit re-lints the index, not the other topics', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv({ MEMLINT_DEBUG: '1' });
    const index = uriOf(join(repo, '.claude', 'memory', 'MEMORY.md'));
    const deploy = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    const topic = uriOf(join(repo, '.claude', 'memory', 'rollback.md'));
    const client = start(repo, env, { stdio: true });
    await client.initialize(repo);
    client.open(deploy, TOPIC('reference'));
    client.open(index, `${INDEX}- [Rollback](rollback.md) — how we roll a release back\n`);
    expect((await client.published(index)).diagnostics.map((d) => d.code)).toEqual(['index-link-target']);
    expect((await client.published(deploy)).diagnostics).toEqual([]);
    // The new topic, not saved yet: the index's entry now points at it.
    const mark = client.received.length;
    client.open(topic, ORPHAN.replace('tomorrow; rollbacks need two reviewers on Thursday next week', '2026-03-03'));
    expect((await client.published(index, mark)).diagnostics).toEqual([]);
    expect((await client.published(topic, mark)).diagnostics).toEqual([]);
    expect(await client.stop()).toBe(0);
    // deploy.md was linted once: a topic's change reaches the index, not the other topics.
    const lints = client.stderr.split('\n').filter((l) => l.includes('linting') && l.includes('deploy.md'));
    expect(lints).toHaveLength(1);
  });

  it('a fix that moves text into another file edits both, in the editor\'s texts of them', async () => {
    const long = `- [Deploy](deploy.md) — how we deploy: ${'from the release branch after a review by two people who did not write the change, '.repeat(2)}then tag`;
    const repo = memoryRepo({ '.claude/memory/MEMORY.md': `${long}\n` });
    const env = isolatedEnv();
    const index = join(repo, '.claude', 'memory', 'MEMORY.md');
    const topic = join(repo, '.claude', 'memory', 'deploy.md');
    const copy = tempDir('memlint-lsp-fixed-');
    cpSync(repo, copy, { recursive: true });
    expect((await memlintInProcess(copy, ['--fix', '.claude/memory/MEMORY.md'], { env })).code).toBe(0);
    const client = start(repo, env);
    await client.initialize(repo, {});
    // The topic file is open with an unsaved edit: the moved text is placed in that text.
    const edited = TOPIC('reference', 'We deploy from the release branch after review.\n\nUnsaved line.');
    client.open(uriOf(topic), edited);
    client.open(uriOf(index), `${long}\n`);
    expect((await client.published(uriOf(index))).diagnostics.map((d) => d.code)).toContain('index-line-length');
    const fix = (await client.codeActions(uriOf(index), WHOLE, ['quickfix'])).find((a) => a.diagnostics?.[0]?.code === 'index-line-length')!;
    // A client without versioned document edits gets plain `changes`.
    expect(fix.edit!.documentChanges).toBeUndefined();
    const edits = editsByUri(fix.edit!);
    expect([...edits.keys()].sort()).toEqual([uriOf(index), uriOf(topic)].sort());
    expect(applyEdits(`${long}\n`, edits.get(uriOf(index))!)).toBe(readFileSync(join(copy, '.claude', 'memory', 'MEMORY.md'), 'utf8'));
    const movedBefore = readFileSync(join(copy, '.claude', 'memory', 'deploy.md'), 'utf8');
    const moved = applyEdits(edited, edits.get(uriOf(topic))!);
    expect(moved.startsWith(edited.trimEnd())).toBe(true);
    expect(moved.slice(edited.trimEnd().length)).toBe(movedBefore.slice(TOPIC('reference').trimEnd().length));
    expect(await client.stop()).toBe(0);
  });

  it('a burst of 3,000 changes is linted at its end: one publish, for the last version', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv({ MEMLINT_DEBUG: '1' });
    const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uri, TOPIC('reference'));
    expect((await client.published(uri)).diagnostics).toEqual([]);
    // All 3,000 in one write, as fast as the pipe takes them; the last one leaves a finding.
    const COUNT = 3000;
    const frames: Buffer[] = [];
    for (let v = 2; v <= COUNT + 1; v++) {
      const text = v === COUNT + 1 ? TOPIC('decision') : TOPIC('reference', `Edit number ${v}.`);
      frames.push(Client.frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version: v }, contentChanges: [{ text }] } }));
    }
    const mark = client.received.length;
    client.write(Buffer.concat(frames));
    const last = await client.published(uri, mark);
    expect(last.version).toBe(COUNT + 1);
    expect(last.diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(uri).map((p) => p.version)).toEqual([1, COUNT + 1]);
    // Lints run only when the input paused (a quiet period after the last change): bounded by the
    // chunks the pipe delivered, never one per change.
    const linted = [...client.stderr.matchAll(/^memlint lsp: linting "[^"]+" version (\d+)$/gm)].map((m) => Number(m[1]));
    expect(linted[0]).toBe(1);
    expect(linted.at(-1)).toBe(COUNT + 1);
    expect(linted.length).toBeLessThan(COUNT / 100);
  });

  it('a document over 4 MiB gets one diagnostic saying it was not linted, and no lint', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv({ MEMLINT_DEBUG: '1' });
    const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    const client = start(repo, env);
    await client.initialize(repo);
    // Every line a relative date: what took 143 s for 2 MB before, were it linted.
    client.open(uri, TOPIC('reference', 'We ship tomorrow and again next Thursday.\n'.repeat(120_000)));
    const published = await client.published(uri);
    expect(published.diagnostics).toHaveLength(1);
    expect(published.diagnostics[0]!.message).toMatch(/^file is \d+\.\d MB, too large to be a memory; not linted$/);
    expect(await client.stop()).toBe(0);
    expect(client.stderr).not.toMatch(/linting/);
  });

  it('Markdown outside a memory folder gets nothing; the folder `memlint where` resolves gets diagnostics even outside the workspace', async () => {
    const repo = memoryRepo({ 'README.md': '# Project\n\nDeploy tomorrow.\n' });
    const env = isolatedEnv();
    const where = JSON.parse((await memlintInProcess(repo, ['where', '--json'], { env })).stdout) as { resolved: string };
    const autoDir = where.resolved.replace(/[/\\]+$/, '');
    expect(autoDir.startsWith(env.HOME!)).toBe(true);
    writeFiles(autoDir, { 'MEMORY.md': '- [Notes](notes.md) — personal notes\n', 'notes.md': TOPIC('decision') });
    // Another repository's memory, not in the workspace: not this editor's business.
    const other = memoryRepo();

    const client = start(repo, env);
    await client.initialize(repo);
    const readme = uriOf(join(repo, 'README.md'));
    const foreign = uriOf(join(other, '.claude', 'memory', 'deploy.md'));
    const personal = uriOf(join(autoDir, 'notes.md'));
    client.open(readme, '# Project\n\nDeploy tomorrow.\n');
    client.open(foreign, TOPIC('decision'));
    client.open(personal, TOPIC('decision'));
    // Documents are linted in the order they changed: once the last is published, the others were decided.
    expect((await client.published(personal)).diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(readme)).toEqual([]);
    expect(client.publishes(foreign)).toEqual([]);
  });

  it('a document whose URI names no possible file (a NUL in its path) is left alone, and the folder\'s other files are linted', async () => {
    const repo = memoryRepo();
    const client = start(repo, isolatedEnv());
    await client.initialize(repo);
    const memory = uriOf(join(repo, '.claude', 'memory'));
    client.open(`${memory}/a%00b.md`, 'x\n');
    const deploy = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    client.open(deploy, TOPIC('decision'));
    expect((await client.published(deploy)).diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(`${memory}/a%00b.md`)).toEqual([]);
  });

  it('never reads through a committed symlinked memory folder or file leading out of the repository', async () => {
    const outside = tempDir('memlint-lsp-outside-');
    writeFiles(outside, { 'mem/MEMORY.md': '- [Secret](secret.md) — elsewhere\n', 'mem/secret.md': TOPIC('decision'), 'note.md': TOPIC('decision') });
    const repo = initRepo(tempDir('memlint-lsp-link-'));
    mkdirSync(join(repo, '.claude'), { recursive: true });
    symlinkSync(join(outside, 'mem'), join(repo, '.claude', 'memory'));
    writeFiles(repo, { '.claude/agent-memory/helper/MEMORY.md': '- [Deploy](deploy.md) — how we deploy\n', '.claude/agent-memory/helper/deploy.md': TOPIC('decision') });
    symlinkSync(join(outside, 'note.md'), join(repo, '.claude', 'agent-memory', 'helper', 'note.md'));
    commitFiles(repo, {}, 'memory behind links');
    const before = snapshot(outside);
    const env = isolatedEnv();
    const client = start(repo, env);
    await client.initialize(repo);
    const linked = uriOf(join(repo, '.claude', 'memory', 'secret.md'));
    const linkedFile = uriOf(join(repo, '.claude', 'agent-memory', 'helper', 'note.md'));
    const real = uriOf(join(repo, '.claude', 'agent-memory', 'helper', 'deploy.md'));
    client.open(linked, TOPIC('decision'));
    client.open(linkedFile, TOPIC('decision'));
    client.open(real, TOPIC('decision'));
    const published = await client.published(real);
    expect(published.diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    expect(client.publishes(linked)).toEqual([]);
    expect(client.publishes(linkedFile)).toEqual([]);
    expect(snapshot(outside)).toEqual(before);
  });
});

describe('memlint lsp --stdio runs no code from the workspace', () => {
  it('a .remarkrc.*, a package.json remarkConfig plugin, a committed node_modules/remark and a code config are never loaded', async () => {
    const marks = tempDir('memlint-lsp-marks-');
    const plant = (name: string, esm = false) => {
      const body = `require('node:fs').writeFileSync(${JSON.stringify(join(marks, name))}, 'ran');`;
      return esm ? `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(marks, name))}, 'ran');\nexport default {};\n` : `${body}\nmodule.exports = {};\n`;
    };
    const repo = memoryRepo({
      '.remarkrc.js': plant('remarkrc-js'),
      '.remarkrc.cjs': plant('remarkrc-cjs'),
      '.remarkrc.mjs': plant('remarkrc-mjs', true),
      '.remarkrc.json': JSON.stringify({ plugins: ['./plugin-json.cjs'] }),
      '.remarkrc.yaml': 'plugins:\n  - ./plugin-yaml.cjs\n',
      'plugin-json.cjs': plant('plugin-json'),
      'plugin-yaml.cjs': plant('plugin-yaml'),
      'plugin-pkg.cjs': plant('plugin-pkg'),
      'package.json': JSON.stringify({ name: 'hostile', remarkConfig: { plugins: ['./plugin-pkg.cjs', 'remark-lint-hostile'] } }),
      'node_modules/remark/package.json': JSON.stringify({ name: 'remark', version: '99.0.0', main: 'index.js', exports: { '.': { require: './index.js', import: './index.mjs' } } }),
      'node_modules/remark/index.js': plant('node-modules-remark'),
      'node_modules/remark/index.mjs': plant('node-modules-remark-esm', true),
      'node_modules/remark-lint-hostile/package.json': JSON.stringify({ name: 'remark-lint-hostile', version: '1.0.0', main: 'index.js' }),
      'node_modules/remark-lint-hostile/index.js': plant('remark-lint-hostile'),
      'memlint.config.mjs': plant('memlint-config', true),
      '.memlintrc.js': plant('memlintrc-js'),
    });
    const env = isolatedEnv();
    const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uri, TOPIC('decision', 'The freeze starts tomorrow.'));
    const published = await client.published(uri);
    expect(published.diagnostics.map((d) => d.code).sort()).toEqual(['absolute-dates', 'frontmatter-type']);
    const actions = await client.codeActions(uri, WHOLE);
    // The line is not committed: its date is a suggestion (a quick fix), not a --fix edit.
    expect(actions.map((a) => a.kind).sort()).toEqual(['quickfix']);
    expect(await client.stop()).toBe(0);
    expect(readdirSync(marks)).toEqual([]);
  });
});

describe('memlint lsp --stdio on bad input', () => {
  const started = async () => {
    const repo = memoryRepo();
    const client = start(repo, isolatedEnv(), { stdio: true });
    await client.initialize(repo);
    return client;
  };
  const oneLine = (stderr: string) => {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it('a header without Content-Length: one line on stderr, exit 2', async () => {
    const client = await started();
    client.write('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"shutdown"}');
    expect(await client.exited).toBe(2);
    oneLine(client.stderr);
    expect(client.stderr).toMatch(/^memlint lsp: a message header without Content-Length from the client; the messages after it cannot be read, so the server stops\n$/);
  });

  it('a Content-Length that is not a number: one line, exit 2', async () => {
    const client = await started();
    client.write('Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0"}');
    expect(await client.exited).toBe(2);
    oneLine(client.stderr);
    expect(client.stderr).toMatch(/Content-Length that is not a number/);
  });

  it('a Content-Length past any message (and no body): one line, exit 2, not a silent wait', async () => {
    const client = await started();
    client.write('Content-Length: 999999999999999\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"shutdown"}');
    expect(await client.exited).toBe(2);
    oneLine(client.stderr);
    expect(client.stderr).toMatch(/a Content-Length of 999999999999999 bytes, more than any message/);
  });

  it('a 10 MB header line: one line, exit 2, without reading it all', async () => {
    const client = await started();
    client.write(`X-Junk: ${'a'.repeat(10 * 1024 * 1024)}`);
    expect(await client.exited).toBe(2);
    oneLine(client.stderr);
    expect(client.stderr).toMatch(/a message header longer than 8 KiB/);
  });

  it('a notification the server cannot apply loses none of the messages read with it, nor the framing', async () => {
    const repo = memoryRepo();
    const env = isolatedEnv();
    const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
    // In this process: each write reaches the server as one read, as the test cuts them.
    const client = start(repo, env);
    await client.initialize(repo);
    client.open(uri, TOPIC('reference'));
    expect((await client.published(uri)).diagnostics).toEqual([]);
    // One read holds a change whose range has no end (a broken client), a change to apply, a
    // request, and the first 10 bytes of another request; the next read holds the rest of it.
    const bad = Client.frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 } }, text: 'x' }] } });
    const good = Client.frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version: 3 }, contentChanges: [{ text: TOPIC('decision') }] } });
    const asked = Client.frame({ id: 900, method: 'textDocument/codeAction', params: { textDocument: { uri }, range: WHOLE, context: { diagnostics: [] } } });
    const later = Client.frame({ id: 901, method: 'textDocument/codeAction', params: { textDocument: { uri }, range: WHOLE, context: { diagnostics: [] } } });
    const mark = client.received.length;
    client.write(Buffer.concat([bad, good, asked, later.subarray(0, 10)]));
    client.write(later.subarray(10));
    // The server answers the last request; it does not end, having lost its place in the stream.
    const last = await Promise.race([client.next((m) => m.id === 901, mark), client.exited.then((code) => ({ exited: code }))]);
    expect(last).not.toHaveProperty('exited');
    expect((last as { error?: unknown }).error).toBeUndefined();
    expect((await client.next((m) => m.id === 900, mark)).error).toBeUndefined();
    expect(client.publishes(uri).map((p) => p.version)).toEqual([1, 3]);
    expect(client.publishes(uri).at(-1)!.diagnostics.map((d) => d.code)).toEqual(['frontmatter-type']);
    expect(await client.stop()).toBe(0);
    // The bad change is said in one line, without a stack trace.
    expect(client.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(client.stderr).not.toMatch(/\n\s+at /);
  });

  it('a body that is not JSON is dropped with a parse error; the server goes on', async () => {
    const client = await started();
    client.write('Content-Length: 9\r\n\r\n{"jsonrpc');
    const error = await client.next((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect(await client.stop()).toBe(0);
    oneLine(client.stderr);
    expect(client.stderr).toMatch(/^memlint lsp: dropped a message that is not JSON/);
  });

  it('a request whose id is neither a number nor a string gets an Invalid Request error with a null id (a user trial)', async () => {
    const client = await started();
    client.write(Client.frame({ id: { x: 1 }, method: 'textDocument/codeAction', params: {} }));
    const error = await client.next((m) => m.error?.code === -32600);
    expect(error.id).toBeNull();
    expect(error.error!.message).toContain('has an id that is not a number or a string');
    expect(await client.stop()).toBe(0);
  });

  it('no stack trace reaches the client or stderr unless MEMLINT_DEBUG=1', async () => {
    for (const debug of ['', '1']) {
      const repo = memoryRepo({ '.memlintrc.json': JSON.stringify({ rules: { 'no-such-rule': 'error' } }) });
      const uri = uriOf(join(repo, '.claude', 'memory', 'deploy.md'));
      const client = start(repo, isolatedEnv({ MEMLINT_DEBUG: debug }), { stdio: true });
      await client.initialize(repo);
      client.open(uri, TOPIC('reference'));
      const published = await client.published(uri);
      expect(published.diagnostics.map((d: Diagnostic) => d.message)).toEqual(['memlint could not lint this file: unknown rule "no-such-rule" in config (run "memlint lint --help --rules" for the list)']);
      const bad = await client.request('textDocument/codeAction', { range: WHOLE });
      expect(bad.error?.code).toBe(-32602);
      expect(await client.stop()).toBe(0);
      expect(JSON.stringify(client.received)).not.toMatch(/\s+at \S+ \(|\.mjs:\d+/);
      if (debug === '1') expect(client.stderr).toMatch(/\n\s+at /);
      else oneLine(client.stderr);
    }
  });

  it('exit without shutdown ends with 1, as LSP says; requests before initialize are refused', async () => {
    const repo = memoryRepo();
    const client = start(repo, isolatedEnv(), { stdio: true });
    const early = await client.request('textDocument/codeAction', { textDocument: { uri: 'file:///x.md' }, range: WHOLE, context: {} });
    expect(early.error?.code).toBe(-32002);
    await client.initialize(repo);
    client.notify('exit', null);
    expect(await client.exited).toBe(1);
  });
});

describe('memlint lsp', () => {
  it('--help says what it reads and that it never loads workspace config; a usage error without --stdio', () => {
    const dir = tempDir('memlint-lsp-help-');
    const help = memlint(dir, ['lsp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: memlint lsp --stdio/);
    expect(help.stdout).toMatch(/What it reads:/);
    expect(help.stdout).toMatch(/never loads a workspace's remark configuration \(\.remarkrc\*, package\.json "remarkConfig"\), plugin\s+or node_modules, and runs no code from the repository/);
    expect(help.stdout).toMatch(/offers no formatting/);
    const bare = memlint(dir, ['lsp']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^memlint: the language server talks over stdio: run "memlint lsp --stdio"/);
  });
});
