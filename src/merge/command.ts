// The driver command that git config holds (`memlint install` writes it; docs/merge.md explains it).
//
// git runs it through `sh` in the top of the worktree being merged, so a relative path to the
// binary resolves in every linked worktree on its own, and nothing absolute lands in the shared
// config. It starts the binary directly (no npx resolution). When memlint did not merge, git's
// own line merge runs instead: a missing driver's exit 127 would otherwise leave OURS in place
// with no markers. "Did not merge" is any exit but 0, and an exit 1 that left no conflict marker
// in OURS (node itself exits 1 when the script it was given is missing or throws on load): a
// marker of exactly %L characters opening a block labelled "ours", as memlint writes them (and
// as its own git merge-file fallback labels them), whatever the marker size; lines are read with
// CR as a line end too (tr), so a file with lone-CR endings is seen line by line.
// After memlint's own exit 0, or 1 with its markers written, nothing else runs. git merge-file
// exits with the number of conflicts, or 255 when it cannot merge (binary): that is a conflict.

export const DRIVER_NAME = 'memlint';
export const DRIVER_DESCRIPTION = "memlint: semantic merge of Claude Code memory (MEMORY.md, topic files, daily logs)";
/** The binary, relative to the worktree top, as npm installs it. */
export const DEFAULT_MEMLINT_BIN = 'node_modules/.bin/memlint';

export interface DriverCommandOptions {
  /** Shell words that start memlint, e.g. "node_modules/.bin/memlint" (never an absolute worktree path). */
  memlint?: string;
}

/**
 * How a way of starting memlint (memlintWords: `node_modules/.bin/memlint`, `node ./dist/cli.js`,
 * or a bare name found on PATH) names its program: the file relative to the worktree top, the
 * shell test that it can start, and the words that run it once `$memlint` holds its absolute path.
 * null for a bare name or an absolute command, which are the same in every worktree.
 */
