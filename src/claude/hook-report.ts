// What `memlint hook` tells the agent: lint messages turned into a PostToolUse "block" reason
// (file:line, what is wrong, what to do), and the SessionStart context when the memory needs
// attention. Pure functions over lint results and measurements; the command does the I/O.
import path from 'node:path';
import { parseIndex } from '../memdir/memory-index.js';
import { compactTargetText } from '../memdir/limits.js';
import { claudeFormat, type ClaudeFormat } from '../memdir/format.js';

const NEWEST_FORMAT = claudeFormat();
import { isWithin, withSlashes } from '../fs/paths.js';
import { escapeControls } from '../printable.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { shellPath } from '../shell.js';

/** Claude Code caps a hook's output at 10,000 characters; memlint stays below it. */
export const MAX_HOOK_OUTPUT = 10_000;
/** The issue's budget for SessionStart's additionalContext. */
export const MAX_SESSION_CONTEXT = 1_000;

export interface HookMessage {
  /** Absolute path of the file the message is on. */
  filePath: string;
  ruleId: string | null;
  severity: 1 | 2;
  message: string;
  line: number;
  fixable: boolean;
  /** The text the rule's fix would write, when it is a whole line worth showing (an index entry). */
  suggestion?: string;
}

export interface BlockContext {
  /** Shown paths are relative to this folder when they lie inside it. */
  projectDir: string;
  /** Text of the files the messages are on (for entry targets), by absolute path. */
  texts: Map<string, string>;
  /** Claude Code's format for the configured version (its compaction target); the newest known when absent. */
  format?: ClaudeFormat;
}

/** A path for the agent: relative to the project when inside it, else absolute. */
export function shownPath(file: string, projectDir: string): string {
  const rel = path.relative(projectDir, file);
  // A control character in a file name is shown escaped: the agent's `file:line` stays one item.
  return escapeControls(rel !== '' && isWithin(file, projectDir) ? withSlashes(rel) : file);
}

function entryOnLine(text: string | undefined, line: number) {
  if (text === undefined) return undefined;
  return parseIndex(text).lines[line - 1]?.entry;
}

/** What to do about one message, when the message itself does not already say it well enough. */
export function advice(m: HookMessage, ctx: BlockContext): string | null {
  const format = ctx.format ?? NEWEST_FORMAT;
  switch (m.ruleId) {
    case 'index-line-length': {
      const e = entryOnLine(ctx.texts.get(m.filePath), m.line);
      const into = e ? e.key : 'the topic file';
      return `shorten this entry to ${format.maxEntryChars} characters and move the detail into ${into}`;
    }
    case 'index-max-lines':
    case 'index-max-bytes':
      return `Claude Code loads only ${format.indexMaxLines} lines and ${format.indexMaxUnits.toLocaleString('en')} units of MEMORY.md: compact it to under ${compactTargetText(format, m.ruleId === 'index-max-lines' ? format.indexMaxLines + 1 : 0, m.ruleId === 'index-max-bytes' ? format.indexMaxUnits + 1 : 0)}${format.compactTarget ? ", Claude Code's own target" : ''}: merge related entries and shorten hooks (run "npx memlint consolidate"); do not delete memories to make room`;
    case 'index-orphan':
      return `add one line for it to MEMORY.md: ${m.suggestion ?? '- [Title](file.md) — one-line hook'}`;
    case 'index-link-target':
      return 'point the entry at a topic file that exists in the memory folder, or write that file';
    case 'index-duplicate':
      return 'keep one entry per topic file: merge the two hooks into the first entry and remove the second';
    case 'index-entry-format':
      return 'write it as - [Title](file.md) — one-line hook';
    case 'frontmatter-yaml':
      return 'start the file with frontmatter: ---, name: ..., description: <one specific line>, type: user|feedback|project|reference, ---';
    case 'frontmatter-required':
      return 'add the missing key to the frontmatter (name, description: <one specific line>, type: user|feedback|project|reference)';
    case 'frontmatter-type':
      return 'set type: to one of user, feedback, project or reference';
    case 'no-secrets':
      return 'remove the secret from memory now (memory is committed and loaded into every session); tell the user it needs rotating';
    case 'no-derivable-content':
      return /stack trace/.test(m.message) ? 'move this stack trace out of memory; keep one line on what was surprising' : null;
    case 'no-conflict-markers':
      return 'keep both sides\' content and remove the <<<<<<< ======= >>>>>>> lines';
    default:
      return null;
  }
}

