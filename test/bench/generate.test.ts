// The benchmark generator: deterministic for a seed, the sizes the benchmarks name, and memories
// shaped like real ones (so the linter does realistic work rather than printing errors).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMemdir, generateRepoFiles, writeTree, MEMDIR_REL } from '../../scripts/bench/generate.mjs';
import { entries, parseIndex } from '../../src/memdir/memory-index.js';
import { MAX_ENTRY_CHARS, codePointLength } from '../../src/memdir/limits.js';
import { parseTopic } from '../../src/memdir/topic.js';
import { MEMORY_TYPES } from '../../src/memdir/types.js';
import { git, initRepo, memlint, tempDir } from '../helpers/repo.js';

const LOG_PATH = /^logs\/(\d{4})\/(\d{2})\/(\d{4})-(\d{2})-\d{2}\.md$/;
const CJK = /[\u4e00-\u9fff]/;

function topicsOf(files: Map<string, string>): Array<[string, string]> {
  return [...files].filter(([p]) => p !== 'MEMORY.md' && !p.startsWith('logs/'));
}

function typeOf(text: string): unknown {
  const data = parseTopic(text).frontmatter?.data ?? {};
  const meta = data.metadata as Record<string, unknown> | undefined;
  return data.type ?? meta?.type;
}

describe('generateMemdir', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateMemdir({ seed: 'memlint', topics: 50, logDays: 20 });
    const b = generateMemdir({ seed: 'memlint', topics: 50, logDays: 20 });
    const c = generateMemdir({ seed: 'other', topics: 50, logDays: 20 });
    expect([...a]).toEqual([...b]);
    expect([...c]).not.toEqual([...a]);
  });

  it('makes the sizes the benchmarks name: 200 topics + 365 daily logs are 566 files', () => {
    const files = generateMemdir({ seed: 'memlint', topics: 200, logDays: 365 });
    expect(files.size).toBe(566);
    expect(topicsOf(files)).toHaveLength(200);
    const logs = [...files.keys()].filter((p) => p.startsWith('logs/'));
    expect(logs).toHaveLength(365);
    for (const p of logs) {
      const m = LOG_PATH.exec(p);
      expect(m, p).not.toBeNull();
      expect(`${m![3]}-${m![4]}`).toBe(`${m![1]}-${m![2]}`);
      expect(files.get(p)!.startsWith(`# ${p.slice(13, 23)}\n`)).toBe(true);
    }
    expect(new Set(logs).size).toBe(365);
    expect(generateMemdir({ seed: 'memlint', topics: 2000 }).size).toBe(2001);
  });

  it('writes topics like real memories: frontmatter, the four types, Why/How to apply, dates, URLs, some Chinese', () => {
    const files = generateMemdir({ seed: 'memlint', topics: 300 });
    const topics = topicsOf(files);
    const types = new Map<unknown, number>();
    for (const [path, text] of topics) {
      const t = parseTopic(text);
      expect(t.frontmatter?.error, path).toBeNull();
      expect(t.frontmatter?.openLine, path).toBe(1);
      expect(t.frontmatter!.closeLine, path).toBeLessThanOrEqual(30);
      const data = t.frontmatter!.data!;
      expect(typeof data.name === 'string' && data.name.length > 0, path).toBe(true);
      expect(typeof data.description === 'string' && !String(data.description).includes('\n'), path).toBe(true);
      const type = typeOf(text);
      expect(MEMORY_TYPES, path).toContain(type);
      types.set(type, (types.get(type) ?? 0) + 1);
      if (type === 'feedback') {
        expect(t.body, path).toContain('**Why:**');
        expect(t.body, path).toContain('**How to apply:**');
      }
      if (type === 'project') expect(t.body, path).toMatch(/\d{4}-\d{2}-\d{2}/);
      if (type === 'reference') expect(t.body, path).toMatch(/https:\/\/\S+/);
    }
    for (const type of MEMORY_TYPES) expect(types.get(type) ?? 0, type).toBeGreaterThan(15);
    const chinese = topics.filter(([, text]) => CJK.test(text)).length;
    expect(chinese).toBeGreaterThan(10);
    expect(chinese).toBeLessThan(topics.length / 4);
    // Both frontmatter shapes Claude Code writes.
    expect(topics.some(([, text]) => /^metadata:\n {2}node_type: memory\n {2}type: /m.test(text))).toBe(true);
    expect(topics.some(([, text]) => /^type: /m.test(text))).toBe(true);
  });

  it('indexes every topic exactly once, each entry line under the 150-character limit', () => {
    for (const topics of [20, 200, 2000]) {
      const files = generateMemdir({ seed: 'memlint', topics });
      const index = entries(parseIndex(files.get('MEMORY.md')!));
      expect(index).toHaveLength(topics);
      expect(new Set(index.map((e) => e.entry.target))).toEqual(new Set(topicsOf(files).map(([p]) => p)));
      for (const e of index) {
        expect(codePointLength(e.text), e.text).toBeLessThanOrEqual(MAX_ENTRY_CHARS);
        expect(e.entry.hook.length, e.text).toBeGreaterThan(0);
      }
    }
  });

  it('is clean for memlint below Claude Code\'s limits', () => {
    const repo = initRepo(tempDir('memlint-bench-'));
    writeTree(join(repo, MEMDIR_REL), generateMemdir({ seed: 'memlint', topics: 60, logDays: 30 }));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'memory');
    const r = memlint(repo, ['--format', 'json', MEMDIR_REL], { env: { MEMLINT_TODAY: '2026-11-28' } });
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; message: string; severity: number }> }>;
    expect(results).toHaveLength(91);
    const errors = results.flatMap((f) => f.messages.filter((m) => m.severity === 2).map((m) => `${f.filePath}: ${m.ruleId}: ${m.message}`));
    expect(errors).toEqual([]);
    expect(r.code).toBe(0);
  });
});

describe('generateRepoFiles', () => {
  it('makes exactly the number of files asked, deterministically, none of them Markdown memory', () => {
    const a = generateRepoFiles({ seed: 'memlint', count: 1234 });
    expect(a.size).toBe(1234);
    expect([...a.keys()].filter((p) => p.endsWith('.md'))).toEqual(['README.md']);
    expect([...generateRepoFiles({ seed: 'memlint', count: 1234 })]).toEqual([...a]);
  });
});
