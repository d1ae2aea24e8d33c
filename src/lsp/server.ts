// memlint's language server: LSP over a pair of streams. It publishes the findings of memory files
// as an editor opens and edits them, offers each fixable finding's fix (`quickfix`) and all of a
// file's fixes (`source.fixAll.memlint`) as the edits `memlint --fix` makes, and nothing else: no
// formatting, no file written (an edit is the client's to apply). It loads nothing from the
// workspace but memlint's own data config: no remark, plugin or .remarkrc, no code.
//
// One lint per document version: a change (re)starts a short quiet period, a lint that would run
// for a version the editor has since replaced does not run, and a version's diagnostics are
// published once, by whichever of its lint or a code action request finished it first. A change to
// one file of a memory folder can settle or make another's finding (an index entry added for an
// orphan topic): the folder's other open documents are linted again, and published when what they
// show changed.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { isWithin, realOrResolved } from '../fs/paths.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { sizeProblem } from '../memdir/model.js';
import { VERSION } from '../version.js';
import { FrameReader, frame, frameParts, frameText, type FrameEvent } from './framing.js';
import { lintDocument, locateDocument, noticeLint, uriOf, type DocumentLint, type FileEdits, type Range } from './lint-document.js';

/** How long a document stays unchanged before it is linted: a burst of edits is linted once, at its end. */
const QUIET_MS = 100;
/**
 * The most quick fixes one code-action answer lists. An editor asks for the line under the cursor;
 * a request over a whole document of 300,000 findings would answer 100 MB of JSON no one can read
 * (contract §9: 2 s of CPU per MB of Markdown). "Fix all" still fixes every one.
 */
export const MAX_QUICK_FIXES = 1000;

