// The text plumbing: conflict markers in and out, OURS's conventions, the configured command.
import { describe, expect, it } from 'vitest';
import { attributeLines, driverCommand, driverConfig, driverProgram } from '../../src/merge/command.js';
import { limitWarning } from '../../src/merge/driver.js';
import { pathKind } from '../../src/memdir/kinds.js';
import { conflictBlock, hasConflictMarkers, render, splitConflictMarkers, styleOf } from '../../src/merge/text.js';

describe('conflict markers', () => {
  it('splits merge-style markers back into ours, theirs and the text outside', () => {
    const text = 'a\n<<<<<<< HEAD\nours 1\nours 2\n=======\ntheirs\n>>>>>>> other\nb\n';
    expect(splitConflictMarkers(text)).toEqual({ ours: 'a\nours 1\nours 2\nb\n', base: null, theirs: 'a\ntheirs\nb\n', outside: 'a\nb\n', blocks: 1 });
  });

  it('splits diff3-style markers of any size, keeping the base section', () => {
    const text = 'x\r\n<<<<<<<<< ours\r\nA\r\n||||||||| base\r\nO\r\n=========\r\nB\r\n>>>>>>>>> theirs\r\n';
    expect(splitConflictMarkers(text)).toEqual({ ours: 'x\r\nA\r\n', base: 'x\r\nO\r\n', theirs: 'x\r\nB\r\n', outside: 'x\r\n', blocks: 1 });
  });

  it('refuses markers that are not well formed, and leaves setext underlines alone', () => {
    expect(splitConflictMarkers('<<<<<<< a\nx\n=======\ny\n')).toBeNull();
    expect(splitConflictMarkers('x\n>>>>>>> b\n')).toBeNull();
    expect(splitConflictMarkers('<<<<<<< a\n<<<<<<< b\n')).toBeNull();
    expect(hasConflictMarkers('Title\n=======\n\ntext\n')).toBe(false);
    expect(hasConflictMarkers('<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n')).toBe(true);
  });

  it('writes blocks of exactly MARKER_SIZE naming what conflicts (README "Security")', () => {
    const lines = conflictBlock(9, { label: 'a.md', reason: 'edited on both sides' }, [{ text: 'A', eol: '\r\n' }], [{ text: 'B', eol: null }]);
    expect(render(lines, { bom: '', eol: '\r\n', finalNewline: true })).toBe('<<<<<<<<< ours (a.md: edited on both sides)\r\nA\r\n=========\r\nB\r\n>>>>>>>>> theirs (a.md)\r\n');
    expect(conflictBlock(3, { label: 'x', reason: 'y' }, [], []).map((l) => l.text)).toEqual(['<<< ours (x: y)', '===', '>>> theirs (x)']);
    expect(conflictBlock(1, { label: 'x', reason: 'y' }, [], [])[0]!.text).toBe('< ours (x: y)');
  });
});

describe("OURS's conventions", () => {
  it('keeps the BOM, the dominant line ending and a missing final newline', () => {
    const style = styleOf('\uFEFFa\r\nb');
    expect(style).toEqual({ bom: '\uFEFF', eol: '\r\n', finalNewline: false });
    expect(render([{ text: 'a', eol: '\r\n' }, { text: 'b', eol: '' }, { text: 'c', eol: null }], style)).toBe('\uFEFFa\r\nb\r\nc');
  });
});

describe('file kinds', () => {
  it('chooses the merge by path', () => {
    expect(pathKind('.claude/memory/MEMORY.md')).toBe('index');
    expect(pathKind('MEMORY.md')).toBe('index');
    expect(pathKind('.claude/memory/logs/2026/11/2026-11-29.md')).toBe('log');
    expect(pathKind('.claude/memory/feedback_testing.md')).toBe('topic');
    expect(pathKind('.claude/memory/logs/notes.md')).toBe('topic');
    expect(pathKind('package.json')).toBe('other');
  });
});

