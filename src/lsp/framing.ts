// The Language Server Protocol's base protocol: `Content-Length: N\r\n\r\n` then N bytes of JSON.
// Written here rather than taken from vscode-jsonrpc because what the server does with a client's
// bad input is the point: vscode-jsonrpc buffers a header without bound (a 10 MB header line is
// rescanned on every chunk) and, after a header without Content-Length, reports an error and
// stops answering. Here a header is at most 8 KiB, a body is read into one buffer of its declared
// size, a body over the cap is skipped unread (one no client sends, over 1 GiB, is lost framing),
// and framing that cannot be followed is `fatal`
// (the server says so in one line and exits).

/** Longer than any header an editor sends (`Content-Length` and `Content-Type`). */
export const MAX_HEADER_BYTES = 8 * 1024;
/** A body beyond this is skipped unread: a document over 4 MiB is not linted anyway (a JSON string may take 6 bytes a character). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;
/**
 * A length beyond this is no message a client sends (a 4 MiB document is at most 24 MiB of JSON):
 * framing lost. Skipping it would wait, answering nothing, for bytes that never come.
 */
export const MAX_SKIP_BYTES = 1024 * 1024 * 1024;

export type FrameEvent =
  /** A complete body that is JSON. */
  | { kind: 'message'; message: unknown }
  /** A complete body that is not JSON: dropped. */
  | { kind: 'unparsable'; reason: string }
  /** A body over MAX_BODY_BYTES: skipped unread. */
  | { kind: 'skipped'; bytes: number }
  /** Framing lost (no or bad Content-Length, one past any message, a header over the cap): nothing after it can be read. */
  | { kind: 'fatal'; reason: string };

const TERMINATOR = Buffer.from('\r\n\r\n', 'ascii');

export class FrameReader {
  private head = Buffer.alloc(0);
  private body: Buffer | null = null;
  private filled = 0;
  private skip = 0;
  private dead = false;

  constructor(
    private readonly emit: (event: FrameEvent) => void,
    private readonly limits: { header: number; body: number; skip?: number } = { header: MAX_HEADER_BYTES, body: MAX_BODY_BYTES, skip: MAX_SKIP_BYTES },
  ) {}

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length && !this.dead) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - pos);
        this.skip -= n;
        pos += n;
        continue;
      }
      if (this.body) {
        const n = Math.min(this.body.length - this.filled, chunk.length - pos);
        chunk.copy(this.body, this.filled, pos, pos + n);
        this.filled += n;
        pos += n;
        if (this.filled === this.body.length) this.finishBody();
        continue;
      }
      // Header bytes, kept up to the cap (and the terminator); the search starts where the last one
      // stopped, less the 3 bytes a terminator may straddle.
      const before = this.head.length;
      const room = this.limits.header + TERMINATOR.length - before;
      const taken = chunk.subarray(pos, pos + Math.min(room, chunk.length - pos));
      this.head = before === 0 ? Buffer.from(taken) : Buffer.concat([this.head, taken]);
      const end = this.head.indexOf(TERMINATOR, Math.max(0, before - 3));
      if (end < 0) {
        if (this.head.length >= this.limits.header + TERMINATOR.length) this.fail(`a message header longer than ${this.limits.header / 1024} KiB`);
        pos += taken.length;
        continue;
      }
      pos += end + TERMINATOR.length - before;
      const header = this.head.subarray(0, end).toString('latin1');
      this.head = Buffer.alloc(0);
      this.startBody(header);
    }
  }

  private startBody(header: string): void {
    let length: number | null = null;
    for (const line of header.split('\r\n')) {
      const m = /^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
      if (!m) return this.fail('a message header line that is not "Name: value"');
      if (m[1]!.toLowerCase() !== 'content-length') continue;
      if (!/^\d{1,15}$/.test(m[2]!)) return this.fail('a Content-Length that is not a number');
      length = Number(m[2]);
    }
    if (length === null) return this.fail('a message header without Content-Length');
    if (length > (this.limits.skip ?? MAX_SKIP_BYTES)) return this.fail(`a Content-Length of ${length} bytes, more than any message`);
    if (length > this.limits.body) {
      this.skip = length;
      this.emit({ kind: 'skipped', bytes: length });
      return;
    }
    this.body = Buffer.allocUnsafe(length);
    this.filled = 0;
    if (length === 0) this.finishBody();
  }

  private finishBody(): void {
    const body = this.body!;
    this.body = null;
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (err) {
      this.emit({ kind: 'unparsable', reason: (err as Error).message.split('\n')[0]! });
      return;
    }
    this.emit({ kind: 'message', message });
  }

  private fail(reason: string): void {
    this.dead = true;
    this.head = Buffer.alloc(0);
    this.emit({ kind: 'fatal', reason });
  }
}

/** One message as a frame. */
export function frame(message: object): Buffer {
  return frameText(JSON.stringify({ jsonrpc: '2.0', ...message }));
}

/** A message already encoded as JSON, as a frame. */
export function frameText(json: string): Buffer {
  return frameParts([json]);
}

/**
 * A message encoded as JSON in pieces (joined, they are the message), as a frame: each piece is
 * written into one buffer where it goes, never joined into one string first (an answer of
 * thousands of quick fixes is 100 MB of JSON, and measuring a joined string flattens it).
 */
export function frameParts(parts: readonly string[]): Buffer {
  // Joined in runs of about 64 KiB: measuring and writing hundreds of thousands of small strings one
  // by one cost more than the JSON itself.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; ) {
    let size = 0;
    let j = i;
    while (j < parts.length && size < 65536) size += parts[j++]!.length;
    chunks.push(j - i === 1 ? parts[i]! : parts.slice(i, j).join(''));
    i = j;
  }
  let length = 0;
  for (const chunk of chunks) length += Buffer.byteLength(chunk, 'utf8');
  const header = `Content-Length: ${length}\r\n\r\n`;
  const out = Buffer.allocUnsafe(header.length + length);
  let at = out.write(header, 0, 'ascii');
  for (const chunk of chunks) at += out.write(chunk, at, 'utf8');
  return out;
}