export function programOf(words: string): { file: string; test: '-x' | '-f'; run: string } | null {
  const relative = (p: string) => !p.startsWith('/') && /^[\w./@+-]+$/.test(p);
  const node = /^node\s+(\S+)$/.exec(words);
  if (node) return relative(node[1]!) ? { file: node[1]!.replace(/^\.\//, ''), test: '-f', run: 'node "$memlint"' } : null;
  return words.includes('/') && relative(words) ? { file: words, test: '-x', run: '"$memlint"' } : null;
}

/** Shell that sets `memlint` to the main worktree's copy of `file` (the folder holding the repository's .git), or empties it. */
export function mainWorktreeCopy(file: string, test: '-x' | '-f'): string[] {
  return [
    "memlint=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || :)",
    `case $memlint in */.git) memlint=\${memlint%/.git}/${file} ;; *) memlint= ;; esac`,
    `[ -n "$memlint" ] && [ ${test} "$memlint" ] || memlint=`,
  ];
}

export function driverCommand(options: DriverCommandOptions = {}): string {
  const memlint = options.memlint ?? DEFAULT_MEMLINT_BIN;
  const merged = (start: string) => `${start} merge %O %A %B %L %P; s=$?; [ $s -eq 0 ] && exit 0; [ $s -eq 1 ] && tr '\\r' '\\n' < %A | grep -q '^<\\{%L\\} ours' && exit 1; `;
  const program = programOf(memlint);
  // The worktree's own program, else (a linked worktree without node_modules) the main worktree's,
  // as the hooks find it. It is tested before it runs, so sh prints no "not found" line.
  const start = program
    ? `memlint=${program.file}; if [ ! ${program.test} "$memlint" ]; then ${mainWorktreeCopy(program.file, program.test).join('; ')}; fi; if [ -n "$memlint" ]; then ${merged(program.run)}fi; `
    : merged(memlint);
  return start + `git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B; s=$?; [ $s -gt 127 ] && exit 1; exit $s`;
}

/**
 * The program file a configured driver command starts, relative to the worktree top; null for a
 * bare name or an absolute command. Commands written by earlier versions start the program first.
 */
export function driverProgram(command: string): string | null {
  const found = /^memlint=([\w./@+-]+); /.exec(command.trim());
  if (found) return found[1]!;
  return programOf(command.trim().split(/\s+merge\s+%O\b/)[0]!)?.file ?? null;
}

/** Whether a configured driver command falls back to git's line merge when memlint cannot start. */
export function hasLineMergeFallback(command: string): boolean {
  return /\bgit\s+merge-file\b/.test(command);
}

/** The git config keys and values that define the driver. */
export function driverConfig(options: DriverCommandOptions = {}): Array<[key: string, value: string]> {
  return [
    [`merge.${DRIVER_NAME}.name`, DRIVER_DESCRIPTION],
    [`merge.${DRIVER_NAME}.driver`, driverCommand(options)],
  ];
}

/**
 * The .gitattributes lines that route a memdir's files to the driver. The folder's name is matched
 * literally: git's pattern characters (`\\`, `[`, `*`, `?`, and `!` or `#` first) are escaped with a
 * backslash, and a pattern holding whitespace, a double quote or a control character is written
 * C-style double-quoted, as gitattributes(5) reads it ("Patterns that begin with a double quote are
 * quoted in C style"). Unquoted, a space would end the pattern there and make the rest an attribute
 * name git rejects ("is not a valid attribute name"), and `[1]` would be a character class.
 */
export function attributeLines(memdir: string): string[] {
  const dir = (process.platform === 'win32' ? memdir.replace(/\\/g, '/') : memdir).replace(/\/+$/, '');
  const prefix = dir === '' || dir === '.' ? '' : `${literalPattern(dir)}/`;
  return [`${attributePattern(`${prefix}**/*.md`)} merge=${DRIVER_NAME}`];
}

/** A path as a git pattern matching only itself. */
function literalPattern(path: string): string {
  return path.replace(/[\\[*?]/g, '\\$&').replace(/^[!#]/, '\\$&');
}

const C_ESCAPES: Record<string, string> = { '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\' };

/** A pattern as written in .gitattributes: C-quoted when git would otherwise end it early. */
export function attributePattern(pattern: string): string {
  if (!/[\s"\x00-\x1f\x7f]/.test(pattern)) return pattern;
  const body = pattern.replace(/[\x00-\x1f\x7f"\\]/g, (c) => `\\${C_ESCAPES[c] ?? c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return `"${body}"`;
}

/**
 * A .gitattributes line as git reads it: its pattern (unquoted when C-quoted) and its attributes,
 * whitespace-separated; null for a blank line, a comment or a quoted pattern git would reject. Two
 * lines giving the same key say the same thing, however the pattern was written.
 */
export function attributeLineKey(line: string): string | null {
  const t = line.trim();
  if (t === '' || t.startsWith('#')) return null;
  let pattern: string;
  let rest: string;
  if (t.startsWith('"')) {
    const bytes: number[] = [];
    let i = 1;
    for (;;) {
      const c = t[i];
      if (c === undefined) return null;
      if (c === '"') break;
      if (c !== '\\') {
        const cp = t.codePointAt(i)!;
        bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
      const e = t[i + 1];
      if (e === undefined) return null;
      const named = Object.entries(C_ESCAPES).find(([, v]) => v === e);
      if (named) {
        bytes.push(named[0].charCodeAt(0));
        i += 2;
      } else if (/^[0-3][0-7]{2}$/.test(t.slice(i + 1, i + 4))) {
        bytes.push(parseInt(t.slice(i + 1, i + 4), 8));
        i += 4;
      } else return null;
    }
    pattern = Buffer.from(bytes).toString('utf8');
    rest = t.slice(i + 1);
  } else {
    const m = /^(\S+)(.*)$/s.exec(t)!;
    pattern = m[1]!;
    rest = m[2]!;
  }
  return `${pattern}\0${rest.trim().split(/\s+/).filter(Boolean).join(' ')}`;
}
