// The one place a memory file's kind is decided (src/memdir/kinds.ts): the memdir's view of its
// own files, and the merge's view of a repository path, with the differences each command keeps.
import { describe, expect, it } from 'vitest';
import { fileKind, isMemoryPath, isPointerStub, isTopLevelTopic, pathKind } from '../../src/memdir/kinds.js';

describe('fileKind: a file of a memdir, by its memdir-relative path', () => {
  it('the index, a daily log with its date, anything else a topic', () => {
    expect(fileKind('MEMORY.md')).toEqual({ kind: 'index' });
    expect(fileKind('logs/2026/11/2026-11-29.md')).toEqual({ kind: 'log', logDate: '2026-11-29' });
    expect(fileKind('feedback_testing.md')).toEqual({ kind: 'topic' });
    expect(fileKind('sub/MEMORY.md')).toEqual({ kind: 'topic' });
  });
  it('a log only in the memdir’s own logs/ folder, its date matching its folders', () => {
    expect(fileKind('logs/2026/11/2026-12-01.md').kind).toBe('topic');
    expect(fileKind('sub/logs/2026/11/2026-11-29.md').kind).toBe('topic');
    expect(fileKind('logs/notes.md').kind).toBe('topic');
  });
  it('ARCHIVE.md inside a memdir is a topic', () => {
    expect(fileKind('ARCHIVE.md').kind).toBe('topic');
  });
  it('isMemoryPath: lowercase .md, not a nested memdir’s index', () => {
    expect(['a.md', 'sub/a.md', 'logs/2026/11/2026-11-29.md', 'MEMORY.md'].map(isMemoryPath)).toEqual([true, true, true, true]);
    expect(['a.MD', 'a.txt', 'sub/MEMORY.md'].map(isMemoryPath)).toEqual([false, false, false]);
  });
  it('isTopLevelTopic: a topic at the top of the memdir', () => {
    expect(['a.md', 'ARCHIVE.md'].map(isTopLevelTopic)).toEqual([true, true]);
    expect(['MEMORY.md', 'sub/a.md', 'logs/2026/11/2026-11-29.md', 'a.txt'].map(isTopLevelTopic)).toEqual([false, false, false, false]);
  });
});

describe('pathKind: a repository path, its memdir unknown (the merge)', () => {
  it('an index by name, ARCHIVE.md included', () => {
    expect(['MEMORY.md', '.claude/memory/MEMORY.md', 'x/ARCHIVE.md', 'x\\MEMORY.md'].map(pathKind)).toEqual(['index', 'index', 'index', 'index']);
  });
  it('a log anywhere in the path, whatever its date', () => {
    expect(['.claude/memory/logs/2026/11/2026-11-29.md', 'logs/2026/11/2026-12-01.md', 'a/b/logs/2026/11/2026-11-29.md'].map(pathKind)).toEqual(['log', 'log', 'log']);
  });
  it('Markdown in any case a topic, anything else other', () => {
    expect(['.claude/memory/feedback.md', 'notes/A.MD', '.claude/memory/logs/notes.md'].map(pathKind)).toEqual(['topic', 'topic', 'topic']);
    expect(['package.json', 'MEMORY.md.bak'].map(pathKind)).toEqual(['other', 'other']);
  });
});

describe('isPointerStub', () => {
  it('takes a short note that names the file now holding the memory and says it moved', () => {
    expect(isPointerStub('Superseded by project_auth_v2.md.\n')).toBe(true);
    expect(isPointerStub('# Deleted\n\nMerged into MEMORY.md.\n')).toBe(true);
    expect(isPointerStub('→ [Auth](project_auth_v2.md)\r\n')).toBe(true);
  });
  it('leaves alone what may be a memory: no file named, no move said, longer text, frontmatter', () => {
    expect(isPointerStub('The old importer was removed in the spring.\n')).toBe(false);
    expect(isPointerStub('The runbook is in ops/runbook.md.\n')).toBe(false);
    expect(isPointerStub('Moved to project_b.md.\nline two\nline three\nline four\n')).toBe(false);
    expect(isPointerStub('---\nname: x\n---\nMoved to b.md\n')).toBe(false);
    expect(isPointerStub('')).toBe(false);
  });
});
