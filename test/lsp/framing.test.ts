// The base protocol's framing (src/lsp/framing.ts): messages cut anywhere by the pipe come out
// whole, and input that is not LSP framing is named, never buffered without bound.
import { describe, expect, it } from 'vitest';
import { FrameReader, frame, type FrameEvent } from '../../src/lsp/framing.js';

function read(chunks: Buffer[], limits?: { header: number; body: number }): FrameEvent[] {
  const events: FrameEvent[] = [];
  const reader = new FrameReader((e) => events.push(e), limits);
  for (const c of chunks) reader.push(c);
  return events;
}

describe('FrameReader', () => {
  const messages = [{ id: 1, method: 'initialize', params: { text: 'é — 🙂\r\n\r\n' } }, { method: 'initialized', params: {} }, { id: 2, result: null }];
  const stream = Buffer.concat(messages.map((m) => frame(m)));
  const expected = messages.map((m) => ({ kind: 'message', message: { jsonrpc: '2.0', ...m } }));

  it('gives the same messages wherever the stream is cut in two or three', () => {
    for (let i = 0; i <= stream.length; i++) {
      expect(read([stream.subarray(0, i), stream.subarray(i)])).toEqual(expected);
      const j = Math.min(stream.length, i + 3);
      expect(read([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)])).toEqual(expected);
    }
    expect(read([...stream].map((b) => Buffer.from([b])))).toEqual(expected);
  });

  it('reads Content-Type beside Content-Length, in any case', () => {
    const body = Buffer.from('{"id":3}');
    expect(read([Buffer.concat([Buffer.from(`content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: ${body.length}\r\n\r\n`), body])])).toEqual([{ kind: 'message', message: { id: 3 } }]);
  });

  it('drops a body that is not JSON and reads on', () => {
    const bad = Buffer.from('Content-Length: 5\r\n\r\n{"id"');
    const events = read([Buffer.concat([bad, frame({ id: 4 })])]);
    expect(events.map((e) => e.kind)).toEqual(['unparsable', 'message']);
  });

  it('skips a body over the cap unread, then reads on', () => {
    const events = read([Buffer.from('Content-Length: 100\r\n\r\n'), Buffer.alloc(60, 0x20), Buffer.concat([Buffer.alloc(40, 0x20), frame({ id: 5 })])], { header: 8192, body: 50 });
    expect(events).toEqual([{ kind: 'skipped', bytes: 100 }, { kind: 'message', message: { jsonrpc: '2.0', id: 5 } }]);
  });

  it('names lost framing once and reads nothing after it', () => {
    expect(read([Buffer.from('Content-Type: x\r\n\r\n{}'), frame({ id: 6 })])).toEqual([{ kind: 'fatal', reason: 'a message header without Content-Length' }]);
    expect(read([Buffer.from('Content-Length: -1\r\n\r\n')])).toEqual([{ kind: 'fatal', reason: 'a Content-Length that is not a number' }]);
    expect(read([Buffer.from('not a header\r\n\r\n')])).toEqual([{ kind: 'fatal', reason: 'a message header line that is not "Name: value"' }]);
    // A length no client sends: skipping it would wait, answering nothing, for bytes that never come.
    expect(read([Buffer.from('Content-Length: 999999999999999\r\n\r\n'), frame({ id: 7 })])).toEqual([{ kind: 'fatal', reason: 'a Content-Length of 999999999999999 bytes, more than any message' }]);
    // A header line that never ends: the reader holds at most the cap, however much arrives.
    const events = read(Array.from({ length: 1000 }, () => Buffer.alloc(10_000, 0x61)));
    expect(events).toEqual([{ kind: 'fatal', reason: 'a message header longer than 8 KiB' }]);
  });
});
