// The reporters at scale: 300,000 messages in every format, built in chunks and written to a real
// file through the stream writer (no one string, no spread of the message list, no recursion).
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileResult, LintMessage } from '../../src/lint/engine.js';
import { githubChunks } from '../../src/lint/reporters/github.js';
import { jsonChunks, formatJson } from '../../src/lint/reporters/json.js';
import { writeChunks } from '../../src/lint/reporters/output.js';
import { sarifChunks } from '../../src/lint/reporters/sarif.js';
import { stylishChunks, formatStylish } from '../../src/lint/reporters/stylish.js';
import { allRules } from '../../src/lint/rules/all.js';
import { FORMAT_NAMES, printsWhenEmpty } from '../../src/lint/reporters/formats.js';
import { formatReport, REPORTERS, type ReportContext } from '../../src/lint/reporters/table.js';
import { tempDir } from '../helpers/repo.js';

const MESSAGES = 300_000;
const FILES = 3;

function manyResults(): FileResult[] {
  const per = MESSAGES / FILES;
  return Array.from({ length: FILES }, (_, f) => {
    const messages: LintMessage[] = [];
    for (let i = 0; i < per; i++) messages.push({ ruleId: i % 2 ? 'index-orphan' : 'no-conflict-markers', severity: i % 3 ? 2 : 1, message: `problem ${i} of file ${f}`, line: i + 1, column: 1 });
    const errorCount = messages.filter((m) => m.severity === 2).length;
    return { filePath: `/repo/.claude/memory/topic-${f}.md`, messages, errorCount, warningCount: per - errorCount, fixableErrorCount: 0, fixableWarningCount: 0 };
  });
}

async function written(chunks: Iterable<string>): Promise<string> {
  const file = join(tempDir('memlint-reporters-'), 'out');
  const stream = createWriteStream(file);
  await writeChunks(stream, chunks);
  await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return readFileSync(file, 'utf8');
}

const lineCount = (text: string) => text.split('\n').length - 1;

describe(`reporters with ${MESSAGES.toLocaleString('en')} messages`, () => {
  const results = manyResults();

  it('stylish prints one line per message and the summary', async () => {
    const out = await written(stylishChunks(results, { cwd: '/repo', color: false, fixHint: true }));
    expect(lineCount(out)).toBe(MESSAGES + 2);
    expect(out).toContain('.claude/memory/topic-2.md:100000:1  ');
    const errors = results.reduce((n, r) => n + r.errorCount, 0);
    expect(out.trimEnd().split('\n').pop()).toBe(`✖ ${MESSAGES} problems (${errors} errors, ${MESSAGES - errors} warnings)`);
  });

  it('json is the whole array, every message in it', async () => {
    const parsed = JSON.parse(await written(jsonChunks(results))) as Array<{ messages: unknown[] }>;
    expect(parsed.map((r) => r.messages.length)).toEqual([100_000, 100_000, 100_000]);
  });

  it('sarif is one run holding every result', async () => {
    const parsed = JSON.parse(await written(sarifChunks(results, allRules, { root: '/repo', version: '0.0.0' })));
    expect(parsed.runs[0].results).toHaveLength(MESSAGES);
    expect(parsed.runs[0].tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual(['index-orphan', 'no-conflict-markers']);
    expect(parsed.runs[0].results[MESSAGES - 1].locations[0].physicalLocation.artifactLocation.uri).toBe('.claude/memory/topic-2.md');
  });

  it('github prints one annotation per message', async () => {
    const out = await written(githubChunks(results, { root: '/repo' }));
    expect(lineCount(out)).toBe(MESSAGES);
    expect(out.startsWith('::warning file=.claude/memory/topic-0.md,line=1,col=1,title=memlint(no-conflict-markers)::problem 0 of file 0\n')).toBe(true);
  });
});

describe('chunked output reads as before', () => {
  const one: FileResult[] = [
    { filePath: '/repo/m/MEMORY.md', messages: [{ ruleId: 'index-orphan', severity: 2, message: 'a "quoted" message', line: 3, column: 1, endLine: 3, endColumn: 9, fatal: true }], errorCount: 1, warningCount: 0, fixableErrorCount: 1, fixableWarningCount: 0 },
  ];
  it('json equals one JSON.stringify of the array', () => {
    expect(formatJson(one)).toBe(JSON.stringify(one.map(({ filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount }) => ({ filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount }))));
    expect(formatJson([])).toBe('[]');
  });
  it('stylish pads the location column to the widest location', () => {
    const two = [{ ...one[0]!, messages: [...one[0]!.messages, { ruleId: null, severity: 1 as const, message: 'input', line: 10, column: 12 }] }];
    expect(formatStylish(two, { cwd: '/repo', color: false, fixHint: true })).toBe(
      'm/MEMORY.md:3:1    error  a "quoted" message  index-orphan\nm/MEMORY.md:10:12  warn   input  memlint-input\n\n✖ 1 problem (1 error, 0 warnings)\n  1 of them can be settled by `memlint --fix`\n',
    );
  });
});

describe('the reporter table', () => {
  const context: ReportContext = { cwd: '/repo', root: '/repo', rules: allRules, version: '0.0.0', color: false, fixHint: true };
  it('has one reporter per format name, and no other', () => {
    expect(Object.keys(REPORTERS).sort()).toEqual([...FORMAT_NAMES].sort());
  });
  it('prints an empty report exactly for the formats that say they do (the launcher answers the others itself)', () => {
    for (const name of FORMAT_NAMES) expect(formatReport(name, [], context) !== '', name).toBe(printsWhenEmpty(name));
  });
  it('json and sarif end with a newline, stylish with the fix summary', () => {
    const one: FileResult[] = [{ filePath: '/repo/m/MEMORY.md', messages: [{ ruleId: 'index-orphan', severity: 2, message: 'm', line: 1, column: 1 }], errorCount: 1, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 }];
    expect(formatReport('json', one, context)).toBe(`${formatJson(one)}\n`);
    expect(JSON.parse(formatReport('sarif', one, context)).runs[0].results).toHaveLength(1);
    expect(formatReport('sarif', one, context).endsWith('}\n')).toBe(true);
    expect(formatReport('stylish', one, { ...context, fixedSummary: 'Fixed 1 problem in 1 file.\n' })).toBe(`${formatStylish(one, context)}Fixed 1 problem in 1 file.\n`);
    expect(formatReport('github', one, context)).toBe('::error file=m/MEMORY.md,line=1,col=1,title=memlint(index-orphan)::m\n');
  });
});
