import { describe, expect, it } from 'vitest';
import { blockLines, withBlock, withoutBlock } from '../../src/install/blocks.js';
import { rewriteJson } from '../../src/install/json-edit.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editScripts, OWN_REPO_PREPARE, OWN_REPO_PREPARE_BEFORE, preparedScript, runsMemlintInstall, unpreparedScript } from '../../src/install/package-json.js';
import { ROOT } from '../helpers/repo.js';

describe("memlint's marked block", () => {
  it('is appended after existing lines, and updated in place on a second install', () => {
    const before = '*.png binary\n';
    const once = withBlock(before, ['a/**/*.md merge=memlint'], 'memory');
    expect(once).toBe('*.png binary\n# >>> memlint memory\na/**/*.md merge=memlint\n# <<< memlint\n');
    expect(withBlock(once, ['a/**/*.md merge=memlint'], 'memory')).toBe(once);
    expect(blockLines(withBlock(once, ['a/**/*.md merge=memlint', 'b/**/*.md merge=memlint'], 'memory'))).toEqual(['a/**/*.md merge=memlint', 'b/**/*.md merge=memlint']);
  });

  it('leaves out lines the file already has, and adds no block when nothing is missing', () => {
    expect(withBlock('.consolidate-lock\n', ['.consolidate-lock', '.snapshot-synced.json'], '')).toBe('.consolidate-lock\n# >>> memlint\n.snapshot-synced.json\n# <<< memlint\n');
    expect(withBlock('x\n.consolidate-lock', ['.consolidate-lock'], '')).toBe('x\n.consolidate-lock');
  });

  it('is removed exactly, the rest kept, CRLF files too', () => {
    const text = 'npx lint-staged\r\n';
    const installed = withBlock(text, ['node_modules/.bin/memlint --staged'], '');
    expect(installed).toBe('npx lint-staged\r\n# >>> memlint\r\nnode_modules/.bin/memlint --staged\r\n# <<< memlint\r\n');
    expect(withoutBlock(installed)).toBe(text);
    expect(withoutBlock(withBlock('', ['x'], ''))).toBe('');
    expect(withoutBlock(text)).toBe(text);
  });
});

describe("memlint's marked block, byte for byte", () => {
  it.each(['npx lint-staged', 'a\r\nb', 'a\n\n', '', 'x\n# >>> memlint\nold\n# <<< memlint\ny'])('%j: taken out again, the file is what it was', (text) => {
    const base = withoutBlock(text);
    const installed = withBlock(base, ['node_modules/.bin/memlint --staged', 'fi'], '', { whole: true });
    expect(withoutBlock(installed)).toBe(base);
    expect(withBlock(installed, ['node_modules/.bin/memlint --staged', 'fi'], '', { whole: true })).toBe(installed);
  });

  it('a file without a final line break gets the block after one of its own', () => {
    expect(withBlock('npx lint-staged', ['x'], '')).toBe('npx lint-staged\n# >>> memlint\nx\n# <<< memlint');
    expect(withBlock('x\n# >>> memlint\nold\n# <<< memlint\ny', ['new'], '')).toBe('x\n# >>> memlint\nnew\n# <<< memlint\ny');
  });
});

