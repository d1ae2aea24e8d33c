// `memlint lsp --stdio`: a language server (LSP over stdio) with memlint's remark preset built in,
// on unified-language-server, the engine under remark-language-server. Any editor with an LSP
// client gets memlint's diagnostics on memory files as they are opened and edited, with no
// .remarkrc. A project's own remark (and .remarkrc, .remarkignore) is used when it has one.
import { parse } from './args.js';
import { UsageError } from '../errors.js';

const HELP = `Usage: memlint lsp --stdio

A language server over stdio (JSON-RPC, the Language Server Protocol) that publishes memlint's
diagnostics for memory files as an editor opens and edits them: the rules of "memlint/remark",
each reported as memlint:<rule-id> at the line and column "memlint" gives, on the text in the
editor (unsaved changes included), with the rest of the memory folder read from disk.
No config is needed; a .remarkrc in the project is read too (remark's other plugins apply), and
.remarkignore is honoured. Markdown files outside a memory folder get no memlint diagnostic.

Editors: run "npx memlint lsp --stdio" as the server for Markdown files (see the README for
VS Code, Neovim and Emacs).

Options:
  --stdio     talk LSP over stdin/stdout (the only transport)
  -h, --help  show this help

Exit codes: 0 when the client ends the session, 2 usage error.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { stdio: { type: 'boolean' } }, 'lsp', { positionals: false });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!values.stdio) throw new UsageError('the language server talks over stdio: run "memlint lsp --stdio" (see "memlint lsp --help")');
  const [{ createUnifiedLanguageServer }, { remark }, preset] = await Promise.all([import('unified-language-server'), import('remark'), import('../lint/remark.js')]);
  createUnifiedLanguageServer({
    // As remark-language-server is set up: the project's remark when installed, else the bundled one.
    processorName: 'remark',
    processorSpecifier: 'remark',
    defaultProcessor: remark,
    plugins: [preset.default],
    configurationSection: 'memlint',
    ignoreName: '.remarkignore',
    packageField: 'remarkConfig',
    pluginPrefix: 'remark',
    rcName: '.remarkrc',
  });
  // The connection ends the process on the client's `exit`; a closed stdin ends it too.
  return new Promise((resolve) => process.stdin.once('end', () => resolve(0)));
}
