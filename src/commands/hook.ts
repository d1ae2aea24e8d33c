// `memlint hook`: a Claude Code command hook. Reads the hook's JSON on stdin; after a Write or Edit
// of a memory file it lints that file and the index as they are on disk and, on errors, answers
// {"decision":"block","reason":...} so the agent sees what to fix beside the tool's result; at
// SessionStart it speaks only when the memory needs attention. It never breaks a session: any
// failure of memlint itself is one line on stderr and exit 0; only a usage error exits 2.
import { readFileSync } from 'node:fs';
import { isRegularFile } from '../fs/paths.js';
import path from 'node:path';
import { parse } from './args.js';
import { escapeControls } from '../printable.js';
import { debugWriter, type Io } from '../io.js';

const HELP = `Usage: memlint hook

A Claude Code hook command (memlint install --claude adds it to .claude/settings.json). Reads the
hook's JSON on stdin:
  PostToolUse (Write, Edit) on a memory file (a memory folder of this repository, or the folder
      "memlint where" resolves when it lies outside): lints that file and MEMORY.md as they are on
      disk, with the rules "memlint --staged" applies to a changed file. On errors it prints
      {"decision": "block", "reason": "..."}: the problems (file:line) and what to do, shown to
      the agent beside the tool's result; warnings are added only when there are errors.
  SessionStart: prints {"hookSpecificOutput": {"hookEventName": "SessionStart",
      "additionalContext": "..."}} only when the memory needs attention: the index over or within
      10% of Claude Code's limits (with the entries the agent cannot see), topic files missing
      from the index, other memory stores of this repository not in use ("memlint where --all").
  Anything else: no output.
The project is CLAUDE_PROJECT_DIR, else the payload's cwd. Output stays under 10,000 characters.

Options:
  -h, --help  show this help

Exit codes: 0 always (a problem of memlint itself is one line on stderr: a hook must never break
the agent's session), 2 usage error.
`;

interface HookPayload {
  hook_event_name?: unknown;
  cwd?: unknown;
  tool_name?: unknown;
  tool_input?: { file_path?: unknown } | null;
  source?: unknown;
}

async function postToolUse(payload: HookPayload, projectDir: string, env: NodeJS.ProcessEnv, debug?: (text: string) => void): Promise<string> {
  if (payload.tool_name !== 'Write' && payload.tool_name !== 'Edit') return '';
  const given = payload.tool_input?.file_path;
  if (typeof given !== 'string' || given === '') return '';
  const base = typeof payload.cwd === 'string' && payload.cwd !== '' ? payload.cwd : projectDir;
  const file = path.resolve(base, given);
  // An edit of anything but an existing Markdown file (a regular one: a FIFO would block the read)
  // is answered before the linter loads.
  if (!file.endsWith('.md') || !isRegularFile(file)) return '';
  return (await import('../claude/hook-answers.js')).editAnswer(file, projectDir, env, debug);
}

/** stdout for a payload (pure in what it prints: the caller writes it); `debug` gets a failing rule's stack. */
export async function answer(stdin: string, env: NodeJS.ProcessEnv, fallbackCwd: string, debug?: (text: string) => void): Promise<string> {
  let payload: HookPayload;
  try {
    payload = JSON.parse(stdin) as HookPayload;
  } catch (err) {
    // JSON.parse quotes the input it choked on: its control characters are not printed raw.
    throw new Error(`the hook input is not JSON (${escapeControls((err as Error).message.split('\n')[0]!)})`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new Error('the hook input is not a JSON object');
  const projectDir = env.CLAUDE_PROJECT_DIR || (typeof payload.cwd === 'string' && payload.cwd) || fallbackCwd;
  if (payload.hook_event_name === 'PostToolUse') return postToolUse(payload, projectDir, env, debug);
  if (payload.hook_event_name === 'SessionStart') return (await import('../claude/hook-answers.js')).sessionStartAnswer(projectDir, env, debug);
  return '';
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {}, 'hook', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  try {
    // Claude Code hands the payload on the process's stdin (fd 0); the tests give answer() its text.
    const out = await answer(readFileSync(0, 'utf8'), io.env, io.cwd, debugWriter(io));
    if (out) io.stdout.write(out);
  } catch (err) {
    if (io.env.MEMLINT_DEBUG === '1') io.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    io.stderr.write(`memlint hook: ${escapeControls(((err as Error)?.message ?? String(err)).split('\n')[0]!)} (the session goes on)\n`);
  }
  return 0;
}