describe('the prepare script', () => {
  it('gets husky and memlint once, after what it already runs, guarded so that an install without devDependencies goes on', () => {
    expect(preparedScript(undefined, 'memlint install --local')).toBe('husky && memlint install --local || exit 0');
    expect(preparedScript('husky', 'memlint install --local')).toBe('husky && (memlint install --local || exit 0)');
    expect(preparedScript('npm run build', 'memlint install --local')).toBe('npm run build && (husky && memlint install --local || exit 0)');
    // No husky among the dependencies: a prepare that ran it would fail npm install.
    expect(preparedScript(undefined, 'memlint install --local', false)).toBe('memlint install --local || exit 0');
    expect(preparedScript('npm run build', 'memlint install --local', false)).toBe('npm run build && (memlint install --local || exit 0)');
    // husky added to the project later: the next install puts it in.
    expect(preparedScript('memlint install --local || exit 0', 'memlint install --local', true)).toBe('husky && memlint install --local || exit 0');
    expect(preparedScript('npm run build && (memlint install --local || exit 0)', 'memlint install --local', true)).toBe('npm run build && (husky && memlint install --local || exit 0)');
    // Each result is what a second install leaves as it is.
    for (const before of [undefined, 'husky', 'npm run build', 'npm test && husky']) {
      for (const husky of [true, false]) {
        const once = preparedScript(before, 'memlint install --local', husky);
        expect(preparedScript(once, 'memlint install --local', husky)).toBe(once);
      }
    }
  });

  it("upgrades an older install's unguarded part where it stands, and keeps the project's own part", () => {
    expect(preparedScript('husky && memlint install --local', 'memlint install --local')).toBe('husky && memlint install --local || exit 0');
    expect(preparedScript('memlint install --local', 'memlint install --local', false)).toBe('memlint install --local || exit 0');
    expect(preparedScript('memlint install --local', 'memlint install --local', true)).toBe('husky && memlint install --local || exit 0');
    expect(preparedScript('npm run build && husky && memlint install --local', 'memlint install --local')).toBe('npm run build && (husky && memlint install --local || exit 0)');
    expect(preparedScript('npm run build && memlint install --local', 'memlint install --local', false)).toBe('npm run build && (memlint install --local || exit 0)');
    expect(preparedScript('husky && tsc && memlint install --local', 'memlint install --local')).toBe('husky && tsc && (memlint install --local || exit 0)');
    expect(preparedScript('memlint install --local && patch-package', 'memlint install --local', false)).toBe('(memlint install --local || exit 0) && patch-package');
  });

  it('goes back to what it was', () => {
    expect(unpreparedScript('husky && memlint install --local || exit 0', '')).toBeUndefined();
    expect(unpreparedScript('husky && (memlint install --local || exit 0)', 'husky')).toBe('husky');
    expect(unpreparedScript('npm run build && (husky && memlint install --local || exit 0)', 'npm run build')).toBe('npm run build');
    // An older install's part, upgraded by a later one: still the noted original.
    expect(unpreparedScript('npm run build && (husky && memlint install --local || exit 0)', 'npm run build && husky')).toBe('npm run build && husky');
    // Without install's note (another clone): only memlint's part goes.
    expect(unpreparedScript('npm run build && (husky && memlint install --local || exit 0)', null)).toBe('npm run build');
    expect(unpreparedScript('husky && (memlint install --local || exit 0)', null)).toBe('husky');
    expect(unpreparedScript('npm test', null)).toBe('npm test');
    expect(unpreparedScript('memlint install --local || exit 0', '')).toBeUndefined();
    expect(unpreparedScript('npm run build && (memlint install --local || exit 0)', 'npm run build')).toBe('npm run build');
    // What installs before the guard wrote.
    expect(unpreparedScript('husky && memlint install --local', '')).toBeUndefined();
    expect(unpreparedScript('npm run build && husky && memlint install --local', 'npm run build')).toBe('npm run build');
    expect(unpreparedScript('npm run build && husky && memlint install --local', null)).toBe('npm run build && husky');
    expect(unpreparedScript('memlint install --local', '')).toBeUndefined();
  });

  it("in memlint's own repository: the prepare script package.json has is install's own, so install leaves it as it is", () => {
    const own = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { prepare: string } }).scripts.prepare;
    expect(own).toBe(preparedScript(undefined, OWN_REPO_PREPARE));
    expect(preparedScript(own, OWN_REPO_PREPARE)).toBe(own);
    expect(runsMemlintInstall(own)).toBe(true);
    expect(unpreparedScript(own, null)).toBe('husky');
    // The forms it had before are still memlint's part, for uninstall and for a new install.
    for (const before of OWN_REPO_PREPARE_BEFORE) expect(unpreparedScript(`husky && ${before}`, null)).toBe('husky');
  });

  it('is edited with the file\'s own indentation and final newline', () => {
    const pkg = '{\n\t"name": "x",\n\t"scripts": {\n\t\t"test": "vitest"\n\t}\n}\n';
    const out = editScripts(pkg, (s) => {
      s.prepare = 'husky';
    });
    expect(out).toBe('{\n\t"name": "x",\n\t"scripts": {\n\t\t"test": "vitest",\n\t\t"prepare": "husky"\n\t}\n}\n');
    expect(editScripts(out, (s) => void delete s.prepare)).toBe(pkg);
    expect(editScripts('{"name":"x"}', (s) => void delete s.prepare)).toBe('{"name":"x"}');
  });

  it('an object or list written on one line stays on one line, in its own spacing, and the edit undone gives its bytes back', () => {
    const cases: Array<[before: string, edit: (j: any) => void, after: string]> = [
      ['{\n  "scripts": { "test": "vitest" }\n}\n', (j) => (j.scripts.prepare = 'husky'), '{\n  "scripts": { "test": "vitest", "prepare": "husky" }\n}\n'],
      ['{"name":"x","scripts":{"test":"vitest"}}', (j) => (j.scripts.prepare = 'husky'), '{"name":"x","scripts":{"test":"vitest","prepare":"husky"}}'],
      ['{"name":"x"}\n', (j) => (j.scripts = { prepare: 'husky' }), '{"name":"x","scripts":{"prepare":"husky"}}\n'],
      ['{ "scripts": {} }', (j) => (j.scripts.prepare = 'husky'), '{ "scripts": {"prepare": "husky"} }'],
      ['{ "allow": [ "Bash(ls)" ] }', (j) => j.allow.push('Bash(git status)'), '{ "allow": [ "Bash(ls)", "Bash(git status)" ] }'],
      ['{"allow": []}', (j) => j.allow.push('x'), '{"allow": ["x"]}'],
      ['{ "allow": [ "a", "b", "c" ] }', (j) => j.allow.splice(0, 1), '{ "allow": [ "b", "c" ] }'],
    ];
    for (const [before, change, after] of cases) {
      const value = JSON.parse(before);
      const next = structuredClone(value);
      change(next);
      const edited = rewriteJson(before, value, next);
      expect(edited).toBe(after);
      expect(rewriteJson(edited, next, value)).toBe(before);
    }
  });
});
