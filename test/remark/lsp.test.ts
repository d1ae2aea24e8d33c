// `memlint lsp --stdio` driven as an editor drives it: initialize, open a memory file with a
// problem, receive the diagnostic, fix the text in the editor, receive an empty list.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, commitFiles, initRepo, memlint, tempDir } from '../helpers/repo.js';

interface RpcMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  severity: number;
  code?: string;
  source?: string;
}

/** A minimal LSP client: Content-Length framing over the server's stdio. */
class Client {
  private buffer = Buffer.alloc(0);
  private waiting: Array<{ test: (m: RpcMessage) => boolean; resolve: (m: RpcMessage) => void }> = [];
  private seen: RpcMessage[] = [];
  private nextId = 1;

  constructor(readonly server: ChildProcessWithoutNullStreams) {
    server.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as RpcMessage;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      const i = this.waiting.findIndex((w) => w.test(message));
      if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(message);
      else this.seen.push(message);
    }
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    this.server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.server.stdin.write(body);
  }

  /** The next message the test accepts (one already received, else the next to arrive). */
  next(test: (m: RpcMessage) => boolean): Promise<RpcMessage> {
    const i = this.seen.findIndex(test);
    if (i >= 0) return Promise.resolve(this.seen.splice(i, 1)[0]!);
    return new Promise((resolve) => this.waiting.push({ test, resolve }));
  }

  request(method: string, params: unknown): Promise<RpcMessage> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return this.next((m) => m.id === id && m.method === undefined);
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  diagnostics(uri: string): Promise<Diagnostic[]> {
    return this.next((m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri).then((m) => (m.params as { diagnostics: Diagnostic[] }).diagnostics);
  }
}

const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const s of started.splice(0)) if (s.exitCode === null) s.kill();
});

const TOPIC = (type: string) => `---\nname: Deploy\ndescription: How we deploy to production\ntype: ${type}\n---\nWe deploy from the release branch after review.\n`;

describe('memlint lsp --stdio', () => {
  it('publishes the diagnostic of an opened memory file, then an empty list once the text is fixed', async () => {
    const repo = initRepo(tempDir('memlint-lsp-'));
    commitFiles(repo, { '.claude/memory/MEMORY.md': '- [Deploy](deploy.md) — how we deploy\n', '.claude/memory/deploy.md': TOPIC('reference') }, 'memory');
    const file = join(repo, '.claude', 'memory', 'deploy.md');
    const uri = pathToFileURL(file).href;
    // What memlint says about the text the editor will hold (written aside, not into the repository).
    const scratch = initRepo(tempDir('memlint-lsp-cli-'));
    commitFiles(scratch, { '.claude/memory/MEMORY.md': '- [Deploy](deploy.md) — how we deploy\n', '.claude/memory/deploy.md': TOPIC('decision') }, 'memory');
    const cli = JSON.parse(memlint(scratch, ['.claude/memory', '--format', 'json']).stdout) as Array<{ messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>;
    const expected = cli.flatMap((r) => r.messages);
    expect(expected.map((m) => m.ruleId)).toEqual(['frontmatter-type']);

    const server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: repo, env: { ...process.env, MEMLINT_DEBUG: '' } });
    started.push(server);
    const client = new Client(server);
    const init = await client.request('initialize', { processId: process.pid, rootUri: pathToFileURL(repo).href, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(repo).href, name: 'repo' }] });
    expect(init.error).toBeUndefined();
    client.notify('initialized', {});

    // The editor's text, not the file on disk, is what is linted.
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: TOPIC('decision') } });
    const opened = await client.diagnostics(uri);
    expect(opened.map((d) => ({ code: d.code, source: d.source, line: d.range.start.line + 1, column: d.range.start.character + 1, message: d.message, severity: d.severity }))).toEqual(
      expected.map((m) => ({ code: m.ruleId, source: 'memlint', line: m.line, column: m.column, message: m.message, severity: 1 })),
    );

    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: TOPIC('reference') }] });
    expect(await client.diagnostics(uri)).toEqual([]);
    // The fixed text is what is on disk, and memlint agrees it is clean.
    expect(memlint(repo, ['.claude/memory']).code).toBe(0);

    await client.request('shutdown', null);
    client.notify('exit', null);
    const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));
    expect(code).toBe(0);
  });

  it('--help, and a usage error without --stdio', () => {
    const dir = tempDir('memlint-lsp-help-');
    const help = memlint(dir, ['lsp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: memlint lsp --stdio/);
    const bare = memlint(dir, ['lsp']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^memlint: the language server talks over stdio: run "memlint lsp --stdio"/);
  });
});
