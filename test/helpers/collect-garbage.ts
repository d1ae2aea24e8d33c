// After a test file that leaves a big heap behind, a full garbage collection in the worker
// (started with --expose-gc, vitest.config.ts). Files share a worker, and V8 keeps what a big file
// left (the reporters' 300,000 messages, the limits properties) for a long while: the worker stayed
// at ~1.2 GB for the rest of the run, and every git, npm and memlint process it starts is forked
// from it, which costs more the bigger it is.
import { afterAll } from 'vitest';

const BIG_HEAP = 256 * 1024 * 1024;

afterAll(() => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc && process.memoryUsage().heapUsed > BIG_HEAP) gc();
});
