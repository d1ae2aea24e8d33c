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

const BATCH = 1 << 16;

/** Write the chunks to a stream in batches of about 64 KiB, waiting whenever the stream asks to. */
export async function writeChunks(stream: Output, chunks: Iterable<string>): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const text = batch.join('');
    batch = [];
    size = 0;
    if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
  };
  for (const c of chunks) {
    batch.push(c);
    size += c.length;
    if (size >= BATCH) await flush();
  }
  await flush();
}
