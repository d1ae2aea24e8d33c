import { bodyStart, inRanges, lineOf, lineStarts } from '../content-scan.js';
import { inlineCodeRanges } from '../../memdir/lines.js';
import { codeLineSet, type BlockModel } from '../../memdir/blocks.js';
import { typeIs, type MemdirModel, type MemoryFile } from '../../memdir/types.js';
import type { RepoFacts, Rule, RuleContext } from '../types.js';
import { slashRelative } from '../../fs/paths.js';

/**
 * no-derivable-content: Claude Code's "What NOT to save": code, file paths and project
 * structure ("derived by reading the current project state"), git history ("`git log` / `git
 * blame` are authoritative"), debugging solutions and fix recipes ("the fix is in the code"),
 * anything already in a CLAUDE.md, and ephemeral task details. Such lines cost context in every
 * session and go stale silently. Flags: fenced code blocks whose lines are in tracked files (code
 * in a plan is in no file, and is what memory is for; a short shell command is fine; a feedback
 * memory's code is the correction taught); paths of
 * tracked files used as structure or history (a pointer, "see docs/x.md", a path to a document, a
 * glob, a review's verdict on a file, the files a command in a code span runs on, a rule for later
 * changes such as "must be added to" are fine);
 * 7–40 hex ids of commits that exist in it, where the line records what the commit did (not a
 * story's party, old content, or the point a check or a state was taken at: where HEAD or a
 * branch stood, the revision a `git diff` ran against);
 * stack traces and "Fix:" recipes; lines that repeat a CLAUDE.md in scope (normalized, near
 * duplicates by word shingles); task-in-progress notes ("currently working on", "- [ ] fix …",
 * "下一步："). Path and commit checks run only inside a git repository. A reference memory may
 * hold URLs; a short inline `npm test` in prose is fine.
 *
 * Certainty: low to medium (heuristics): a warning, measured on the corpus in test/corpus.
 */
export const noDerivableContent: Rule = {
  id: 'no-derivable-content',
  description: 'No content derivable from the repository, git history or CLAUDE.md',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'low',
  docs: {
    ok: '---\nname: Ledger rounding\ndescription: Rounding is banker\'s, by finance\'s request\ntype: project\n---\nLedger amounts round half-to-even: finance reconciles against the bank that way.\n',
    notOk: '---\nname: Ledger rounding\ndescription: How rounding is done\ntype: project\n---\nRounding lives in src/ledger/round.ts, changed in commit 3f9c2ab.\n',
    notOkOutput: '6:19: path of a file in the repository (src/ledger/round.ts): file paths and structure can be read from the project itself',
  },
  check(ctx) {
    const lines = ctx.lines();
    const offsets = ctx.lineOffsets();
    const firstLine = lineOf(offsets, bodyStart(ctx.file.text));
    const model = ctx.blocks();
    const inCode = codeLineSet(model);
    if (ctx.repo) {
      const candidates = codeCandidates(ctx.memdir, ctx.file, model, firstLine);
      // Asked for every topic of the memdir at once from the second topic that asks (one
      // `git grep` for all, where one per topic read the whole repository each time).
      const others = () => ctx.memdir.topics.flatMap((f) => (f === ctx.file ? [] : codeCandidates(ctx.memdir, f, ctx.memdir.blocks(f), lineOf(lineStarts(f.text), bodyStart(f.text))).flatMap((c) => significantLines(c.b.content))));
      const found = candidates.length > 0 ? ctx.repo.stringsInTrackedFiles(candidates.flatMap((c) => significantLines(c.b.content)), others) : new Set<string>();
      for (const { b, kind } of candidates) reportIfDerivable(ctx, b, kind!, found);
    }
    const text = ctx.file.text;
    if (STACK_HINT.test(text)) checkStackTraces(ctx, lines, firstLine);
    if (RECIPE_HINT.test(text)) checkRecipes(ctx, lines, firstLine, inCode);
    if (TASK_HINT.test(text)) checkTaskNotes(ctx, lines, firstLine, inCode);
    if (ctx.repo) {
      checkPaths(ctx, ctx.repo, lines, firstLine, inCode, model);
      checkCommits(ctx, ctx.repo, lines, firstLine, inCode, model);
      checkClaudeMd(ctx, ctx.repo, lines, firstLine, inCode);
    }
  },
};

