// A scratch project for the remark doors: a git repository with a memdir that has problems of
// every kind, and memlint installed in its node_modules as npm installs a `file:` dependency (a
// link to the built package), so `memlint/remark` resolves through package.json `exports`.
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, initRepo, ROOT, tempDir, writeFiles } from '../helpers/repo.js';

const TOKEN = `ghp_${'a1B2c3D4e5F6g7H8i9J0kLmNpQrStUvWxYz1'.slice(0, 36)}`;
const front = (name: string, type: string, description = `About ${name}`) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n`;

/** Files added to the example memory: one or more problems each, memdir-wide ones included. */
export const PROBLEMS: Record<string, string> = {
  'bad_type.md': `${front('Bad type', 'note')}Kept for the type.\n`,
  'relative_date.md': `${front('Freeze', 'project')}\`🚀🚀\` 🎉 The freeze starts next Friday, as agreed.\n`,
  'orphan_topic.md': `${front('Orphan', 'user')}Nobody links here.\n`,
  'feedback_bare.md': `${front('Bare feedback', 'feedback')}Run the linter.\n`,
  'leaked.md': `${front('Leaked', 'reference')}The deploy token is ${TOKEN} for now.\n`,
  'hidden.md': `${front('Hidden', 'reference')}🔍 Look\u200b here.\n<!-- memlint-disable-next-line absolute-dates -->\nShip it tomorrow.\n`,
  'no_frontmatter.md': 'Just text, no frontmatter.\n',
};

const INDEX_TAIL = [
  '- [Bad type](bad_type.md) — the type is wrong',
  '- [Freeze](relative_date.md) — when the freeze starts',
  '- [Bare feedback](feedback_bare.md) — no why',
  '- [Leaked](leaked.md) — a token',
  '- [Hidden](hidden.md) — a zero-width space',
  '- [No frontmatter](no_frontmatter.md) — none',
  '1. [Missing](missing.md) — the target is not there',
  '- [Freeze again](relative_date.md) — a duplicate entry',
  '',
].join('\n');

/** A temporary repository with .claude/memory (the example memory plus PROBLEMS) and memlint installed. */
export function scratchProject(): string {
  const repo = initRepo(tempDir('memlint-remark-'));
  const memdir = join(repo, '.claude', 'memory');
  cpSync(join(ROOT, 'examples', 'memory'), memdir, { recursive: true });
  writeFiles(memdir, PROBLEMS);
  writeFiles(memdir, { 'MEMORY.md': `${readFileSync(join(memdir, 'MEMORY.md'), 'utf8')}${INDEX_TAIL}` });
  commitFiles(repo, { 'package.json': '{ "name": "scratch", "private": true }\n' }, 'memory');
  mkdirSync(join(repo, 'node_modules'));
  symlinkSync(ROOT, join(repo, 'node_modules', 'memlint'), 'dir');
  // remark-cli's `--report json` loads vfile-reporter-json from the project, as it would be installed there.
  symlinkSync(join(ROOT, 'node_modules', 'vfile-reporter-json'), join(repo, 'node_modules', 'vfile-reporter-json'), 'dir');
  return repo;
}

/** One finding, as both doors can state it. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  ruleId: string;
  fatal: boolean;
  message: string;
}

export const byPlace = (a: Finding, b: Finding) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);

/** `memlint --format json` as findings, file paths relative to the repository. */
export function fromMemlintJson(repo: string, stdout: string): Finding[] {
  const results = JSON.parse(stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; severity: number; line: number; column: number; message: string }> }>;
  return results
    .flatMap((r) => r.messages.map((m) => ({ file: r.filePath.slice(repo.length + 1), line: m.line, column: m.column, ruleId: m.ruleId, fatal: m.severity === 2, message: m.message })))
    .sort(byPlace);
}

/** remark-cli's `--report json` (vfile-reporter-json) as findings. */
export function fromRemarkJson(report: string): Finding[] {
  const files = JSON.parse(report) as Array<{ path: string; messages: Array<{ line: number; column: number; ruleId: string; source: string; fatal: boolean; reason: string }> }>;
  return files
    .flatMap((f) => f.messages.map((m) => ({ file: f.path, line: m.line, column: m.column, ruleId: `${m.source}:${m.ruleId}`, fatal: m.fatal === true, message: m.reason })))
    .sort(byPlace);
}
