// Reporters build their output as a sequence of chunks, never as one string or one object tree:
// a run can report hundreds of thousands of messages over many memdirs, and one JSON.stringify of
// all of them (or a spread of that many arguments) exhausts the heap or the stack.

import type { Output } from '../../io.js';

/**
 * What the reporters that name a rule call a message with no rule: a file memlint could not read
 * as memory (binary, invalid UTF-8, too large, unreadable, a symlink out). JSON keeps ESLint's
 * `ruleId: null` for it, as ESLint does for a file it cannot parse.
 */
export const INPUT_PROBLEM_ID = 'memlint-input';

/** Every chunk joined: for small outputs and for callers that need the text. */
export function joinChunks(chunks: Iterable<string>): string {
  const parts: string[] = [];
  for (const c of chunks) parts.push(c);
  return parts.join('');
}

/**
 * The most UTF-16 units the writer and the reporters join into one string. A longer one is over
 * V8's largest ordinary object (128 KiB) when its characters are two bytes each (a text holding any
 * character past U+00FF, and every slice of it, is stored so): each is then allocated on pages of
 * its own, a millisecond or more for each 64 KiB of a large report.
 */
export const JOINED_UNITS = 1 << 15;

/**
 * Write the chunks to a stream, joining small ones up to about JOINED_UNITS (a chunk that long is
 * written as it is), waiting whenever the stream asks to.
 */
export async function writeChunks(stream: Output, chunks: Iterable<string>): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const write = async (text: string) => {
    if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
  };
  const flush = async () => {
    if (size === 0) return;
    const text = batch.join('');
    batch = [];
    size = 0;
    await write(text);
  };
  for (const c of chunks) {
    if (c.length >= JOINED_UNITS) {
      await flush();
      await write(c);
      continue;
    }
    batch.push(c);
    size += c.length;
    if (size >= JOINED_UNITS) await flush();
  }
  await flush();
}
