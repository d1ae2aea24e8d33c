// `memlint [lint]` end to end: exit codes, output formats, options, --list-memdirs, --help. Exit codes,
// usage errors, stack traces and --help through the built CLI (dist/cli.js); the formats, options
// and paths in this process (test/helpers/in-process.ts: the same main(), the same output).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { cleanRepo, expectNoStack, topic } from './setup.js';

/** A memdir with one error (a dangling entry) and one warning (a content line in the index). */
function problemRepo() {
  const r = cleanRepo();
  writeFiles(r.memdir, {
    'MEMORY.md': '# Memory\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n- always deploy on Tuesdays\n- [Gone](gone.md) — deleted\n',
  });
  return r;
}

describe('exit codes', () => {
  it('0 and no output for a clean memdir', () => {
    const { repo } = cleanRepo();
    const r = memlint(repo, []);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(memlint(repo, ['lint'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('1 when errors are found, with stylish output and a summary', () => {
    const { repo } = problemRepo();
    const r = memlint(repo, []);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        '.claude/memory/MEMORY.md:3:1   warn   List item is not an index entry: content belongs in a topic file, with `- [Title](file.md) — hook` here  index-entry-format',
        '.claude/memory/MEMORY.md:4:10  error  Entry links to gone.md, which does not exist in the memory folder  index-link-target',
        '',
        '✖ 2 problems (1 error, 1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('0 when only warnings are found', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'MEMORY.md': '- [Deploys](project_deploys.md) — Tuesdays\n- a content line\n' });
    const r = memlint(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✖ 1 problem (0 errors, 1 warning)');
  });

  it('2 with one line and no stack for an unknown option, an unknown format, a bad --rule, --max-warnings', () => {
    const { repo } = cleanRepo();
    const stderr = new Map<string, string>();
    for (const args of [['--bogus'], ['--format', 'xml'], ['--rule', 'nope=off'], ['--rule', 'index-orphan'], ['--rule', 'index-orphan=loud'], ['--max-warnings', 'x'], ['--max-warnings', '-1'], ['--max-warnings=-2']]) {
      const r = memlint(repo, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^memlint: [^\n]+\n$/);
      expectNoStack(r.stderr);
      stderr.set(args.join(' '), r.stderr);
    }
    expect(stderr.get('--bogus')).toContain('unknown option --bogus');
    expect(stderr.get('--max-warnings -1')).toBe('memlint: option --max-warnings: write a value that starts with "-" as --max-warnings=VALUE (see "memlint lint --help")\n');
  });

  it('2 for a path that does not exist', () => {
    const { repo } = cleanRepo();
    expect(memlint(repo, ['no/such/place'])).toEqual({ code: 2, stdout: '', stderr: 'memlint: no such file or folder: no/such/place\n' });
  });

  it('prints a stack trace only with MEMLINT_DEBUG=1', () => {
    const { repo } = cleanRepo();
    const plain = memlint(repo, ['no/such/place']);
    expectNoStack(plain.stderr);
    const debug = memlint(repo, ['no/such/place'], { env: { MEMLINT_DEBUG: '1' } });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/\n\s+at /);
    expect(debug.stderr.trimEnd().split('\n').pop()).toBe('memlint: no such file or folder: no/such/place');
  });
});

describe('--format', () => {
  it('json: ESLint’s shape, absolute filePath, every file linted listed', async () => {
    const { repo, memdir } = problemRepo();
    const r = await memlintInProcess(join(repo, '.claude'), ['--format', 'json']);
    expect(r.code).toBe(1);
    const results = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(results.map((x) => x.filePath)).toEqual([join(memdir, 'MEMORY.md'), join(memdir, 'project_deploys.md')]);
    expect(results[0]).toEqual({
      filePath: join(memdir, 'MEMORY.md'),
      messages: [
        {
          ruleId: 'index-entry-format',
          severity: 1,
          message: 'List item is not an index entry: content belongs in a topic file, with `- [Title](file.md) — hook` here',
          line: 3,
          column: 1,
        },
        { ruleId: 'index-link-target', severity: 2, message: 'Entry links to gone.md, which does not exist in the memory folder', line: 4, column: 10 },
      ],
      errorCount: 1,
      warningCount: 1,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
    });
    expect(results[1]).toMatchObject({ messages: [], errorCount: 0, warningCount: 0 });
  });

  it('json: fixable counts', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'orphan.md': topic('Orphan') });
    const results = JSON.parse((await memlintInProcess(repo, ['--format', 'json'])).stdout) as Array<{ filePath: string; fixableErrorCount: number }>;
    expect(results.find((x) => x.filePath.endsWith('orphan.md'))!.fixableErrorCount).toBe(1);
  });

  it('sarif: a valid SARIF 2.1.0 log', async () => {
    const { repo } = problemRepo();
    const r = await memlintInProcess(repo, ['--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('memlint');
    expect(typeof run.tool.driver.version).toBe('string');
    const ruleIds = run.tool.driver.rules.map((x: { id: string }) => x.id);
    expect(ruleIds).toEqual(['index-entry-format', 'index-link-target']);
    for (const rule of run.tool.driver.rules) {
      expect(typeof rule.shortDescription.text).toBe('string');
      expect(['none', 'note', 'warning', 'error']).toContain(rule.defaultConfiguration.level);
    }
    expect(run.results).toHaveLength(2);
    for (const res of run.results) {
      expect(['none', 'note', 'warning', 'error']).toContain(res.level);
      expect(typeof res.message.text).toBe('string');
      expect(ruleIds[res.ruleIndex]).toBe(res.ruleId);
      const loc = res.locations[0].physicalLocation;
      expect(loc.artifactLocation.uri).toBe('.claude/memory/MEMORY.md');
      expect(Number.isInteger(loc.region.startLine) && loc.region.startLine >= 1).toBe(true);
      expect(Number.isInteger(loc.region.startColumn) && loc.region.startColumn >= 1).toBe(true);
    }
    expect(run.results.map((x: { level: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }) => [x.level, x.locations[0]!.physicalLocation.region.startLine])).toEqual([
      ['warning', 3],
      ['error', 4],
    ]);
  });

  it('json messages carry ESLint\'s fields only', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'orphan.md': topic('Orphan') });
    const results = JSON.parse((await memlintInProcess(repo, ['--format', 'json'])).stdout) as Array<{ messages: Array<Record<string, unknown>> }>;
    const keys = new Set(results.flatMap((r) => r.messages.flatMap((m) => Object.keys(m))));
    expect([...keys].every((k) => ['ruleId', 'severity', 'message', 'line', 'column', 'endLine', 'endColumn', 'fatal'].includes(k))).toBe(true);
  });

  it('sarif and github name files from the repository\'s top, wherever memlint runs', async () => {
    const { repo } = problemRepo();
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const sub = join(repo, 'src', 'deep');
    const run = JSON.parse((await memlintInProcess(sub, ['--format', 'sarif'])).stdout).runs[0];
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe(`${pathToFileURL(repo).href}/`);
    expect(run.results.map((x: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => x.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual([
      '.claude/memory/MEMORY.md',
      '.claude/memory/MEMORY.md',
    ]);
    expect((await memlintInProcess(sub, ['--format', 'github'])).stdout).toBe((await memlintInProcess(repo, ['--format', 'github'])).stdout);
  });

  it('sarif: each uri is a URI reference that reads back as the file\'s path (space, non-ASCII, #, %, ?, :)', async () => {
    const { repo } = cleanRepo();
    const dirs = ['packages/a b ü/.claude/memory', 'packages/x:y/.claude/memory'];
    for (const d of dirs) {
      writeFiles(join(repo, d), {
        'MEMORY.md': '# Memory\n',
        'reference_ö #1.md': topic('Ö'),
        '100% sure?.md': topic('Sure'),
      });
    }
    const run = JSON.parse((await memlintInProcess(repo, ['--format', 'sarif'])).stdout).runs[0];
    const uris: string[] = run.results.map((x: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => x.locations[0]!.physicalLocation.artifactLocation.uri);
    const expected = dirs.flatMap((d) => [`${d}/100% sure?.md`, `${d}/reference_ö #1.md`]);
    for (const uri of uris) {
      expect(uri).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$/);
      expect(uri).not.toMatch(/^[^/]*:/);
      const url = new URL(uri, 'file:///root/');
      expect(url.hash + url.search).toBe('');
    }
    const back = uris.map((uri) => decodeURIComponent(new URL(uri, 'file:///root/').pathname).slice('/root/'.length));
    for (const path of expected) expect(back).toContain(path);
    expect(uris).toContain('packages/a%20b%20%C3%BC/.claude/memory/reference_%C3%B6%20%231.md');
  });

  it('sarif: an empty run when nothing is wrong', async () => {
    const { repo } = cleanRepo();
    const log = JSON.parse((await memlintInProcess(repo, ['--format', 'sarif'])).stdout);
    expect(log.runs[0].results).toEqual([]);
  });

  it('github: workflow command annotations', async () => {
    const { repo } = problemRepo();
    const r = await memlintInProcess(repo, ['--format', 'github']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '::warning file=.claude/memory/MEMORY.md,line=3,col=1,title=memlint(index-entry-format)::List item is not an index entry: content belongs in a topic file, with `- [Title](file.md) — hook` here',
        '::error file=.claude/memory/MEMORY.md,line=4,col=10,title=memlint(index-link-target)::Entry links to gone.md, which does not exist in the memory folder',
        '',
      ].join('\n'),
    );
  });
});

describe('severity options', () => {
  it('--quiet reports errors only', async () => {
    const { repo } = problemRepo();
    const r = await memlintInProcess(repo, ['--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('index-entry-format');
    expect(r.stdout).toContain('✖ 1 problem (1 error, 0 warnings)');
    const json = JSON.parse((await memlintInProcess(repo, ['--quiet', '--format', 'json'])).stdout) as Array<{ warningCount: number; messages: unknown[] }>;
    expect(json.every((x) => x.warningCount === 0)).toBe(true);
    expect(json[0]!.messages).toHaveLength(1);
  });

  it('--max-warnings N fails on more than N warnings', async () => {
    const { repo } = problemRepo();
    const off = ['--rule', 'index-link-target=off'];
    expect((await memlintInProcess(repo, off)).code).toBe(0);
    expect((await memlintInProcess(repo, [...off, '--max-warnings', '1'])).code).toBe(0);
    const over = await memlintInProcess(repo, [...off, '--max-warnings', '0']);
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('memlint: 1 warning, more than --max-warnings 0\n');
    expect((await memlintInProcess(repo, [...off, '--max-warnings=-1'])).code).toBe(0); // ESLint's "no limit"
  });

  it('--rule ID=off|warn|error, repeatable', async () => {
    const { repo } = problemRepo();
    expect(await memlintInProcess(repo, ['--rule', 'index-link-target=off', '--rule', 'index-entry-format=off'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const warn = await memlintInProcess(repo, ['--rule', 'index-link-target=warn']);
    expect(warn.code).toBe(0);
    expect(warn.stdout).toContain('✖ 2 problems (0 errors, 2 warnings)');
    const err = await memlintInProcess(repo, ['--rule', 'index-entry-format=error', '--rule', 'index-link-target=off']);
    expect(err.code).toBe(1);
    expect(err.stdout).toContain('error  List item is not an index entry');
    // ESLint's numbers work too.
    expect((await memlintInProcess(repo, ['--rule', 'index-link-target=0', '--rule', 'index-entry-format=2'])).stdout).toBe(err.stdout);
  });
});

describe('paths', () => {
  it('lints only the named file of a memdir', async () => {
    const { repo, memdir } = problemRepo();
    writeFiles(memdir, { 'bad.md': '---\nname: Bad\ndescription: x\ntype: nope\n---\n' });
    const r = await memlintInProcess(repo, ['.claude/memory/bad.md', '--format', 'json']);
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    expect(results.map((x) => x.filePath)).toEqual([join(memdir, 'bad.md')]);
    expect(results[0]!.messages.map((m) => m.ruleId)).toEqual(['index-orphan', 'frontmatter-type']);
  });

  it('finds the repository’s memdirs from any subfolder', async () => {
    const { repo, memdir } = problemRepo();
    writeFiles(repo, { 'src/deep/x.txt': 'x\n' });
    const r = await memlintInProcess(join(repo, 'src', 'deep'), ['--format', 'json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as Array<{ filePath: string }>)[0]!.filePath).toBe(join(memdir, 'MEMORY.md'));
  });

  it('says so when there is no memdir at all, and exits 0', async () => {
    const dir = tempDir('memlint-empty-');
    writeFiles(dir, { 'notes.md': '# Notes\n' });
    expect(await memlintInProcess(dir, [])).toEqual({ code: 0, stdout: '', stderr: 'memlint: no memory folder found (a folder with MEMORY.md); nothing to lint\n' });
    expect((await memlintInProcess(dir, ['--format', 'json'])).stdout).toBe('[]\n');
  });
});

describe('--list-memdirs', () => {
  it('shows each memdir found and why; skips a MEMORY.md that links to nothing beside it', async () => {
    const { repo } = cleanRepo({});
    writeFiles(repo, {
      'memory/MEMORY.md': '- [Deploys](project/deploys.md) — Tuesdays\n',
      'memory/project/deploys.md': topic('Deploys'),
      'docs/MEMORY.md': '# About memory\n- [Design](../README.md)\n',
      '.claude/agent-memory/reviewer/MEMORY.md': '',
    });
    const r = await memlintInProcess(repo, ['--list-memdirs']);
    expect(r).toEqual({ code: 0, stdout: '.claude/agent-memory/reviewer\tclaude-location\n.claude/memory\tclaude-location\nmemory\tlinks\n', stderr: '' });
  });
});

describe('--help', () => {
  it('prints the lint options and exits 0', () => {
    const { repo } = cleanRepo();
    for (const args of [['lint', '--help'], ['lint', '-h']]) {
      const r = memlint(repo, args);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: memlint \[lint\]/);
      for (const opt of ['--fix', '--staged', '--format', '--config', '--max-warnings', '--quiet', '--rule', '--list-memdirs']) expect(r.stdout).toContain(opt);
    }
  });

  it('lists every rule with its default severity', () => {
    const r = memlint(cleanRepo().repo, ['lint', '--help', '--rules']);
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    for (const expected of [
      'frontmatter-yaml error',
      'frontmatter-required error',
      'frontmatter-type error',
      'index-entry-format warn',
      'index-line-length error',
      'index-max-lines error',
      'index-max-bytes error',
      'index-link-target error',
      'index-duplicate error',
      'index-orphan error',
      'max-topic-files error',
      'no-conflict-markers error',
    ]) {
      expect(ids).toContain(expected);
    }
  });
});
