import type { Rule } from '../types.js';
import { resolve } from 'node:path';
import { isWithin, slashRelative } from '../../fs/paths.js';

/**
 * A target that climbs out of the memdir and back into it (`../../agent-memory/writer/brand.md`
 * from that writer's own folder), as the memdir-relative path it lands on; null when it lands
 * outside. A target that does not climb is its own path.
 */
function backInside(memdir: string, key: string): string | null {
  if (!key.startsWith('../') && key !== '..') return key;
  const landed = resolve(memdir, key);
  return landed !== memdir && isWithin(landed, memdir) ? slashRelative(memdir, landed) : null;
}

/**
 * index-link-target: each entry links to a Markdown topic file that exists inside the memdir.
 * Subfolders are fine (Claude Code scans the memdir recursively); `../` escapes, absolute paths,
 * URLs and non-.md targets are not. A committed file a sparse checkout leaves out (git's
 * skip-worktree) exists: it is not on this disk only.
 */
export const indexLinkTarget: Rule = {
  id: 'index-link-target',
  description: 'Index entries link to a .md topic file that exists inside the memdir',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: '- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: '- [Testing](../docs/testing.md) — integration tests hit a real database\n- [Deploys](project_deploys.md) — the file was never written\n',
    notOkOutput: '1:13: Entry links to ../docs/testing.md, outside the memory folder: Claude Code recalls only files inside it\n2:13: Entry links to project_deploys.md, which does not exist in the memory folder',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index) return;
    const repoRel = ctx.repo ? slashRelative(ctx.repo.root, ctx.memdir.dir) : '';
    // Entry keys are NFC; a file name on disk may be NFD (macOS) and still be the same file.
    const present = new Set([...ctx.memdir.allPaths].map((p) => p.normalize('NFC')));
    for (const l of index.lines) {
      const e = l.entry;
      if (!e) continue;
      const column = e.targetStart + 1;
      const raw = e.target;
      let problem: string | null = null;
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) problem = `links to ${raw}, outside the memory folder: an index entry points at a topic file`;
      else if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw)) problem = `links to an absolute path (${raw}): write the path relative to MEMORY.md`;
      else if ((e.key.startsWith('../') || e.key === '..') && backInside(ctx.memdir.dir, e.key) === null) problem = `links to ${raw}, outside the memory folder: Claude Code recalls only files inside it`;
      else if (!e.key.toLowerCase().endsWith('.md')) problem = `links to ${raw}, not a Markdown topic file`;
      else if (!present.has(backInside(ctx.memdir.dir, e.key) ?? e.key)) {
        // Committed, but a sparse checkout leaves it out: the file is there for whoever checks it out.
        const inMemdir = backInside(ctx.memdir.dir, e.key) ?? e.key;
        if (ctx.repo && ctx.repo.notCheckedOut().has(repoRel === '' ? inMemdir : `${repoRel}/${inMemdir}`)) continue;
        const fromRoot = repoRel && e.key.startsWith(`${repoRel}/`) ? e.key.slice(repoRel.length + 1) : null;
        problem =
          fromRoot && present.has(fromRoot)
            ? `links to ${raw}, written from the repository root: write ${fromRoot} (relative to MEMORY.md)`
            : `links to ${raw}, which does not exist in the memory folder`;
      }
      if (problem) ctx.report({ message: `Entry ${problem}`, line: l.line, column });
    }
  },
};
