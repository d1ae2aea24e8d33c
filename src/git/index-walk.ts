// The walk over git's index entries (src/git/index-file.ts), as WebAssembly, over the index read
// a chunk at a time. An index holds one entry per tracked file, each of variable length, so
// finding the Markdown ones means stepping through all of them: in a repository of 20,000 files,
// that loop run cold in JavaScript by a short-lived process costs several milliseconds, and
// reading the whole 2 MB file into fresh memory costs as much again on a busy machine; one
// 64 KiB buffer, reused, does not. The text is src/git/index-walk.wat, assembled with wabt 1.0.39:
//   npx --package=wabt@1.0.39 wat2wasm src/git/index-walk.wat --output=- | base64 -w0
import { readSync } from 'node:fs';

const WALK_WASM = 'AGFzbQEAAAABCQFgBH9/f38BfwIKAQFtA21lbQIAAQMCAQAHCAEEd2FsawAACsQCAcECAQl/AkADQCAEIABPDQEgBUHAAGogAUsNASAFLQA8QQh0IAUtAD1yIQYgBkGA4ABxBEBBfw8LIAUtABpB8AFxQcAARgRAQX8PC0E+IQcgBkGAgAFxBEAgAkUEQEF/DwtBwAAhBwsgBSAHaiEIIAZB/x9xIQkgCUH/H0YEQCAIIQoCQANAIAogAU8NBCAKLQAARQ0BIApBAWohCgwACwsgCiAIayEJCyAJRQRAQX8PCyAIIAlqIQogBSAHIAlqQQhqQXhxaiEMIAwgAUsNASAKLQAABEBBfw8LIApBA2stAABBLkYgCkECay0AAEHtAEZxIApBAWstAABB5ABGcQRAIAMgC0EDdGogBTYCCCADIAtBA3RqIAo2AgwgC0EBaiELCyAMIQUgBEEBaiEEDAALCyADIAU2AgAgAyAENgIEIAsL';

// The part of the WebAssembly API used here (lib ES2022 does not declare the global).
interface Wasm {
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const CHUNK = 1 << 16;
const OUT = CHUNK; // the walk's results, after the chunk: two words, then two per Markdown entry

/**
 * Step through the `count` entries of an index file (version 2 or 3) open as `fd`, from offset 12,
 * and give each entry whose path ends in ".md" to `take` (the chunk it lies in, and its offset
 * and its path's end there). Returns the file offset after the last entry (the extensions start
 * there); null when WebAssembly is not there (node --jitless), or when an entry is in conflict, a
 * directory (a sparse index), extended in version 2, or does not fit in a chunk.
 */
export function walkIndex(fd: number, count: number, version: number, take: (chunk: Buffer, off: number, stop: number) => void): number | null {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  if (!wasm) return null;
  // A chunk, the results (at most one Markdown entry per 64 bytes of chunk), and room to spare.
  const memory = new wasm.Memory({ initial: 3 });
  const bytes = new Uint8Array(memory.buffer);
  const words = new Int32Array(memory.buffer, OUT);
  const walk = new wasm.Instance(new wasm.Module(Buffer.from(WALK_WASM, 'base64')), { m: { mem: memory } }).exports.walk as (count: number, len: number, v3: number, out: number) => number;
  const chunk = Buffer.allocUnsafe(CHUNK);
  let pos = 12;
  let left = count;
  while (left > 0) {
    const len = readSync(fd, chunk, 0, CHUNK, pos);
    bytes.set(len === CHUNK ? chunk : chunk.subarray(0, len));
    const k = walk(left, len, version === 3 ? 1 : 0, OUT);
    if (k < 0) return null;
    const [stopped, stepped] = [words[0]!, words[1]!];
    if (stepped === 0) return null;
    for (let j = 0; j < k; j++) take(chunk, words[2 + 2 * j]!, words[3 + 2 * j]!);
    left -= stepped;
    pos += stopped;
  }
  return pos;
}
