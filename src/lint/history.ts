// What a staged change does to a memdir, for no-memory-loss: which of its Markdown files the change
// touches or deletes, their text at HEAD, and everything the memdir and its archive will still
// hold once committed. Read from git lazily and in batches (one cat-file per question): a commit
// that deletes nothing and leaves the index alone costs no git call at all.
import { relative } from 'node:path';
import { withSlashes, isWithin } from '../fs/paths.js';
import type { MemdirHistory } from './types.js';
import type { MemdirModel } from '../memdir/types.js';
import type { StagedSnapshot } from '../memdir/staged-snapshot.js';
import { INDEX_FILE } from '../memdir/kinds.js';

/** From the staged snapshot the memdir was read from (src/memdir/staged-snapshot.ts): HEAD's versions and the index. */
export function createMemdirHistory(snapshot: StagedSnapshot, model: MemdirModel, changedAbs: Set<string>, archiveDir: string | null): MemdirHistory {
  const repoRoot = snapshot.root;
  const prefix = withSlashes(relative(repoRoot, model.dir));
  const repoRel = (rel: string) => (prefix === '' ? rel : `${prefix}/${rel}`);
  const changed = [...changedAbs].filter((p) => isWithin(p, model.dir)).map((p) => withSlashes(relative(model.dir, p))).filter((r) => r !== '').sort();
  const present = new Set(model.files.map((f) => f.rel));
  const deleted = changed.filter((r) => !present.has(r) && !model.allPaths.has(r));
  let head: Map<string, string | null> | null = null;
  let kept: Array<{ where: string; text: string }> | null = null;
  const atHead = (rels: string[]) => {
    const blobs = snapshot.atHead(rels.map(repoRel));
    for (const r of rels) head!.set(r, blobs.get(repoRel(r))?.toString('utf8') ?? null);
  };
  return {
    changed,
    deleted,
    headText(rel) {
      if (!head) {
        head = new Map();
        atHead([...new Set([INDEX_FILE, ...changed])]);
      }
      if (!head.has(rel)) atHead([rel]);
      return head.get(rel) ?? null;
    },
    keptTexts() {
      if (kept) return kept;
      kept = model.files.filter((f) => !f.unread).map((f) => ({ where: f.rel, text: f.text }));
      const unread = model.files.filter((f) => f.unread);
      const staged = snapshot.files(unread.map((f) => repoRel(f.rel)));
      for (const f of unread) kept.push({ where: f.rel, text: staged.get(repoRel(f.rel))?.toString('utf8') ?? '' });
      const archivePrefix = archiveDir ? withSlashes(relative(repoRoot, archiveDir)) : null;
      if (archivePrefix && !archivePrefix.startsWith('..')) {
        const archived = snapshot.listing(archivePrefix).filter((e) => e.path.endsWith('.md') && e.mode !== '160000');
        const texts = snapshot.contents(archived);
        for (const e of archived) kept.push({ where: e.path, text: texts.get(e.path)?.toString('utf8') ?? '' });
      }
      return kept;
    },
  };
}
