// Reads a lint fixture (see test/fixtures/README.md): a Markdown file holding a memdir as fenced
// blocks and the messages memlint must print for it.
import { readFileSync } from 'node:fs';

export interface Fixture {
  title: string;
  rules: string[];
  today?: string;
  /** `committed: YYYY-MM-DD`: the files are committed on that day (else only staged, never committed). */
  committed?: string;
  /** `claudeCode: X.Y.Z`: the Claude Code version whose format the fixture is written in (config `claudeCode`). */
  claudeCode?: string;
  files: Map<string, string>;
  expected: string[] | null;
  fixed: Map<string, string>;
  /** Files committed at HEAD first (`head=REL`): then the fixture runs with --staged. */
  head: Map<string, string>;
  /** Files of the repository outside the memdir (`repo=REL`, relative to the repository's top), tracked. */
  repo: Map<string, string>;
  /** Repository files renamed (`renamed=NEW`) or deleted (`deleted`) in a commit after the first: path -> new path or null. */
  moves: Map<string, string | null>;
}

export function parseFixture(path: string): Fixture {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const fixture: Fixture = { title: '', rules: [], files: new Map(), expected: null, fixed: new Map(), head: new Map(), repo: new Map(), moves: new Map() };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^(`{3,})(\S*)\s*(.*)$/.exec(line);
    if (!open) {
      if (line.startsWith('# ') && !fixture.title) fixture.title = line.slice(2).trim();
      const rules = /^rules:\s*(.+)$/.exec(line);
      if (rules) fixture.rules = rules[1]!.split(/[\s,]+/).filter(Boolean);
      const today = /^today:\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(line);
      if (today) fixture.today = today[1]!;
      const committed = /^committed:\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(line);
      if (committed) fixture.committed = committed[1]!;
      const cc = /^claudeCode:\s*(\S+)\s*$/.exec(line);
      if (cc) fixture.claudeCode = cc[1]!;
      continue;
    }
    const fence = open[1]!;
    const info = open[3]!;
    const body: string[] = [];
    i++;
    while (i < lines.length && lines[i] !== fence) body.push(lines[i++]!);
    if (i >= lines.length) throw new Error(`${path}: unclosed block opened with ${fence}`);
    let content = body.length ? body.join('\n') + '\n' : '';
    if (/\bnofinalnewline\b/.test(info)) content = content.replace(/\n$/, '');
    if (/\bcrlf\b/.test(info)) content = content.replace(/\n/g, '\r\n');
    const file = /\bfile=(\S+)/.exec(info);
    const fixed = /\bfixed=(\S+)/.exec(info);
    const head = /\bhead=(\S+)/.exec(info);
    const repo = /\brepo=(\S+)/.exec(info);
    if (head) fixture.head.set(head[1]!, content);
    else if (repo) {
      fixture.repo.set(repo[1]!, content);
      const renamed = /\brenamed=(\S+)/.exec(info);
      if (renamed) fixture.moves.set(repo[1]!, renamed[1]!);
      else if (/\bdeleted\b/.test(info)) fixture.moves.set(repo[1]!, null);
    }
    else if (file) fixture.files.set(file[1]!, content);
    else if (fixed) fixture.fixed.set(fixed[1]!, content);
    else if (/\bexpected\b/.test(info)) fixture.expected = body.filter((l) => l.trim() !== '');
  }
  if (fixture.expected === null) throw new Error(`${path}: no \`\`\`text expected block`);
  if (fixture.rules.length === 0) throw new Error(`${path}: no "rules:" line`);
  return fixture;
}