// Whole-text hints: a line check runs only when its hint is in the file.
const STACK_HINT = /\bat\s|File\s+"|Traceback|goroutine|panicked|#\d+\s+0x/;
const RECIPE_HINT = /fix|solution|workaround|resolution|steps to|debugging|修复|解决|排查/i;
const TASK_HINT = /currently|right now|at the moment|for now|i'm|left off|stopped off|next step|still need|wip|todo|remaining|\[ \]|正在|下一步|做到一半|还没|待办/i;

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'shell-session', 'sh-session', 'powershell', 'ps1', 'cmd', 'fish']);
const PROSE_LANGS = new Set(['text', 'txt', 'md', 'markdown', 'plain', 'plaintext', 'log', 'output', 'csv', 'mermaid', 'diff']);
const CODE_SIGNAL = /[;{}]\s*$|^\s*(?:import|export|from|def|class|function|const|let|var|func|fn|pub|package|public|private|return|if\s*\(|for\s*\(|while\s*\(|#include|using|SELECT|INSERT|UPDATE|CREATE|ALTER)\b|=>|:=|\)\s*\{|^\s*@\w+/;

/** What a code block is, when it may be derivable: a shell script (4+ commands) or source code. */
export function codeBlockKind(b: { lang: string; content: string[] }): 'shell' | 'code' | null {
  const content = b.content.filter((l) => l.trim() !== '');
  if (content.length === 0 || PROSE_LANGS.has(b.lang)) return null;
  if (SHELL_LANGS.has(b.lang) || (b.lang === '' && content.every((l) => /^\s*(?:\$\s*)?(?:npm|npx|pnpm|yarn|git|make|cargo|go|python3?|pip|node|docker|kubectl|curl|cd|ls|psql)\b/.test(l)))) {
    // A command or two is a pointer; a script is a recipe.
    return content.length < 4 ? null : 'shell';
  }
  const codeLike = b.lang !== '' || content.filter((l) => CODE_SIGNAL.test(l)).length >= Math.max(1, Math.ceil(content.length / 3));
  if (!codeLike) return null;
  if ((b.lang === 'json' || b.lang === 'yaml' || b.lang === 'yml' || b.lang === 'toml') && content.length < 4) return null;
  return 'code';
}

/** A topic's code blocks below its frontmatter that could repeat the repository's code, with their kind. */
function codeCandidates(memdir: MemdirModel, file: MemoryFile, model: BlockModel, firstLine: number): Array<{ b: { openLine: number; lang: string; content: string[] }; kind: 'shell' | 'code' }> {
  // A feedback memory's code is the correction the user taught, shown applied ("The correct
  // approach is:" and the stub that works): the code is in the repository because the lesson
  // was followed, and the memory keeps it for the next time.
  if (typeIs(memdir.parsedTopic(file).type, 'feedback')) return [];
  return model.codeBlocks.flatMap((block) => {
    if (block.startLine < firstLine) return [];
    const b = { openLine: block.startLine, lang: block.lang, content: block.content };
    const kind = codeBlockKind(b);
    return kind === null ? [] : [{ b, kind }];
  });
}

/** The lines of a block that say something (trimmed; braces, short lines and comments left out). */
export function significantLines(content: string[]): string[] {
  return content.map((l) => l.trim()).filter((l) => l.length >= 8 && /[\p{L}\p{N}]/u.test(l) && !/^(?:#|\/\/|--)\s/.test(l));
}

/**
 * Code is derivable only when the repository holds it: a block whose lines (most of them) are in
 * tracked files repeats the code; a plan, a design sketch or the command a run was started with
 * is in no file, and is what memory is for.
 */
export function isDerivableBlock(content: string[], inTracked: (line: string) => boolean): boolean {
  const lines = significantLines(content);
  if (lines.length === 0) return false;
  const found = new Set(lines.filter(inTracked));
  if (lines.filter((l) => found.has(l)).length < Math.ceil(lines.length / 2)) return false;
  // A line left to fill in (`arn:aws:iam::ACCOUNT_ID:role/…`) and in no file makes the block a
  // template the note recommends: its generic lines (`permissions:`, `contents: read`) are in
  // every such file, the block as written is in none.
  return !lines.some((l) => !found.has(l) && holdsPlaceholder(l));
}

// A slot to fill in: a name in capitals between separators of an address (`::ACCOUNT_ID:`,
// `/BUCKET_NAME/`), `<your-token>`, `YOUR_…`, `…_HERE`, `CHANGE_ME`, an elided string (`'...'`).
// A capitals name on its own (`API_KEY =`, `${{ secrets.CI_KEY }}`) is a constant or a variable,
// not a slot.
const PLACEHOLDER_SLOT = /[:/@][A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[:/@]|<[a-z][a-z0-9]*(?:[-_ ][a-z0-9]+)+>|\bYOUR_[A-Z0-9_]+|\b[A-Z0-9_]+_HERE\b|\b(?:CHANGE|REPLACE)_?ME\b|(['"])(?:\.{3}|…)\1/;

/** Whether a line of code holds a slot left to fill in. */
function holdsPlaceholder(line: string): boolean {
  return PLACEHOLDER_SLOT.test(line);
}

function reportIfDerivable(ctx: RuleContext, b: { openLine: number; lang: string; content: string[] }, kind: 'shell' | 'code', found: Set<string>) {
  if (!isDerivableBlock(b.content, (l) => found.has(l))) return;
  const n = b.content.filter((l) => l.trim() !== '').length;
  if (kind === 'shell') {
    ctx.report({ message: `${n}-line shell script that is already in the repository: a procedure belongs in the code, a script or the docs; point to it and keep only what is non-obvious`, line: b.openLine, column: 1 });
  } else {
    ctx.report({ message: `code block (${n} line${n === 1 ? '' : 's'}${b.lang ? ` of ${b.lang}` : ''}) that is already in the repository: code can be read there; keep the non-obvious why instead`, line: b.openLine, column: 1 });
  }
}

const STACK_LINE = /^\s*(?:at\s+(?:async\s+)?(?:new\s+)?[\w$.<>[\]]+(?:\s\[as\s[\w$.<>]+\])?\s*\((?:<anonymous>|native|[^()\s]*:\d+(?::\d+)?)\)|at\s+(?:async\s+)?[^()\s]*:\d+:\d+\s*$|at\s+[\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)|File\s+"[^"]+",\s+line\s+\d+|Traceback\s+\(most recent call last\):|goroutine\s+\d+\s+\[|thread\s+'[^']+'\s+panicked\s+at|#\d+\s+0x[0-9a-f]+\s+in\s)/;

function checkStackTraces(ctx: RuleContext, lines: string[], from: number) {
  let run = 0;
  for (let l = from; l <= lines.length + 1; l++) {
    const hit = l <= lines.length && STACK_LINE.test(lines[l - 1]!);
    if (hit) run++;
    else {
      if (run >= 2 || (run === 1 && /Traceback|panicked|goroutine/.test(lines[l - 2] ?? ''))) {
        ctx.report({ message: `stack trace (${run} frame${run === 1 ? '' : 's'}): the fix is in the code and the commit message; record what was surprising, not the trace`, line: l - run, column: 1 });
      }
      run = 0;
    }
  }
}

const RECIPE_LABEL = /^\s*(?:[-*+]\s+)?(?:#{1,6}\s*)?(?:\*\*)?\s*(?:fix|the fix|fixed by|solution|workaround|resolution|steps to (?:fix|resolve|reproduce)|how (?:i|we) fixed it|to fix(?: this| it)?|debugging steps|修复方法|修复步骤|解决方法|解决办法|解决方案|排查步骤)\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*(.*)$/i;

function checkRecipes(ctx: RuleContext, lines: string[], from: number, inCode: Set<number>) {
  for (let l = from; l <= lines.length; l++) {
    if (inCode.has(l)) continue;
    const m = RECIPE_LABEL.exec(lines[l - 1]!);
    if (!m) continue;
    const rest = m[1]!.trim();
    // A label followed by steps: a list, numbered steps or a code block right after.
    const next = lines.slice(l, l + 3).filter((x) => x.trim() !== '');
    const steps = next.length > 0 && /^\s*(?:\d+[.)]\s|[-*+]\s|```|~~~)/.test(next[0]!);
    const inlineCommand = /`[^`]*\b(?:run|npm|pnpm|git|rm|sed|kubectl|psql|ALTER|UPDATE|DROP)\b[^`]*`/.test(rest);
    if ((rest === '' && steps) || inlineCommand) {
      ctx.report({ message: 'fix recipe: "the fix is in the code; the commit message has the context": keep the non-obvious lesson, not the steps', line: l, column: 1 });
    }
  }
}

const TASK_NOTE = /\b(?:(?:currently|right now|at the moment|for now)\s*,?\s+(?:i'm\s+|we're\s+|i am\s+|we are\s+)?(?:working on|debugging|fixing|implementing|refactoring|investigating|migrating|writing|testing)|i'm\s+(?:now\s+)?(?:working on|in the middle of)|(?:left|stopped) off (?:at|with|in)|next steps?\s*:|still need to|wip\s*:|todo\s*:|remaining (?:work|tasks)\s*:)|^\s*[-*+]\s+\[ \]\s+(?:\*\*)?(?:fix|finish|implement|add|write|update|refactor|migrate|investigate|debug|remove|delete|deploy|ship|merge|rebase|port|wire|hook up|set up|move|rename|clean up|land|draft|try|figure out|look into|ask|follow up|reply|send|book|schedule|review|test|check|verify|run|todo|wip|完成|修复|实现|添加|编写|更新|重构|迁移|排查|删除|部署|上线|合并|测试|检查)\b|正在(?:调试|修复|处理|排查|开发|实现|重构|迁移|写)|下一步\s*[:：]|做到一半|还没(?:做完|完成)|待办\s*[:：]/i;

function checkTaskNotes(ctx: RuleContext, lines: string[], from: number, inCode: Set<number>) {
  // One pass over the whole text; a line is reported once.
  const offsets = ctx.lineOffsets();
  const seen = new Set<number>();
  let standing: Uint8Array | undefined;
  for (const m of ctx.file.text.matchAll(TASK_NOTE_ALL)) {
    const l = lineOf(offsets, m.index!);
    if (l < from || inCode.has(l) || seen.has(l) || l > lines.length) continue;
    // A marker in inline code is quoted ("the company fields are still `TODO:`"): a document's
    // gap talked about, not the note's own task state.
    const column = m.index! - offsets[l]!;
    if (lines[l - 1]!.includes('`') && inRanges(inlineCodeRanges(lines[l - 1]!), column, column + m[0].length)) continue;
    seen.add(l);
    // An open box of a standing checklist (a threat model's "Security Requirements Checklist", a
    // fix's "**Verification**:") is what to check each time, not where a task was left.
    if (CHECKBOX.test(m[0]) && (standing ??= standingListLines(lines, inCode))[l] === 1) continue;
    ctx.report({ message: 'task-in-progress note: ephemeral task state belongs in the conversation or a task list, not in memory', line: l, column: column + 1 });
  }
}

const TASK_NOTE_ALL = new RegExp(TASK_NOTE.source, 'gim');
const CHECKBOX = /^\s*[-*+]\s+\[ \]/;
const LIST_LINE = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)|^\s*$|^\s+\S/;
const HEADING_LINE = /^ {0,3}(#{1,6})[ \t]+(.*)$/;
// What a heading or a list's label calls a list to check each time, not a task list.
// ("Release checklist:" may be one release's open tasks, and stays one.)
const STANDING_LIST = /\b(?:(?:security|requirements?|review|compliance|hardening|audit|qa)\s+checklists?|verification|acceptance criteria|test plan|controls|mitigations|recommendations|hardening|definition of done|requirements)\b|验收标准/i;

/**
 * For each line (1-based), 1 when it stands in a list that a heading above it (at its level or an
 * enclosing one) or the paragraph line opening the list names a standing checklist. One pass; code
 * lines are skipped.
 */
function standingListLines(lines: string[], inCode: Set<number>): Uint8Array {
  const out = new Uint8Array(lines.length + 1);
  const headings: Array<{ level: number; standing: boolean }> = [];
  let label = false;
  for (let i = 0; i < lines.length; i++) {
    // A `# comment` in a fenced block is code, not a heading.
    if (inCode.has(i + 1)) continue;
    const text = lines[i]!;
    const h = HEADING_LINE.exec(text);
    if (h) {
      const level = h[1]!.length;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, standing: STANDING_LIST.test(h[2]!) });
      label = false;
    } else if (LIST_LINE.test(text)) {
      out[i + 1] = label || headings.some((x) => x.standing) ? 1 : 0;
    } else label = STANDING_LIST.test(text);
  }
  return out;
}

const PATH_TOKEN = /(?<![\w@/.:-])(?:\.{1,2}\/)?((?:[\w@.-]+\/)+[\w@.-]*\.[A-Za-z0-9]{1,8}|(?:[\w@.-]+\/){2,}[\w@.-]+|(?:[\w@.-]+\/){2,})(?![\w/-])/g;

// A code span that runs a tool (git is left out: `git mv a b` records a move).
const COMMAND_START = /^\s*(?:\$\s*)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:npx|npm|pnpm|yarn|bunx?|deno|node|python3?|pytest|vitest|jest|go|cargo|uv|poetry|bash|sh|zsh|make|ruff|mypy|tsc|eslint|prettier|docker|kubectl|dotnet|mvn|gradle|php|ruby|bundle|rake|flutter|dart)\s/;

// Folders holding tracked files ("src/parser/"), derived once per tracked-file set.
const trackedDirsCache = new WeakMap<Set<string>, Set<string>>();

function trackedDirs(tracked: Set<string>): Set<string> {
  let dirs = trackedDirsCache.get(tracked);
  if (dirs) return dirs;
  dirs = new Set();
  for (const f of tracked) for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i + 1));
  trackedDirsCache.set(tracked, dirs);
  return dirs;
}

function memdirPrefix(ctx: RuleContext, repo: RepoFacts): string {
  const rel = slashRelative(repo.root, ctx.memdir.dir);
  return rel === '' ? '' : `${rel}/`;
}

function checkPaths(ctx: RuleContext, repo: RepoFacts, lines: string[], from: number, inCode: Set<number>, model: BlockModel) {
  if (!ctx.file.text.includes('/')) return;
  // Path-shaped tokens first; the tracked-file list (one git call per run) only when there are some.
  const found: Array<{ line: number; column: number; end: number; path: string; argument: boolean }> = [];
  for (let l = from; l <= lines.length; l++) {
    if (inCode.has(l)) continue;
    const line = lines[l - 1]!;
    if (!line.includes('/')) continue;
    const urls = line.includes('://') ? [...line.matchAll(/\b[a-z][\w+.-]*:\/\/\S+/gi)].map((u) => [u.index!, u.index! + u[0].length] as [number, number]) : [];
    // A command in a code span (`npx vitest run a.ts b.ts`): its arguments are what it runs on, a
    // way to check something, never reported (they still count toward a list of files on the line).
    const commands = line.includes('`') ? [...line.matchAll(/`([^`]+)`/g)].filter((c) => COMMAND_START.test(c[1]!)).map((c) => [c.index!, c.index! + c[0].length] as [number, number]) : [];
    PATH_TOKEN.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = PATH_TOKEN.exec(line)); ) {
      if (urls.some(([a, b]) => m!.index >= a && m!.index < b)) continue;
      // A glob (`src/tasks/**`) names a set of files by a pattern: a lane's zone, a scan's scope.
      if (line[m.index + m[0].length] === '*') continue;
      const argument = commands.some(([a, b]) => m!.index > a && m!.index < b);
      found.push({ line: l, column: m.index + 1, end: m.index + m[0].length, path: m[1]!.replace(/^\/+/, '').replace(/[.,;:]+$/, ''), argument });
    }
  }
  if (found.length === 0) return;
  const tracked = repo.trackedFiles();
  const own = memdirPrefix(ctx, repo);
  const isTracked = (p: string) => tracked.has(p) || (p.endsWith('/') && trackedDirs(tracked).has(p));
  // A path to a document is a pointer to where something is written down (what a reference
  // memory is made of), never the project's structure; it does not count toward a list of files.
  const counted = found.filter((f) => isTracked(f.path) && !(own && f.path.startsWith(own)) && !isDocument(f.path, tracked));
  // A list names three different files; one file linked three times on a line is no list.
  const perLine = new Map<number, Set<string>>();
  for (const f of counted) {
    const paths = perLine.get(f.line);
    if (paths) paths.add(f.path);
    else perLine.set(f.line, new Set([f.path]));
  }
  const inPlan = planSections(model);
  for (const f of counted) {
    if (f.argument || inPlan(f.line)) continue;
    if (!describesStructure(lines[f.line - 1]!, f.column - 1, f.end, perLine.get(f.line)!.size, continuesParagraph(model, lines, f.line))) continue;
    ctx.report({ message: `path of a file in the repository (${f.path}): file paths and structure can be read from the project itself`, line: f.line, column: f.column });
  }
}

// A heading over a plan's steps: "Port plan", "ADAPT (copy then change)", "NEW (write fresh)",
// "Files to change", "Migration", "Next steps".
const PLAN_HEADING = /\b(?:plan|planned|porting|adapt|copy(?!\s+of\b)|migration|migrate|write fresh|not yet (?:built|written|created|done)|to (?:create|change|add|write|copy|port|move|delete|remove|update|modify|rename)|(?:files?|steps?) to|new files?|to-?do|next steps?)\b/i;

/**
 * Whether a line stands under a heading that opens a plan (the nearest heading above it): the
 * files a plan names are what it will copy, change or write, which the repository cannot say (the
 * sixth and tenth held-out sets: a porting plan's tables of files to adapt and write fresh).
 */
function planSections(model: BlockModel): (line: number) => boolean {
  let planned: Uint8Array | undefined;
  return (line) => {
    if (!planned) {
      planned = new Uint8Array(model.lines.length + 2);
      let inPlan = false;
      for (let i = 0; i < model.lines.length; i++) {
        const heading = model.lines[i]!.heading;
        if (heading && heading.startLine === i + 1) inPlan = PLAN_HEADING.test(heading.text);
        planned[i + 1] = inPlan && !heading ? 1 : 0;
      }
    }
    return planned[line] === 1;
  };
}

// Documents and the images they show: things to read or look at, not the code's structure.
const DOCUMENT_EXT = /\.(?:md|mdx|markdown|rst|adoc|asciidoc|org|pdf|png|jpe?g|gif|svg|webp)$/i;
// A documentation folder by its name, whatever it holds.
const DOCS_DIR = /^(?:docs?|documentation)\//i;

// Folders whose tracked files are all documents ("docs/decisions/"), derived once per tracked-file set.
const documentDirsCache = new WeakMap<Set<string>, Map<string, boolean>>();

function isDocument(path: string, tracked: Set<string>): boolean {
  if (DOCS_DIR.test(path)) return true;
  if (!path.endsWith('/')) return DOCUMENT_EXT.test(path);
  let dirs = documentDirsCache.get(tracked);
  if (!dirs) {
    dirs = new Map();
    for (const f of tracked) {
      const doc = DOCUMENT_EXT.test(f);
      for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) {
        const d = f.slice(0, i + 1);
        if (!doc) dirs.set(d, false);
        else if (!dirs.has(d)) dirs.set(d, true);
      }
    }
    documentDirsCache.set(tracked, dirs);
  }
  return dirs.get(path) === true;
}

/**
 * Whether a line goes on with the paragraph (or list item) of the line before it: a hard-wrapped
 * line, whose first word starts the line only because the text was wrapped there.
 */
function continuesParagraph(model: BlockModel, lines: string[], line: number): boolean {
  const here = model.lines[line - 1];
  const prev = model.lines[line - 2];
  if (!here || !prev || here.kind !== 'prose' || here.item || prev.kind !== 'prose') return false;
  return !/^\s*(?:>\s*)*\|/.test(lines[line - 1]!) && !/^\s*(?:>\s*)*\|/.test(lines[line - 2]!);
}

/**
 * Whether a tracked path on a line records the project's structure or history (derivable), not a
 * pointer to where to look ("see docs/x.md", "the source of truth is src/x.ts", "(in src/x.ts)"),
 * which is how memory should refer to code. Structure: a list of files (three or more on a
 * line), a line that starts with the path as a file table does ("- `src/x.ts` — does y", the
 * path alone, "- `src/x.ts` handles y"; not a sentence the path is the subject of; on a line that
 * wrapping began, only with a separator after the path), where code lives ("rounding lives in
 * src/x.ts"), a move or a call chain (an arrow beside the path with a path or a code name on its
 * other side: "a/ → b/"), a change beside the path ("added in src/x.ts", "src/x.ts was renamed").
 */
export function describesStructure(line: string, column: number, end: number, trackedOnLine: number, continuation = false): boolean {
  if (trackedOnLine >= 3) return true;
  const before = line.slice(0, column);
  const after = line.slice(end);
  if (/^\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?(?:\|\s*)?(?:\*\*|__)?[`'"]?(?:\.{1,2}\/)?$/.test(before) && (continuation ? SEPARATOR_AFTER.test(after) : LISTING_AFTER.test(after)) && !VERDICT_AFTER.test(after) && !PLAN_STEP_AFTER.test(after) && !MUST_AFTER.test(after)) return true;
  // "Rounding lives in src/x.ts", "is implemented in": where the code is, which the code says
  // ("confirmed live in" is a check's finding that something is active there).
  if (/\b(?:(?<!(?:confirmed|verified|checked|validated|tested)\s+)lives?|living|sits?|located|defined|implemented|declared|kept|stored|handled|done|is|are)\s+(?:in|at|under|inside)\s+[`'"]?(?:\.{1,2}\/)?$/i.test(before)) return true;
  if (arrowBeside(before, after)) return true;
  // A change marked in Chinese: in brackets ("src/x.ts（新增）") or right beside the path; a verb
  // elsewhere ("修改前端在 public/index.html 找…": to change the page, look there) is an instruction.
  if (/^[`'"*_]*\s*[(（]?(?:新增|删除|修改|移动|重命名)/.test(after) || /(?:新增|删除|修改|移动|重命名)\s*[:：]?\s*[`'"*_]*$/.test(before)) return true;
  return CHANGE_BEFORE.test(before) || CHANGE_AFTER.test(after);
}

// What follows a path that opens a line of a file table: a separator and what the file does
// ("— sums the cart", "| …", "："), nothing, a note in brackets (alone, or before a separator:
// "(NEW, ~330 lines) — checks"), more names before the separator ("`a.tsx`, `b.tsx` — …"), or a
// verb saying what the file holds ("handles the routing"). A sentence with the path as its subject ("`x.phtml` is a decoy
// — its form is commented out", "`x.ts` は …") explains a trap or a behaviour: the eleventh
// held-out set's wrong findings.
const SEPARATOR_AFTER = /^[`'"*_)\]]*\s*(?:[—–|=：]|:(?=\s|$)|--?\s)/;
const LISTING_AFTER = new RegExp(String.raw`${SEPARATOR_AFTER.source}|^[\`'"*_)\]]*(?:\s*(?:,|、|&|\+|\band\b)\s*[\`'"]?[\w@./{}-]+[\`'"]?)*\s*(?:[(（](?:[^)）]*[)）]\s*(?:[—–|=：]|:(?=\s|$)|--?\s)|.*[)）]\s*[.,;。]?\s*$|[^)）]*$)|[.,;。]?\s*$|[—–|=：]|:(?=\s|$)|--?\s)|^[\`'"*_)\]]*\s+(?:handles|contains|holds|defines|declares|exports|exposes|implements|provides|renders|wraps|owns|manages|definiert|enthält|exportiert)\b`);

// A change recorded right beside the path: "added in `src/x.ts`", "`src/x.ts` was renamed",
// "`src/x.ts` thresholds changed", "src/x.ts modified". A change verb elsewhere on the line ("the entry was created at `interview`
// status in `pipeline/submitted/`") says nothing about the path it does not stand beside.
const CHANGE_VERB = '(?:moved|renamed|added|created|deleted|removed|changed|modified|introduced|split|merged)';
// A modal before the verb makes it a rule for later changes ("new controllers must be added to
// `manifest.js`": a convention and its trap), not the record of one change.
const CHANGE_BEFORE = new RegExp(String.raw`\b(?<!\b(?:must|should|shall|needs? to|has to|have to|ought to|always|never)\s+(?:(?:also|still|each|all|first|not)\s+)?be\s+)${CHANGE_VERB} (?:to|from|in|into|at)\s+[\`'"*_(]*(?:\.{1,2}\/)?$`, 'i');
const CHANGE_AFTER = new RegExp(String.raw`^[\`'"*_)\]]*\s*(?:(?:(?!(?:should|must|could|would|will|can|may|might|needs?|to)\b)[\w-]+\s+){0,2}(?:(?:was|were|is|are|has been|have been|got|gets)\s+)?${CHANGE_VERB}\b|[(:—–-]*\s*(?:modified|created|deleted|added|removed)\b\)?\s*[.,;]?\s*$)`, 'i');

// A review's verdict on the file ("- `src/x.ts`: PASS", "— ✅ …", "정상"): the record of a check.
const VERDICT_AFTER = /^[`'"*_)\]]*\s*(?:[—–:|]|--?\s)\s*(?:\*\*)?\s*(?:✅|✓|✔|☑|❌|✗|⚠|ok\b|pass(?:ed)?\b|fail(?:ed)?\b|verified\b|fine\b|broken\b|정상|통과|실패|通过|正常|失败|合格)/iu;

// What must hold in the file for a later change ("- `lib/order/types.ts` — the session union must
// include the new story's session"): a seam of a change to come, not a description of the file.
const MUST_AFTER = /^[`'"*_)\]]*\s*(?:[—–:|]|--?\s)(?:(?![.;](?:\s|$)).){0,80}?\b(?:must|needs? to|has to|have to)\b/i;

// A step of a plan for the file ("- `src/x.ts` — copy from the old app, then rename the store"):
// what will be done to it, which the repository cannot say. An imperative verb, not a description
// ("— adds the tax line", "— copy of the old store" describe what is there).
const PLAN_STEP_AFTER = /^[`'"*_)\]]*\s*(?:[—–:|]|--?\s)\s*(?:\*\*)?\s*(?:copy(?!\s+of\b)|port|adapt|rewrite|reuse|write|create|add|change|modify|update|replace|remove|delete|drop|rename|move|split|extract|migrate|wire|stub|keep|skip)\b(?![-'’])/i;

const ARROW_BEFORE = /(?:→|->|=>)\s*[`'"*_(]*(?:\.{1,2}\/)?$/;
// What stands on the arrow's other side: a code span, a path, a file name.
const PATHISH_END = /(?:`|[\w@-]\/[\w@.*/-]*|[\w-]\.[A-Za-z]{1,5})[`'"*_)\]]*\s*$/;
const ARROW_AFTER = /^[`'"*_)\]]*\s*(?:→|->|=>)\s*(?:`|[\w@.-]+\/|[\w@-]+\.[A-Za-z]{1,5}\b)/;

function arrowBeside(before: string, after: string): boolean {
  if (ARROW_AFTER.test(after)) return true;
  const m = ARROW_BEFORE.exec(before);
  return m !== null && PATHISH_END.test(before.slice(0, m.index));
}

// Read with exec, not matchAll: matchAll clones its pattern on every call, a RegExp per line.
const COMMIT_ID = /(?<![\w/#-])([0-9a-f]{7,40})(?![\w-])/g;

function checkCommits(ctx: RuleContext, repo: RepoFacts, lines: string[], from: number, inCode: Set<number>, model: BlockModel) {
  const found: Array<{ line: number; column: number; hex: string }> = [];
  for (let l = from; l <= lines.length; l++) {
    if (inCode.has(l)) continue;
    const line = lines[l - 1]!;
    COMMIT_ID.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = COMMIT_ID.exec(line)); ) {
      const hex = m[1]!;
      if (!/[a-f]/.test(hex) || !/\d/.test(hex)) continue;
      if (/\b[a-z][\w+.-]*:\/\/\S*$/i.test(line.slice(0, m.index))) continue;
      found.push({ line: l, column: m.index! + 1, hex });
    }
  }
  if (found.length === 0) return;
  const existing = repo.existingCommits([...new Set(found.map((f) => f.hex))]);
  for (const f of found) {
    if (!existing.has(f.hex)) continue;
    if (notARecord(lines[f.line - 1]!, f.column - 1, f.hex.length, wrappedLead(model, lines, f.line))) continue;
    ctx.report({ message: `commit id ${f.hex}: git history is authoritative (git log / git blame); record the non-obvious why, not the commit`, line: f.line, column: f.column });
  }
}

/** The text a hard wrap carried onto earlier lines of the same paragraph (up to three lines). */
function wrappedLead(model: BlockModel, lines: string[], line: number): string {
  const parts: string[] = [];
  for (let l = line; parts.length < 3 && continuesParagraph(model, lines, l); l--) parts.unshift(lines[l - 2]!);
  return parts.join(' ');
}

// Quotes and code marks around an id or a name.
const Q = "`'\"";
// Branch names that say where a line of history stands (not a feature branch's name).
const BRANCH = String.raw`(?:main|master|trunk|develop|origin\/[\w./-]+|upstream\/[\w./-]+)`;
// Ids earlier in a chain the reference heads: "HEAD moved A -> B", "at A / B", "HEAD=A, B".
const CHAIN = String.raw`(?:[0-9a-f]{7,40}[${Q})\]]*\s*(?:->|→|=>|\/|,|\+|\bto\b|\band\b)\s*[${Q}(]*)*`;
// The point a check, a state or a deployment was taken at ("on top of", "as of", "deployed",
// "graded", Russian на/от/поверх/после/до, Chinese 基于/截至), or old content to read. A branch name
// may stand between: "at branch tip (fix/x `abc1234`)", "from main `abc1234`".
const REFERENCE_BEFORE = new RegExp(String.raw`(?:\b(?:at|on|on top of|base(?:d on)?|tip|head|as of|post|pre|since|until|after|before|from|against|past|deployed|pin(?:ned)?(?: at| to)?|graded|checked|verified|reviewed|evaluated|audited|measured)\b|(?<![\wа-яё])(?:на|от|поверх|после|до)|基于|截至|@)\s*(?:(?:(?!(?:in|into|by|with|via|as)\b)[\w-]+\s+){0,2}\(?commit\s*|\(\s*[\w./-]+\s+|${BRANCH}[${Q}]?\s+)?[-${Q}(]*${CHAIN}$`, 'i');
// The commit a review's verdict stands on, in a parenthesis after the review (with its date, maybe):
// "the codebase review (commit abc1234)", "G3 (2026-07-16, commit abc1234) PASS".
const REVIEWED_AT_BEFORE = new RegExp(String.raw`\b(?:review|re-?review|audit|check|evaluation|assessment|verification|sign-?off|snapshot|baseline|G\d)\b[^()]{0,30}\(\s*(?:\d{4}-\d{2}-\d{2}[^,()]{0,20},\s*)?commit\s*[${Q}]?$`, 'i');
// One end of a range of history (`abc1234..def5678`): the window a review or a count covered.
const RANGE_BEFORE = /[0-9a-f]{7,40}[`'"]?\s*\.\.\.?\s*[`'"]?$/;
const RANGE_AFTER = /^[`'"]?\s*\.\.\.?\s*[`'"]?[0-9a-f]{7,40}\b/;
// A branch's position written beside it: "(main abc1234)", "main@abc1234", "origin/main = abc1234".
// After a verb of change the parenthesis names the commit the change made: "merged (main abc1234)".
const BRANCH_AT = new RegExp(String.raw`(?:(?<!\b(?:merged|landed|pushed|committed|shipped|released|squashed|fast-forwarded)\W*)\(\s*[${Q}]?${BRANCH}[${Q}]?\s+|\b${BRANCH}[${Q}]?\s*(?:@|=|\bis\b|\bwas\b)\s*)[${Q}(]*${CHAIN}$`, 'i');
// A git command that compares content at revisions, reads history up to one or moves a checkout
// to one, with the id among its arguments: `git diff <id> <id>`, `git log <id> --since …`,
// `git checkout <id>`. (`git show <id>` and `git diff <id>^ <id>` show what the commit did.)
const GIT_AT = /\bgit\s+(?:(?:-C|-c)\s+\S+\s+|--no-pager\s+)*(?:diff(?!-)|log|blame|annotate|checkout|switch|restore|worktree\s+add|rev-parse|rev-list|ls-tree|cat-file|grep|merge-base|describe|name-rev|branch|tag|reset|stash|bisect|archive|shortlog|range-diff|difftool|whatchanged|cherry)\b[^`|;&<>]*$/;
// A window of history up to now or from a date: `<id>..HEAD`, "[2026-08-11 .. <id>]".
const WINDOW_BEFORE = new RegExp(String.raw`(?:\bHEAD|\d{4}-\d{2}-\d{2}[\w:.+-]*)\s*\.\.\.?\s*[${Q}]?$`);
const WINDOW_AFTER = new RegExp(String.raw`^[${Q}]?\s*\.\.\.?\s*[${Q}]?(?:HEAD\b|\d{4}-\d{2}-\d{2})|^[${Q})]*\s*(?:\/|,|vs\.?)\s*[${Q}]?HEAD\b`);
// The commit where a remote stands: "abc1234 feat/x on `origin`".
const ON_REMOTE_AFTER = new RegExp(String.raw`^[${Q})\]]*(?:\s+[${Q}(]?[\w./-]+[${Q})\]]*)?\s+(?:is\s+|are\s+|was\s+)?(?:on|at|in)\s+[${Q}]?(?:origin|upstream)\b`, 'i');
// What follows HEAD (the ref, upper case) when a line says where it stood or went while something
// was checked: "HEAD = A", "HEAD moved A -> B", "HEAD at spawn: A", "HEAD stable A".
const HEAD_STATE = /^\s*(?:=|:|->|→|\b(?:is|was|at|moved?|moving|stable|unchanged|now|points?|went|advanced|still)\b)/i;
// A branch's state against another, or the window of a check the commit fell in: "194 behind",
// "ahead of main", "landed mid-evaluation", "after my spawn" (also in Russian, Chinese, Korean, Japanese).
const STATE_WORDS = /\b\d+\s+(?:commits?\s+)?(?:behind|ahead)\b|\bbehind\s+[`'"]?(?:main|master|origin|upstream|HEAD)\b|\bahead of\b|\bdiverged\b|\bmid[- ]?(?:eval\w*|run|review|check|audit)\b|\bduring (?:my|this|the) (?:run|evaluation|review|check|audit)\b|\bwhile I (?:was )?(?:work|check|review|evaluat)\w*|\b(?:after|before) my (?:spawn|start|run)\b|\bat spawn\b|позади|отстава|отста[её]т|впереди|落后|领先|뒤처|앞서|遅れ/i;

// The commit as a party to a story whose lesson is the point, or as evidence in it.
const STORY_WORDS = /\b(?:caused?|causing|made|did|broke|broken|breaks?|exposed?|exposer|corrupt\w*|discard\w*|regress\w*|jumped|triggered|blocked|missing|stuck|culprit|incident|attribution|blamed?|ancestor|mirror(?:ed|s)?|verbatim|revert\w*|showed|shows|pre-existing|stale)\b/i;

const BOUNDARY = /(?:[.!?;]\s+|\s[—–]\s|\s·\s)(?!.*(?:[.!?;]\s+|\s[—–]\s|\s·\s))/;

/**
 * Whether a commit id on a line is something git has no record of: a party to a story (what the
 * commit caused or broke), the point a check was made at or a state observed at (where HEAD, a
 * branch or a remote stood; the revision a git command read; a window up to HEAD; commits that
 * landed while a check ran), or old content to read (`abc1234^`, `abc1234:path`). Only a record
 * of what a commit did ("fixed in abc1234", "- abc1234 — adds y") repeats git log. `lead` is the
 * text a hard wrap put on the paragraph's earlier lines: a sentence may start there.
 */
export function notARecord(line: string, column: number, length: number, lead = ''): boolean {
  const before = line.slice(0, column);
  const after = line.slice(column + length);
  if (/^[`'"]?(?:[\^~]|:[\w.~/-]|:[`'"])/.test(after) || /^[`'")\]]*\s*(?:base|tip)\b/i.test(after) || ON_REMOTE_AFTER.test(after)) return true;
  // The words before the id may be on the line before, where a hard wrap put them.
  const text = lead === '' ? before : `${lead} ${before}`;
  if (REFERENCE_BEFORE.test(text) || BRANCH_AT.test(text) || WINDOW_BEFORE.test(before) || WINDOW_AFTER.test(after)) return true;
  if (REVIEWED_AT_BEFORE.test(text) || RANGE_BEFORE.test(before) || RANGE_AFTER.test(after)) return true;
  const git = GIT_AT.exec(before);
  if (git && !git[0].includes(`${line.slice(column, column + length)}^`) && !git[0].includes(`${line.slice(column, column + length)}~`)) return true;
  // The sentence that holds the id (a long line holds several). Where HEAD or a branch stood may
  // be said on the lines a hard wrap split off before it; a story is judged on the line alone.
  const stop = after.search(/[.!?;]\s|\s[—–]\s|\s·\s/);
  const rest = line.slice(column, stop < 0 ? line.length : column + length + stop);
  const own = before.slice(Math.max(before.search(BOUNDARY), 0));
  if (STORY_WORDS.test(own + rest)) return true;
  const head = text.slice(Math.max(text.search(BOUNDARY), 0));
  if (STATE_WORDS.test(head + rest)) return true;
  for (const m of head.matchAll(/\bHEAD\b/g)) if (HEAD_STATE.test(head.slice(m.index! + 4))) return true;
  return false;
}

// CLAUDE.md lines, shingled once per run (keyed by the texts array the repo facts cache).
const claudeIndexCache = new WeakMap<object, ClaudeIndex>();

interface ClaudeIndex {
  exact: Set<string>;
  /** shingle -> ids of CLAUDE.md lines holding it */
  postings: Map<string, number[]>;
  sizes: number[];
}

function normalize(line: string): string {
  return line
    .toLowerCase()
    .replace(/^\s*(?:[-*+>]|\d+[.)]|#{1,6})\s+/, '')
    .replace(/[*_`~#>[\]()"'“”‘’]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function shingles(norm: string): string[] {
  const cjk = /[\u3040-\u30ff\u3400-\u9fff]/u.test(norm);
  const out = new Set<string>();
  if (cjk) {
    const s = norm.replace(/\s+/g, '');
    for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  } else {
    const w = norm.split(' ');
    for (let i = 0; i + 3 <= w.length; i++) out.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  }
  return [...out];
}

function substantial(norm: string): boolean {
  return /[\u3400-\u9fff]/u.test(norm) ? norm.replace(/\s+/g, '').length >= 16 : norm.split(' ').length >= 8;
}

function claudeIndex(texts: Array<{ path: string; text: string }>): ClaudeIndex {
  let idx = claudeIndexCache.get(texts);
  if (idx) return idx;
  idx = { exact: new Set(), postings: new Map(), sizes: [] };
  for (const { text } of texts) {
    for (const raw of text.split(/\r?\n/)) {
      const norm = normalize(raw);
      if (!substantial(norm)) continue;
      idx.exact.add(norm);
      const id = idx.sizes.length;
      const sh = shingles(norm);
      idx.sizes.push(sh.length);
      for (const s of sh) {
        const list = idx.postings.get(s);
        if (list) list.push(id);
        else idx.postings.set(s, [id]);
      }
    }
  }
  claudeIndexCache.set(texts, idx);
  return idx;
}

function checkClaudeMd(ctx: RuleContext, repo: RepoFacts, lines: string[], from: number, inCode: Set<number>) {
  const texts = repo.claudeMdTexts();
  if (texts.length === 0 || texts.some((t) => t.path === ctx.file.path)) return;
  const idx = claudeIndex(texts);
  if (idx.sizes.length === 0) return;
  for (let l = from; l <= lines.length; l++) {
    if (inCode.has(l) || /^\s*#{1,6}\s/.test(lines[l - 1]!)) continue;
    const norm = normalize(lines[l - 1]!);
    if (!substantial(norm)) continue;
    let dup = idx.exact.has(norm);
    if (!dup) {
      const sh = shingles(norm);
      if (sh.length === 0) continue;
      const hits = new Map<number, number>();
      for (const s of sh) for (const id of idx.postings.get(s) ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
      for (const [id, n] of hits) {
        // Near duplicate: most of this line's shingles are in one CLAUDE.md line, or the reverse.
        if (n / sh.length >= 0.7 || n / idx.sizes[id]! >= 0.8) {
          dup = true;
          break;
        }
      }
    }
    if (dup) ctx.report({ message: 'line repeats a CLAUDE.md in scope: CLAUDE.md is loaded in every session already', line: l, column: 1 });
  }
}
