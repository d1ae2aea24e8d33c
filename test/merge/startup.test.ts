// What the driver loads when git starts it: the static import closure of `memlint merge` in the
// built bundle. Nothing on this path may load remark, unified, gray-matter, secretlint, chrono,
// isomorphic-git, or git's machinery (child_process is loaded only for the fallback).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/repo.js';

function staticClosure(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    const code = readFileSync(file, 'utf8');
    seen.set(file, code);
    for (const m of code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"|(?:^|\n)\s*import\s*"(\.{1,2}\/[^"]+)"/g)) {
      todo.push(join(dirname(file), (m[1] ?? m[2])!));
    }
  }
  return seen;
}

describe('the merge driver start-up path', () => {
  const cli = readFileSync(CLI, 'utf8');
  const mergeChunk = /merge:\s*\{[^}]*import\("(\.\/chunks\/[^"]+)"\)/.exec(cli)?.[1];

  it('loads only the modules the merge uses', () => {
    expect(mergeChunk).toBeDefined();
    const closure = staticClosure(join(dirname(CLI), mergeChunk!));
    const code = [...closure.values()].join('\n');
    const packages = new Set([...code.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]));
    expect([...packages]).toEqual(['node-diff3']);
    const sources = new Set([...code.matchAll(/^\/\/ (src\/[^\s]+)/gm)].map((m) => m[1]!));
    expect(sources).toContain('src/merge/index.ts');
    expect(sources).toContain('src/memdir/index.ts');
    for (const s of sources) expect(s).toMatch(/^src\/(merge\/(driver|index|lines|log|text|topic)\.ts|commands\/merge\.ts|errors\.ts|memdir\/(index|limits)\.ts)$/);
    expect(code).not.toMatch(/from\s*"node:child_process"/);
    expect(code).not.toMatch(/remark|micromark|unified|gray-matter|js-yaml|secretlint|chrono|isomorphic-git/);
  });
});
