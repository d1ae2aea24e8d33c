// A minimal LSP client, as an editor is one: Content-Length framing over the built server's stdio
// (`node dist/cli.js lsp --stdio`), or over a pair of streams to the same server run in this process
// (serve(), src/lsp/server.ts: what the lsp command hands stdin and stdout to), every message kept
// in order of arrival.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, type Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { serve } from '../../src/lsp/server.js';
import { CLI } from '../helpers/repo.js';

export interface RpcMessage {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Diagnostic {
  range: Range;
  message: string;
  severity: number;
  code?: string;
  source?: string;
}
export interface TextEdit {
  range: Range;
  newText: string;
}
export interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: Array<{ textDocument: { uri: string; version: number | null }; edits: TextEdit[] }>;
}
export interface CodeAction {
  title: string;
  kind: string;
  diagnostics?: Diagnostic[];
  edit?: WorkspaceEdit;
}
export interface Publish {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

export class Client {
  /** The server's process; null for a server in this process. */
  readonly server: ChildProcessWithoutNullStreams | null;
  /** Every message the server sent, in order. */
  readonly received: RpcMessage[] = [];
  stderr = '';
  /** The server's exit code (a server in this process: the code serve() ends with). */
  readonly exited: Promise<number | null>;
  private readonly input: Writable;
  private buffer = Buffer.alloc(0);
  private waiting: Array<{ test: (m: RpcMessage) => boolean; from: number; resolve: (m: RpcMessage) => void }> = [];
  private nextId = 1;

  /** `inProcess`: the server runs here, on streams of the client's own, with this folder and environment. */
  constructor(cwd: string, env: NodeJS.ProcessEnv = {}, { inProcess = false } = {}) {
    const serverEnv = { ...process.env, MEMLINT_DEBUG: '', ...env };
    if (inProcess) {
      const input = new PassThrough();
      this.server = null;
      this.input = input;
      this.exited = serve({ input, write: (bytes) => this.receive(bytes), log: (line) => (this.stderr += `${line}\n`), env: serverEnv, cwd });
      return;
    }
    const server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd, env: serverEnv });
    this.server = server;
    this.input = server.stdin;
    server.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    server.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    // A server that stopped reading (it exits on a bad frame) breaks the pipe: not the test's error.
    server.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  }

  /** Ends a server a test left running (its input closed; a process is killed). */
  kill(): void {
    if (this.server) {
      if (this.server.exitCode === null) this.server.kill();
    } else this.input.end();
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
      this.received.push(message);
      const index = this.received.length - 1;
      this.waiting = this.waiting.filter((w) => {
        if (index < w.from || !w.test(message)) return true;
        w.resolve(message);
        return false;
      });
    }
  }

  /** The bytes of one framed message. */
  static frame(message: object): Buffer {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
  }

  write(bytes: Buffer | string): void {
    this.input.write(bytes);
  }

  /** The first message from index `from` on that passes the test (already received, or the next to arrive). */
  next(test: (m: RpcMessage) => boolean, from = 0): Promise<RpcMessage> {
    const found = this.received.slice(from).find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiting.push({ test, from, resolve }));
  }

  request(method: string, params: unknown): Promise<RpcMessage> {
    const id = this.nextId++;
    this.write(Client.frame({ id, method, params }));
    return this.next((m) => m.id === id && m.method === undefined);
  }

  notify(method: string, params: unknown): void {
    this.write(Client.frame({ method, params }));
  }

  async initialize(root: string, capabilities: object = { workspace: { workspaceEdit: { documentChanges: true } } }): Promise<RpcMessage> {
    const uri = pathToFileURL(root).href;
    const init = await this.request('initialize', { processId: process.pid, rootUri: uri, capabilities, workspaceFolders: [{ uri, name: 'workspace' }] });
    this.notify('initialized', {});
    return init;
  }

  open(uri: string, text: string, version = 1): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version, text } });
  }

  /** The next publishDiagnostics for uri from index `from` on. */
  async published(uri: string, from = 0): Promise<Publish> {
    const m = await this.next((x) => x.method === 'textDocument/publishDiagnostics' && (x.params as Publish).uri === uri, from);
    return m.params as Publish;
  }

  /** Every publishDiagnostics received so far for uri. */
  publishes(uri: string): Publish[] {
    return this.received.filter((m) => m.method === 'textDocument/publishDiagnostics' && (m.params as Publish).uri === uri).map((m) => m.params as Publish);
  }

  async codeActions(uri: string, range: Range, only?: string[]): Promise<CodeAction[]> {
    const answer = await this.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [], ...(only ? { only } : {}) } });
    expect(answer.error).toBeUndefined();
    return answer.result as CodeAction[];
  }

  async stop(): Promise<number | null> {
    const answer = await this.request('shutdown', null);
    expect(answer.error).toBeUndefined();
    this.notify('exit', null);
    return this.exited;
  }
}

/** What an editor does with a workspace edit's edits to one text: each range replaced, counted in the text as it was. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  const offset = (p: Position) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** A workspace edit's edits by URI, whichever form the server used. */
export function editsByUri(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out.set(uri, edits);
  for (const c of edit.documentChanges ?? []) out.set(c.textDocument.uri, [...(out.get(c.textDocument.uri) ?? []), ...c.edits]);
  return out;
}