describe('the over-limit warning', () => {
  it('names the entries past line 200 in one line, and stays quiet under the limits', () => {
    const entries = Array.from({ length: 205 }, (_, i) => `- [T${i}](t${i}.md) — hook ${i}`);
    const w = limitWarning(`${entries.join('\n')}\n`, 'MEMORY.md');
    expect(w).toBe(
      'memlint: MEMORY.md: the merged index is 205 lines and ' +
        `${entries.join('\n').length} characters (Claude Code 2.1.332 loads 200 lines, 25000 characters): the agent will not see 5 entries: t200.md, t201.md, t202.md, t203.md, t204.md`,
    );
    expect(limitWarning(`${entries.slice(0, 200).join('\n')}\n`, 'MEMORY.md')).toBeNull();
  });

  it('with CRLF line endings names the same entries', () => {
    const entries = Array.from({ length: 205 }, (_, i) => `- [T${i}](t${i}.md) — hook ${i}`);
    const w = limitWarning(`${entries.join('\r\n')}\r\n`, 'MEMORY.md');
    expect(w).toContain('the agent will not see 5 entries: t200.md, t201.md, t202.md, t203.md, t204.md');
  });
});

describe('the configured command', () => {
  it('starts the relative bin, falls back to git merge-file, and holds no absolute path', () => {
    const cmd = driverCommand();
    expect(cmd.startsWith('memlint=node_modules/.bin/memlint; if [ ! -x "$memlint" ]; then ')).toBe(true);
    expect(cmd).toContain('if [ -n "$memlint" ]; then "$memlint" merge %O %A %B %L %P; ');
    expect(cmd).toContain('git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B');
    expect(cmd).not.toMatch(/(^|\s)\//);
    expect(driverConfig({ memlint: 'node ./dist/cli.js' })).toEqual([
      ['merge.memlint.name', expect.stringContaining('memlint')],
      ['merge.memlint.driver', expect.stringMatching(/^memlint=dist\/cli\.js; if \[ ! -f "\$memlint" \]; then .*; then node "\$memlint" merge %O %A %B %L %P; /)],
    ]);
    expect(attributeLines('.claude/memory/')).toEqual(['.claude/memory/**/*.md merge=memlint']);
  });

  it("asks for the main worktree's copy only of a program named relative to the worktree", () => {
    expect(driverCommand()).toContain('if [ ! -x "$memlint" ]; then memlint=$(git rev-parse --path-format=absolute --git-common-dir');
    expect(driverCommand({ memlint: 'node ./dist/cli.js' })).toContain('memlint=dist/cli.js; if [ ! -f "$memlint" ]; then');
    expect(driverCommand({ memlint: 'node ./dist/cli.js' })).toContain('node "$memlint" merge %O %A %B %L %P');
    for (const memlint of ['memlint', "'/usr/bin/node' '/opt/memlint/dist/cli.js'", '/usr/local/bin/memlint']) {
      expect(driverCommand({ memlint })).not.toContain('git rev-parse');
      expect(driverCommand({ memlint }).startsWith(`${memlint} merge %O %A %B %L %P; `)).toBe(true);
      expect(driverProgram(driverCommand({ memlint }))).toBeNull();
    }
  });

  it('names the program a configured command starts, in its shape and in earlier versions\' shape', () => {
    expect(driverProgram(driverCommand())).toBe('node_modules/.bin/memlint');
    expect(driverProgram(driverCommand({ memlint: 'node ./dist/cli.js' }))).toBe('dist/cli.js');
    const earlier = "node_modules/.bin/memlint merge %O %A %B %L %P; s=$?; [ $s -eq 0 ] && exit 0; git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B";
    expect(driverProgram(earlier)).toBe('node_modules/.bin/memlint');
    expect(driverProgram('node ./dist/cli.js merge %O %A %B %L %P; git merge-file %A %O %B')).toBe('dist/cli.js');
  });
});
