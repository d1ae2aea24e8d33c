// What a staged change does to a memdir, for no-memory-loss: which of its Markdown files the change
// touches or deletes, their text at HEAD, and everything the memdir and its archive will still
// hold once committed. Read from git lazily and in batches (one cat-file per question): a commit
// that deletes nothing and leaves the index alone costs no git call at all.
import { relative } from 'node:path';
import { readBlobs } from '../git/blobs.js';
import { gitIndexEntries } from '../git/status.js';
import { isWithin, withSlashes } from '../fs/paths.js';
import type { MemdirHistory } from './types.js';
import type { MemdirModel } from '../memdir/types.js';
import { INDEX_FILE } from '../memdir/kinds.js';


/** `atHead`: HEAD's blobs already read (src/lint/staged.ts), by repository-relative path. */
export function createMemdirHistory(repoRoot: string, model: MemdirModel, changedAbs: Set<string>, archiveDir: string | null, atHead?: Map<string, Buffer | null>): MemdirHistory {
  const prefix = withSlashes(relative(repoRoot, model.dir));
  const repoRel = (rel: string) => (prefix === '' ? rel : `${prefix}/${rel}`);
  const changed = [...changedAbs].filter((p) => isWithin(p, model.dir)).map((p) => withSlashes(relative(model.dir, p))).filter((r) => r !== '').sort();
  const present = new Set(model.files.map((f) => f.rel));
  const deleted = changed.filter((r) => !present.has(r) && !model.allPaths.has(r));
  let head: Map<string, string | null> | null = null;
  let kept: Array<{ where: string; text: string }> | null = null;
  return {
    changed,
    deleted,
    headText(rel) {
      if (!head) {
        const rels = [...new Set([INDEX_FILE, ...changed])];
        const unread = rels.filter((r) => !atHead?.has(repoRel(r)));
        const blobs = readBlobs(repoRoot, unread.map((r) => `HEAD:${repoRel(r)}`));
        const blob = (r: string) => (atHead?.has(repoRel(r)) ? atHead.get(repoRel(r)) : blobs.get(`HEAD:${repoRel(r)}`));
        head = new Map(rels.map((r) => [r, blob(r)?.toString('utf8') ?? null]));
      }
      if (!head.has(rel)) {
        const b = readBlobs(repoRoot, [`HEAD:${repoRel(rel)}`]).get(`HEAD:${repoRel(rel)}`);
        head.set(rel, b ? b.toString('utf8') : null);
      }
      return head.get(rel) ?? null;
    },
    keptTexts() {
      if (kept) return kept;
      kept = model.files.filter((f) => !f.unread).map((f) => ({ where: f.rel, text: f.text }));
      const unread = model.files.filter((f) => f.unread);
      const specs = unread.map((f) => `:${repoRel(f.rel)}`);
      const archivePrefix = archiveDir ? withSlashes(relative(repoRoot, archiveDir)) : null;
      const archived = archivePrefix && !archivePrefix.startsWith('..') ? gitIndexEntries(repoRoot, [archivePrefix]).filter((e) => e.path.endsWith('.md') && e.mode !== '160000') : [];
      const blobs = readBlobs(repoRoot, [...specs, ...archived.map((e) => e.object)]);
      unread.forEach((f, i) => kept!.push({ where: f.rel, text: blobs.get(specs[i]!)?.toString('utf8') ?? '' }));
      for (const e of archived) kept.push({ where: e.path, text: blobs.get(e.object)?.toString('utf8') ?? '' });
      return kept;
    },
  };
}