function messageLine(m: HookMessage, ctx: BlockContext): string {
  const where = `${shownPath(m.filePath, ctx.projectDir)}:${m.line}`;
  const tip = advice(m, ctx);
  const rule = m.ruleId ? ` (${m.ruleId})` : '';
  return `- ${where}: ${m.message}${rule}${tip ? `. To do: ${tip}` : ''}`;
}

/** The index limits: past them Claude Code loads nothing of the index (CONTRACT §2). */
const CUT_OFF_RULES = new Set(['index-max-lines', 'index-max-bytes']);

/**
 * The PostToolUse reason, or null when there is no error. Warnings come only after errors, as
 * context: a warning alone never blocks. The JSON around it stays within MAX_HOOK_OUTPUT.
 */
export function blockReason(messages: HookMessage[], ctx: BlockContext, fixTarget: string): string | null {
  const errors = messages.filter((m) => m.severity === 2);
  if (errors.length === 0) return null;
  const warnings = messages.filter((m) => m.severity === 1);
  const head = `memlint found ${errors.length} problem${errors.length === 1 ? '' : 's'} in memory (the file you just wrote and MEMORY.md). Fix ${errors.length === 1 ? 'it' : 'them'} now, before you go on:`;
  const tail: string[] = [];
  if (errors.some((m) => m.fixable)) tail.push(`"npx memlint --fix ${shellPath(fixTarget)}" fixes the ones marked fixable without losing text.`);
  // What Claude Code cuts off before the agent sees it comes first: a reason too long for the hook
  // keeps those, whatever else the file holds.
  const first = errors.filter((m) => CUT_OFF_RULES.has(m.ruleId ?? ''));
  const ordered = [...first, ...errors.filter((m) => !CUT_OFF_RULES.has(m.ruleId ?? ''))];
  const lines = [head, ...ordered.map((m) => messageLine(m, ctx) + (m.fixable ? ' [fixable]' : ''))];
  if (warnings.length) lines.push('Also worth fixing (warnings):');
  // (One at a time: a spread of hundreds of thousands of lines overflows the stack.)
  for (const m of warnings) lines.push(messageLine(m, ctx));
  return fitLines(lines, tail, MAX_HOOK_OUTPUT - 64);
}

/**
 * Join lines, dropping the last ones (and saying how many problems went: the "- " lines, not a
 * heading such as the warnings') until the JSON-encoded text fits.
 */
export function fitLines(lines: string[], tail: string[], limit: number): string {
  // JSON escapes each character alone, so a joined text's encoded length is its parts' plus two
  // (`\n`) per line break: each choice of how many lines to keep is measured without joining
  // (joining at each one made a report of many messages quadratic).
  const encoded = (s: string) => JSON.stringify(s).length - 2;
  const tailLength = tail.reduce((n, l) => n + encoded(l), 0);
  const before = [0];
  for (const l of lines) before.push(before[before.length - 1]! + encoded(l));
  const problemsFrom: number[] = new Array<number>(lines.length + 1).fill(0);
  for (let k = lines.length - 1; k >= 0; k--) problemsFrom[k] = problemsFrom[k + 1]! + (lines[k]!.startsWith('- ') ? 1 : 0);
  const more = (kept: number): string[] => (problemsFrom[kept]! > 0 ? [`… and ${problemsFrom[kept]} more (run "npx memlint" to see all).`] : []);
  const size = (kept: number): number => {
    const said = more(kept);
    const parts = kept + said.length + tail.length;
    return 2 + before[kept]! + (said.length ? encoded(said[0]!) : 0) + tailLength + 2 * Math.max(parts - 1, 0);
  };
  let kept = lines.length;
  while (kept > 1 && size(kept) > limit) kept--;
  const text = [...lines.slice(0, kept), ...more(kept), ...tail].join('\n');
  if (JSON.stringify(text).length <= limit) return text;
  // Even the first line is too long (a huge message): cut it.
  let t = text;
  while (JSON.stringify(t).length > limit) t = t.slice(0, Math.floor(t.length * 0.9));
  return `${t}…`;
}

