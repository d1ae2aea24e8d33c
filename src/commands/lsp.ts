// `memlint lsp --stdio`: memlint's own language server (src/lsp/), LSP over stdin and stdout.
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { reportError } from '../report-error.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint lsp --stdio

A language server over stdio (JSON-RPC, the Language Server Protocol) for any editor with an LSP
client. For a memory file (in a memory folder of a workspace folder's repository, or in the
folder "memlint where" resolves for it, which may lie outside the workspace) it publishes
memlint's findings as the editor opens and edits it: the rules "memlint" runs, with memlint's
config (.memlintrc.json, .memlintrc.yaml or package.json "memlint": data, never run), on the
text in the editor, unsaved changes included, the rest of the memory folder read from disk.
Other Markdown gets nothing.

Code actions: each fixable finding's fix ("quickfix") and all of a file's fixes
("source.fixAll.memlint"), the very edits "memlint --fix" makes. The server writes no file: an
edit is the editor's to apply. It offers no formatting.

What it reads: the documents the editor sends, the memory folder each lies in, memlint's config,
git facts of the repository, and Claude Code's settings (to find "memlint where"'s folder). It
never loads a workspace's remark configuration (.remarkrc*, package.json "remarkConfig"), plugin
or node_modules, and runs no code from the repository. Nothing is read through a symlink that
leads out of the repository. A document over 4 MiB gets one diagnostic saying it was not linted.

Editors: see docs/editors.md (VS Code, Neovim, Emacs, Helix, Claude Code).

Options:
  --stdio     talk LSP over stdin/stdout (the only transport)
  -h, --help  show this help

Exit codes: 0 after the client's shutdown and exit, 1 when the client leaves without shutdown
(LSP's rule), 2 usage error, or a message the server cannot frame (no or bad Content-Length, a
header over 8 KiB): one line on stderr. MEMLINT_DEBUG=1 logs each lint and any stack on stderr.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { stdio: { type: 'boolean' } }, 'lsp', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (!values.stdio) throw new UsageError('the language server talks over stdio: run "memlint lsp --stdio" (see "memlint lsp --help")');
  // A server runs for hours on input it does not choose: a fault of memlint's own ends it with one
  // line, as every command fails, never with a stack trace the editor shows (unless MEMLINT_DEBUG=1).
  // A fault no caller awaits can only be caught, and the server ended, by the process itself; the
  // client talks to the process's stdin, which is why that stream is read here and not from io.
  const fault = (err: unknown) => process.exit(reportError(err, io));
  process.on('uncaughtException', fault);
  process.on('unhandledRejection', fault);
  const { serve } = await import('../lsp/server.js');
  return serve({
    input: process.stdin,
    write: (bytes) => io.stdout.write(bytes),
    log: (line) => io.stderr.write(`${line}\n`),
    env: io.env,
    cwd: io.cwd,
  });
}
