#!/usr/bin/env node
// The memlint Claude Code plugin's one entry point: `hook` (PostToolUse, SessionStart) and
// `lsp --stdio` (the language server). It runs the project's own memlint, the version the team
// pinned: node_modules/memlint from the project folder up to its repository's top, else a
// `memlint` on PATH outside the project (npm install --global). Without one it never breaks the
// session: a hook prints one line of advice on stderr and exits 0; the language server answers as
// a server with no features and shows that line once. A node_modules/memlint that git tracks was
// committed, not installed by npm: it is not run (a cloned repository must not run its own code
// through a plugin the user enabled for every project).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';

const ADVICE =
  'memlint (Claude Code plugin): memlint is not installed in this project (npm install --save-dev memlint) nor globally (npm install --global memlint): memory was not checked';

const [command, ...rest] = process.argv.slice(2);
const project = resolve(process.env.CLAUDE_PROJECT_DIR || process.cwd());

const isFile = (file) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

const inside = (dir, file) => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const real = (file) => {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
};

const git = (cwd, args) => spawnSync('git', ['-c', 'core.fsmonitor=false', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * Whether the memlint in `dir`/node_modules/memlint comes from the repository holding `dir` rather
 * than from npm: git tracks node_modules or node_modules/memlint (files, a symlink, a submodule's
 * files), or the file that would run, wherever links lead, is one git tracks (a committed folder
 * that an untracked or a committed node_modules link points into). Outside a repository: no.
 */
function fromRepository(dir, pkgDir, cli) {
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return false;
  const root = real(top.stdout.replace(/\r?\n$/, ''));
  const here = real(dir);
  if (!(here === root || inside(root, here))) return false;
  const slash = (p) => p.split('\\').join('/');
  const modules = slash(relative(root, join(here, 'node_modules')));
  const pkg = `${modules}/${basename(pkgDir)}`;
  const ran = real(cli);
  const ranRel = inside(root, ran) ? slash(relative(root, ran)) : null;
  const listed = git(root, ['ls-files', '-z', '--recurse-submodules', '--', modules, ...(ranRel ? [ranRel] : [])]);
  // git failing here is a repository it cannot read: nothing is run from it.
  if (listed.status !== 0) return true;
  return listed.stdout.split('\0').some((p) => p === modules || p === pkg || p.startsWith(`${pkg}/`) || p === ranRel);
}

/** How to start memlint: { argv } to run, { refused } with the line that says why not, or null. */
function findMemlint() {
  for (let dir = project; ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', 'memlint');
    let bin;
    try {
      const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.memlint;
    } catch {
      bin = undefined;
    }
    const cli = typeof bin === 'string' ? resolve(pkgDir, bin) : '';
    if (cli && inside(pkgDir, cli) && isFile(cli)) {
      if (fromRepository(dir, pkgDir, cli)) {
        return { refused: `memlint (Claude Code plugin): ${pkgDir} is committed to the repository, not installed by npm: not run, memory was not checked` };
      }
      return { argv: [process.execPath, cli] };
    }
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
  }
  const name = process.platform === 'win32' ? 'memlint.cmd' : 'memlint';
  for (const entry of (process.env.PATH || '').split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const file = join(entry, name);
    if (!isFile(file) || inside(project, file) || inside(project, real(file))) continue;
    return { argv: [file], shell: process.platform === 'win32' };
  }
  return null;
}

/** A language server with no features: answers initialize and shutdown, shows `line` once. */
function adviceServer(line) {
  process.stderr.write(`${line}\n`);
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
    process.stdout.write(body);
  };
  const handle = (msg) => {
    if (msg.method === 'initialize') send({ id: msg.id, result: { capabilities: {}, serverInfo: { name: 'memlint (not installed)' } } });
    else if (msg.method === 'initialized') send({ method: 'window/showMessage', params: { type: 2, message: line } });
    else if (msg.method === 'shutdown') send({ id: msg.id, result: null });
    else if (msg.method === 'exit') process.exit(0);
    else if (msg.id !== undefined && typeof msg.method === 'string') send({ id: msg.id, error: { code: -32601, message: line } });
  };
  let buffer = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffer.length > 65536) process.exit(1); // no header is that long: not a client
        return;
      }
      const length = /(?:^|\r\n)content-length:[ \t]*(\d+)/i.exec(buffer.subarray(0, end).toString('latin1'));
      if (!length) process.exit(1);
      const size = Number(length[1]);
      if (buffer.length < end + 4 + size) return;
      const body = buffer.subarray(end + 4, end + 4 + size).toString('utf8');
      buffer = buffer.subarray(end + 4 + size);
      try {
        handle(JSON.parse(body));
      } catch {
        // not JSON: nothing to answer
      }
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

if (command !== 'hook' && command !== 'lsp') {
  process.stderr.write('usage: memlint.mjs hook | lsp --stdio (the memlint Claude Code plugin runs it)\n');
  process.exit(2);
}
const found = findMemlint();
if (!found || found.refused) {
  if (command === 'lsp') adviceServer(found?.refused ?? ADVICE);
  else {
    process.stderr.write(`${found?.refused ?? ADVICE}\n`);
    process.exit(0);
  }
} else {
  const [file, ...args] = found.argv;
  const child = spawn(found.shell ? `"${file}"` : file, [...args, command, ...rest], { stdio: 'inherit', shell: found.shell ?? false });
  child.on('error', (err) => {
    const line = `memlint (Claude Code plugin): could not start ${file} (${err.code ?? err.message}): memory was not checked`;
    if (command === 'lsp') adviceServer(line);
    else {
      process.stderr.write(`${line}\n`);
      process.exit(0);
    }
  });
  // A hook never fails the session for memlint's own reasons (memlint said why on stderr).
  child.on('exit', (code, signal) => process.exit(command === 'hook' ? 0 : (code ?? (signal ? 1 : 0))));
}