export interface ServerIo {
  input: NodeJS.ReadableStream;
  write(bytes: Buffer): void;
  /** One line for the client's log (stderr). */
  log(line: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface Doc {
  uri: string;
  /** The file a `file:` URI names; null for other schemes (an untitled buffer). */
  file: string | null;
  version: number;
  /** null when the text is over the size cap: it is not kept. */
  text: string | null;
  bytes: number;
  timer: NodeJS.Timeout | null;
  lint: { key: string; result: Promise<Linted> } | null;
  published: number | null;
  /** The last publish held diagnostics (closing or leaving memory clears them). */
  shown: boolean;
  /** The diagnostics last published, as JSON: a lint again in a changed world is published when they differ. */
  sent: string | null;
  /** The lint they came from: a code action finishing the same lint publishes nothing again. */
  sentLint: Linted | null;
  /** The memory folder (real path) its last lint found it in; null when none was found yet. */
  memdir: string | null;
}

/** A document's lint: its findings and fixes, null when it is not memory, 'stale' when its version was replaced before it ran. */
type Linted = DocumentLint | null | 'stale';

type Params = Record<string, unknown>;
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One line, no control characters: what reaches stderr or the client from an error or a name. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.split(/\r\n|\r|\n/)[0]!.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function errorLine(err: unknown): string {
  return oneLine((err as Error)?.message ?? String(err));
}

/** The path a file URI names; null for any other URI, and for a path no file can have (a NUL in it). */
function fileOf(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    const file = fileURLToPath(uri);
    // (Held as an open file of its folder, such a path failed every other file's lint there.)
    return file.includes('\0') ? null : file;
  } catch {
    return null;
  }
}

export function serve(io: ServerIo): Promise<number> {
  const docs = new Map<string, Doc>();
  let folders: string[] = [io.cwd];
  let documentChanges = false;
  let initialized = false;
  let shutdown = false;
  let closed = false;
  /** Changes to any document or file: a lint holds for one document version and one world. */
  let world = 0;
  /** Lints run one at a time, in the order they were asked for. */
  let queue: Promise<unknown> = Promise.resolve();
  const debug = io.env.MEMLINT_DEBUG === '1';

  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));

  const send = (message: object) => {
    if (!closed) io.write(frame(message));
  };
  const reply = (id: number | string | null, result: unknown) => send({ id, result });
  const fail = (id: number | string | null, code: number, message: string) => send({ id, error: { code, message } });

  function finish(code: number): void {
    if (closed) return;
    closed = true;
    for (const d of docs.values()) if (d.timer) clearTimeout(d.timer);
    io.input.removeListener('data', onData);
    io.input.removeListener('end', onEnd);
    (io.input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    done(code);
  }

  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  /** Every open file's text by its real path, where the lint reads it: the editor's text stands in for the file. */
  function openTexts(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const d of docs.values()) if (d.file && d.text !== null) texts.set(realOrResolved(d.file), d.text);
    return texts;
  }

  /** The lint of the document's current version in the current world, run once. */
  function lintOf(doc: Doc): Promise<Linted> {
    const key = `${doc.version}/${world}`;
    if (doc.lint?.key === key) return doc.lint.result;
    const version = doc.version;
    const result = serial(async (): Promise<Linted> => {
      if (closed || docs.get(doc.uri) !== doc || doc.version !== version) return 'stale';
      if (!doc.file) return null;
      try {
        const located = await locateDocument(doc.file, folders, io.env);
        doc.memdir = located ? realOrResolved(located.dir) : null;
        if (!located) return null;
        if (doc.text === null) return noticeLint(sizeProblem(doc.bytes) ?? 'not linted');
        if (debug) io.log(`memlint lsp: linting ${oneLine(JSON.stringify(doc.uri))} version ${version}`);
        return await lintDocument(located, doc.text, openTexts(), io.env, debug ? (text) => io.log(text.trimEnd()) : undefined);
      } catch (err) {
        if (debug) io.log((err as Error)?.stack ?? String(err));
        io.log(`memlint lsp: could not lint ${oneLine(JSON.stringify(doc.uri))}: ${errorLine(err)}`);
        return noticeLint(`memlint could not lint this file: ${errorLine(err)}`);
      }
    });
    doc.lint = { key, result };
    return result;
  }

  /**
   * Publish a version's diagnostics while it is still the document's version: once, and again only
   * when a lint in a changed world (another file of its folder edited) finds something else.
   */
  function publish(doc: Doc, version: number, linted: Linted): void {
    if (closed || linted === 'stale' || docs.get(doc.uri) !== doc || doc.version !== version) return;
    if (linted === null && !doc.shown) return; // not memory: nothing to say
    if (doc.published === version && doc.sentLint === linted) return;
    const diagnostics = linted?.diagnostics ?? [];
    const json = JSON.stringify(diagnostics);
    doc.sentLint = linted;
    if (doc.published === version && doc.sent === json) return;
    doc.published = version;
    doc.sent = json;
    doc.shown = diagnostics.length > 0;
    // The diagnostics as encoded above, not encoded a second time (hundreds of thousands of them
    // are tens of MB of JSON).
    if (!closed) io.write(frameText(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":${JSON.stringify(doc.uri)},"version":${JSON.stringify(version)},"diagnostics":${json}}}`));
  }

  /**
   * The other open documents of the memory folder a changed file is in (as their last lints found
   * them) whose findings it can change: every one for a change to the index, which names them all;
   * the index for a change to a topic (its entry's target, an orphan). A topic's findings about
   * another topic (a `[[name]]` link to no memory) are not reported by default: not re-linted for.
   */
  function siblings(doc: Doc): Doc[] {
    const file = doc.file === null ? null : realOrResolved(doc.file);
    if (file === null) return [];
    const index = path.basename(file) === INDEX_FILE;
    return [...docs.values()].filter((d) => d !== doc && d.memdir !== null && isWithin(file, d.memdir) && (index || (d.file !== null && path.basename(d.file) === INDEX_FILE)));
  }

  function changed(doc: Doc): void {
    world++;
    lintSoon(doc);
    for (const d of siblings(doc)) lintSoon(d);
  }

  function lintSoon(doc: Doc): void {
    if (doc.timer) clearTimeout(doc.timer);
    doc.timer = setTimeout(() => {
      doc.timer = null;
      const version = doc.version;
      lintOf(doc).then(
        (linted) => publish(doc, version, linted),
        () => undefined, // lintOf answers a failure as a diagnostic; nothing else rejects
      );
    }, QUIET_MS);
  }

  function setText(doc: Doc, text: string): void {
    doc.bytes = Buffer.byteLength(text, 'utf8');
    doc.text = sizeProblem(doc.bytes) ? null : text;
  }

  /** How the client spells each open document's file: made once per request, not per edit. */
  function spellings(): Map<string, string> {
    const spelling = new Map<string, string>();
    for (const d of docs.values()) if (d.file) spelling.set(realOrResolved(d.file), d.uri);
    return spelling;
  }

  function workspaceEdit(edits: FileEdits, spelling = spellings()): object {
    const byUri = [...edits].map(([file, list]) => {
      const uri = uriOf(file, spelling);
      return { uri, edits: list, version: docs.get(uri)?.version ?? null };
    });
    if (documentChanges) return { documentChanges: byUri.map((e) => ({ textDocument: { uri: e.uri, version: e.version }, edits: e.edits })) };
    return { changes: Object.fromEntries(byUri.map((e) => [e.uri, e.edits])) };
  }

  /** The actions, each encoded as JSON on its own (an answer of thousands of them holds no graph of objects until it is framed). */
  async function codeActions(params: Params): Promise<string[]> {
    const uri = isObject(params.textDocument) ? params.textDocument.uri : undefined;
    if (typeof uri !== 'string') throw new InvalidParams('textDocument.uri is missing');
    const doc = docs.get(uri);
    if (!doc) return [];
    const range = params.range as Range | undefined;
    const context = isObject(params.context) ? params.context : {};
    const only = Array.isArray(context.only) ? context.only.filter((k): k is string => typeof k === 'string') : null;
    const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
    const version = doc.version;
    const linted = await lintOf(doc);
    publish(doc, version, linted);
    if (linted === null || linted === 'stale' || doc.version !== version) return [];
    const actions: string[] = [];
    const spelling = spellings();
    if (wants('quickfix')) {
      const { fixes, suggestions } = linted.quickFixes(isRange(range) ? range : undefined, MAX_QUICK_FIXES);
      for (const f of fixes) {
        actions.push(JSON.stringify({ title: `Fix this ${f.ruleId} problem (as memlint --fix does)`, kind: 'quickfix', diagnostics: [f.diagnostic], isPreferred: true, edit: workspaceEdit(f.edits, spelling) }));
      }
      // What --fix never does on its own (a rewrite that may be wrong), offered for the person to choose.
      for (const s of suggestions) {
        actions.push(JSON.stringify({ title: `${s.title} (memlint suggests; --fix does not)`, kind: 'quickfix', diagnostics: [s.diagnostic], edit: workspaceEdit(s.edits, spelling) }));
      }
    }
    if (wants('source.fixAll.memlint') && linted.hasFix()) {
      const edits = await serial(() => linted.fixAll());
      if (edits.size > 0 && doc.version === version) actions.push(JSON.stringify({ title: 'Fix all memlint problems in this file (memlint --fix)', kind: 'source.fixAll.memlint', edit: workspaceEdit(edits) }));
    }
    return actions;
  }

  async function onRequest(id: number | string, method: string, params: unknown): Promise<void> {
    if (method === 'initialize') {
      if (initialized) return fail(id, -32600, 'initialize was already received');
      initialized = true;
      const p = isObject(params) ? params : {};
      const given = Array.isArray(p.workspaceFolders) ? p.workspaceFolders.map((f) => (isObject(f) && typeof f.uri === 'string' ? fileOf(f.uri) : null)) : [];
      const root = typeof p.rootUri === 'string' ? fileOf(p.rootUri) : typeof p.rootPath === 'string' ? p.rootPath : null;
      const named = [...given, root].filter((f): f is string => f !== null);
      if (named.length > 0) folders = [...new Set(named)];
      const caps = isObject(p.capabilities) ? p.capabilities : {};
      const edit = isObject(caps.workspace) && isObject(caps.workspace.workspaceEdit) ? caps.workspace.workspaceEdit : {};
      documentChanges = edit.documentChanges === true;
      return reply(id, {
        capabilities: {
          textDocumentSync: { openClose: true, change: 1, save: { includeText: false } },
          codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll.memlint'] },
          workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        },
        serverInfo: { name: 'memlint', version: VERSION },
      });
    }
    if (!initialized) return fail(id, -32002, 'the server is not initialized yet');
    if (shutdown) return fail(id, -32600, 'the server is shutting down');
    if (method === 'shutdown') {
      shutdown = true;
      for (const d of docs.values()) if (d.timer) clearTimeout(d.timer);
      return reply(id, null);
    }
    if (method === 'textDocument/codeAction') {
      if (!isObject(params)) return fail(id, -32602, 'codeAction needs its parameters');
      const actions = await codeActions(params);
      const parts = [`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":[`];
      actions.forEach((a, i) => parts.push(i === 0 ? a : `,${a}`));
      parts.push(']}');
      if (!closed) io.write(frameParts(parts));
      return;
    }
    // Formatting among them: memlint never rewrites a file beyond its fixes.
    return fail(id, -32601, `memlint lsp does not handle ${JSON.stringify(oneLine(method).slice(0, 100))}`);
  }

  function onNotification(method: string, params: unknown): void {
    if (method === 'exit') return finish(shutdown ? 0 : 1);
    if (!initialized || shutdown || !isObject(params)) return;
    const td = isObject(params.textDocument) ? params.textDocument : null;
    const uri = typeof td?.uri === 'string' ? td.uri : null;
    if (method === 'textDocument/didOpen') {
      if (uri === null || typeof td!.text !== 'string') return;
      const old = docs.get(uri);
      if (old?.timer) clearTimeout(old.timer);
      const doc: Doc = { uri, file: fileOf(uri), version: typeof td!.version === 'number' ? td!.version : 0, text: null, bytes: 0, timer: null, lint: null, published: null, shown: false, sent: null, sentLint: null, memdir: null };
      setText(doc, td!.text);
      docs.set(uri, doc);
      return changed(doc);
    }
    if (method === 'textDocument/didChange') {
      const doc = uri === null ? undefined : docs.get(uri);
      if (!doc || !Array.isArray(params.contentChanges)) return;
      for (const c of params.contentChanges) {
        if (!isObject(c) || typeof c.text !== 'string') continue;
        // A change without a range (or with a null one) is the whole text.
        if (c.range === undefined || c.range === null) setText(doc, c.text);
        else if (!isRange(c.range)) io.log(`memlint lsp: ignored a change to ${oneLine(JSON.stringify(doc.uri))} whose range is not two positions`);
        else if (doc.text !== null) setText(doc, applyChange(doc.text, c.range, c.text));
      }
      doc.version = typeof td!.version === 'number' ? td!.version : doc.version + 1;
      return changed(doc);
    }
    if (method === 'textDocument/didClose') {
      const doc = uri === null ? undefined : docs.get(uri);
      if (!doc) return;
      if (doc.timer) clearTimeout(doc.timer);
      docs.delete(uri!);
      world++;
      if (doc.shown) send({ method: 'textDocument/publishDiagnostics', params: { uri, diagnostics: [] } });
      // What the editor held is gone: the folder's other files are read from the disk again.
      for (const d of siblings(doc)) lintSoon(d);
      return;
    }
    if (method === 'textDocument/didSave') {
      world++;
      return;
    }
    if (method === 'workspace/didChangeWorkspaceFolders' && isObject(params.event)) {
      const paths = (list: unknown) => (Array.isArray(list) ? list.map((f) => (isObject(f) && typeof f.uri === 'string' ? fileOf(f.uri) : null)).filter((f): f is string => f !== null) : []);
      const removed = new Set(paths(params.event.removed));
      folders = [...new Set([...folders.filter((f) => !removed.has(f)), ...paths(params.event.added)])];
      world++;
    }
  }

  function onMessage(message: unknown): void {
    if (!isObject(message)) return fail(null, -32600, 'a message that is not a JSON-RPC object');
    const { id, method, params } = message;
    const hasId = typeof id === 'number' || typeof id === 'string';
    if (typeof method !== 'string') {
      if (!hasId && id !== null) fail(null, -32600, 'a message without a method');
      return; // a response: this server sends no requests
    }
    // An id that is neither a number nor a string (nor null) makes no request JSON-RPC can answer by it.
    if (!hasId && id !== undefined && id !== null) return fail(null, -32600, `${JSON.stringify(oneLine(method).slice(0, 100))} has an id that is not a number or a string`);
    if (!hasId) return onNotification(method, params);
    onRequest(id, method, params).catch((err: unknown) => {
      if (err instanceof InvalidParams) return fail(id, -32602, err.message);
      if (debug) io.log((err as Error)?.stack ?? String(err));
      io.log(`memlint lsp: ${errorLine(err)}`);
      fail(id, -32603, errorLine(err));
    });
  }

  function onFrame(event: FrameEvent): void {
    if (closed) return;
    if (event.kind === 'message') {
      // A message the server cannot handle costs that message alone: the reader goes on with the
      // rest of what it read (an exception here would drop it, and lose the framing of the next).
      try {
        return onMessage(event.message);
      } catch (err) {
        if (debug) io.log((err as Error)?.stack ?? String(err));
        io.log(`memlint lsp: ${errorLine(err)}`);
        const id = isObject(event.message) ? event.message.id : undefined;
        if (typeof id === 'number' || typeof id === 'string') fail(id, -32603, errorLine(err));
        return;
      }
    }
    if (event.kind === 'unparsable') {
      io.log(`memlint lsp: dropped a message that is not JSON (${oneLine(event.reason)})`);
      return fail(null, -32700, `a message that is not JSON: ${oneLine(event.reason)}`);
    }
    if (event.kind === 'skipped') return io.log(`memlint lsp: skipped a message of ${event.bytes} bytes unread (the limit is 256 MiB)`);
    io.log(`memlint lsp: ${event.reason} from the client; the messages after it cannot be read, so the server stops`);
    finish(2);
  }

  const reader = new FrameReader(onFrame);
  const onData = (chunk: Buffer | string) => {
    try {
      reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    } catch (err) {
      if (debug) io.log((err as Error)?.stack ?? String(err));
      io.log(`memlint lsp: ${errorLine(err)}`);
    }
  };
  const onEnd = () => finish(shutdown ? 0 : 1);
  io.input.on('data', onData);
  io.input.on('end', onEnd);
  return finished;
}

class InvalidParams extends Error {}

const isPosition = (p: unknown): p is { line: number; character: number } => isObject(p) && Number.isInteger(p.line) && Number.isInteger(p.character);
const isRange = (r: unknown): r is Range => isObject(r) && isPosition(r.start) && isPosition(r.end);

/**
 * An incremental change (a client that sends them although the server asks for whole texts). As
 * LSP says, a character past its line's end means that end (never a place on a later line), and a
 * line past the last one the end of the text.
 */
function applyChange(text: string, range: Range, newText: string): string {
  const offset = (p: { line: number; character: number }) => {
    let line = 0;
    let i = 0;
    while (line < p.line && i < text.length) {
      const c = text.charCodeAt(i++);
      if (c === 10 || (c === 13 && text.charCodeAt(i) !== 10)) line++;
    }
    if (line < p.line) return text.length;
    let end = i;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    return Math.min(i + Math.max(p.character, 0), end);
  };
  return text.slice(0, offset(range.start)) + newText + text.slice(offset(range.end));
}