/** The PostToolUse output: one JSON object and a newline, or '' when there is nothing to say. */
export function postToolUseOutput(reason: string | null): string {
  return reason === null ? '' : `${JSON.stringify({ decision: 'block', reason })}\n`;
}

// ---------------------------------------------------------------------------------------------
// SessionStart

export interface SessionFacts {
  /** The memdir Claude Code loads, as shown to the agent. */
  memdir: string;
  lines: number;
  units: number;
  /** Targets of the entries past the cut (the agent does not see them). */
  hidden: string[];
  /** Topic files with no index entry. */
  orphans: string[];
  stray: Array<{ dir: string; mdFiles: number }>;
  /** The repository shares its memory in `committed`, and Claude Code here uses `resolved` instead. */
  link?: { committed: string; resolved: string; fix: string } | null;
  /** The format `lines` and `units` were measured for (config `claudeCode`); the newest known when absent. */
  format?: ClaudeFormat;
}

/** Within 10% of the limit, or over it. */
export function nearLimit(used: number, limit: number): boolean {
  return used >= limit * 0.9;
}

function list(names: string[], max: number): string {
  if (max === 0) return `${names.length} of them`;
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** The additionalContext, or null when the memory needs no attention. At most MAX_SESSION_CONTEXT characters. */
export function sessionContext(f: SessionFacts, format: ClaudeFormat = f.format ?? NEWEST_FORMAT): string | null {
  const maxLines = format.indexMaxLines;
  const maxUnits = format.indexMaxUnits;
  const full = (max: number) => {
    const parts: string[] = [];
    if (f.link) {
      parts.push(
        `This repository shares its memory in ${f.link.committed} (committed), but Claude Code in this checkout uses ${f.link.resolved}: what you remember now is not shared with the team, and you are not reading the team's memory. Tell the user; the fix: ${f.link.fix}.`,
      );
    }
    const index = `${f.memdir.replace(/[/\\]+$/, '')}/${INDEX_FILE}`;
    if (nearLimit(f.lines, maxLines) || nearLimit(f.units, maxUnits)) {
      const over = f.lines > maxLines || f.units > maxUnits;
      parts.push(
        `${index} is ${f.lines}/${maxLines} lines and ${f.units}/${maxUnits} units${over ? ', over what Claude Code loads' : ', close to what Claude Code loads'}: compact it to under ${compactTargetText(format, f.lines, f.units)} (${format.compactTarget ? 'Claude Code\'s own target' : 'what Claude Code loads'}): merge related entries and shorten hooks before adding memories (npx memlint consolidate); never delete memories to make room.`,
      );
      if (f.hidden.length) parts.push(`You cannot see these entries (past the cut): ${list(f.hidden, max)}; read those files when relevant.`);
    }
    if (f.orphans.length) {
      parts.push(`${f.orphans.length} topic file${f.orphans.length === 1 ? ' has' : 's have'} no entry in MEMORY.md, so you do not know ${f.orphans.length === 1 ? 'it exists' : 'they exist'}: ${list(f.orphans, max)}; add a one-line entry for each.`);
    }
    if (f.stray.length) {
      const n = f.stray.reduce((s, x) => s + x.mdFiles, 0);
      parts.push(
        `${f.stray.length} other Claude Code memory store${f.stray.length === 1 ? '' : 's'} of this repository ${f.stray.length === 1 ? 'is' : 'are'} not in use (${n} .md file${n === 1 ? '' : 's'}): ${list(f.stray.map((s) => s.dir), max)}. Tell the user; "npx memlint adopt --dry-run" shows what "npx memlint adopt" would bring into the repository's memory (it removes nothing).`,
      );
    }
    if (parts.length === 0) return null;
    return `memlint: the project memory needs attention.\n${parts.map((p) => `- ${p}`).join('\n')}`;
  };
  for (const max of [5, 3, 1, 0]) {
    const text = full(max);
    if (text === null) return null;
    if (text.length <= MAX_SESSION_CONTEXT) return text;
  }
  const text = full(0)!;
  return `${text.slice(0, MAX_SESSION_CONTEXT - 1)}…`;
}

export function sessionStartOutput(context: string | null): string {
  return context === null ? '' : `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } })}\n`;
}
