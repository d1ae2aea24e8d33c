// The repository as a Claude Code plugin marketplace (.claude-plugin/marketplace.json, plugin
// plugins/memlint): the real `claude plugin validate` of Claude Code 2.1.332 accepts both, and the
// plugin's entry point (plugins/memlint/bin/memlint.mjs) runs the project's own memlint for the
// hooks and the language server, or degrades to one line of advice without breaking anything.
// Claude Code (~400 MB with its native binary) is installed once into a cache folder outside the
// repository and reused, never as a devDependency.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, git, initRepo, ROOT, tempDir, writeFiles } from '../helpers/repo.js';
import { installPackage, packPackage } from '../merge/hosted.js';

const CLAUDE_CODE = '2.1.332';
const PLUGIN = join(ROOT, 'plugins/memlint');
const LAUNCHER = join(PLUGIN, 'bin/memlint.mjs');
const ADVICE = /^memlint \(Claude Code plugin\): memlint is not installed in this project \(npm install --save-dev memlint\).*memory was not checked\n$/;

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** Claude Code's native binary, from the cache folder (installed there first when missing). */
function claudeCode(): string {
  // The user's own cache folder: the run's HOME is an empty folder of its own (test/helpers/global-setup.ts).
  const cache = join(process.env.XDG_CACHE_HOME || join(userInfo().homedir, '.cache'), 'memlint-test', `claude-code-${CLAUDE_CODE}`);
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const platform = `${process.platform}-${process.arch}`;
  const find = () => [`claude-code-${platform}`, `claude-code-${platform}-musl`].map((p) => join(cache, 'node_modules/@anthropic-ai', p, exe)).find(isFile);
  if (!find()) {
    // Installed beside the cache folder and moved into place whole: a run stopped halfway leaves no cache that looks complete.
    const stage = `${cache}.partial-${process.pid}`;
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(stage, { recursive: true });
    execFileSync('npm', ['install', '--prefix', stage, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `@anthropic-ai/claude-code@${CLAUDE_CODE}`], { cwd: stage, stdio: 'pipe' });
    rmSync(cache, { recursive: true, force: true });
    renameSync(stage, cache);
  }
  return find()!;
}

interface Validation {
  success: boolean;
  manifest: { type: string; errors: unknown[]; warnings: unknown[] };
  provides: null | { hooks: Array<{ event: string; matcher: string; command: string }>; lspServers: Array<{ name: string; command: string; args: string[] }> };
}

function validate(claude: string, path: string): { code: number; report: Validation; out: string } {
  const home = tempDir('memlint-claude-home-');
  const r = spawnSync(claude, ['plugin', 'validate', '--strict', '--json', path], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, USERPROFILE: home, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
  });
  return { code: r.status ?? -1, report: JSON.parse(r.stdout) as Validation, out: r.stdout + r.stderr };
}

/** The launcher as Claude Code starts it: CLAUDE_PROJECT_DIR set, a PATH without a global memlint. */
function launch(project: string, args: string[], input: string) {
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: project,
    input,
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_PROJECT_DIR: project, CLAUDE_PLUGIN_ROOT: PLUGIN, PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'), MEMLINT_DEBUG: '' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const frame = (message: object) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
  return `Content-Length: ${body.length}\r\n\r\n${body.toString()}`;
};

/** Every message a language server wrote, in order. */
function frames(stdout: string): Array<{ id?: number; method?: string; params?: { type?: number; message?: string }; result?: { capabilities?: Record<string, unknown> } | null; error?: unknown }> {
  const out = [];
  let rest = Buffer.from(stdout);
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const size = Number(/Content-Length: (\d+)/i.exec(rest.subarray(0, end).toString())![1]);
    if (rest.length < end + 4 + size) return out;
    out.push(JSON.parse(rest.subarray(end + 4, end + 4 + size).toString()));
    rest = rest.subarray(end + 4 + size);
  }
}

type Message = ReturnType<typeof frames>[number];

/**
 * An editor's session with the launcher's language server: initialize (and wait for the answer),
 * initialized, open `file` (with `diagnostics`, wait for the server to publish them), shutdown (and
 * wait), exit. stdin stays open until then, as an editor keeps it.
 */
function lspSession(project: string, file: string, opts: { diagnostics?: boolean } = {}): Promise<{ code: number; messages: Message[]; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LAUNCHER, 'lsp', '--stdio'], {
      cwd: project,
      env: { ...process.env, CLAUDE_PROJECT_DIR: project, CLAUDE_PLUGIN_ROOT: PLUGIN, PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'), MEMLINT_DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    let step = 0;
    const advance = () => {
      const messages = frames(stdout);
      if (step === 0) {
        step = 1;
        child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(project).href, capabilities: {} } }));
      } else if (step === 1 && messages.some((m) => m.id === 1)) {
        step = 2;
        child.stdin.write(frame({ method: 'initialized', params: {} }));
        child.stdin.write(frame({ method: 'textDocument/didOpen', params: { textDocument: { uri: pathToFileURL(file).href, languageId: 'markdown', version: 1, text: readFileSync(file, 'utf8') } } }));
      }
      if (step === 2 && (!opts.diagnostics || messages.some((m) => m.method === 'textDocument/publishDiagnostics'))) {
        step = 3;
        child.stdin.write(frame({ id: 2, method: 'shutdown' }));
      } else if (step === 3 && messages.some((m) => m.id === 2)) {
        step = 4;
        child.stdin.end(frame({ method: 'exit' }));
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      advance();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined); // a server that exits early: its output says what happened
    child.on('close', (code) => resolve({ code: code ?? -1, messages: frames(stdout), stderr }));
    advance();
  });
}

const plugin = JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin/plugin.json'), 'utf8')) as {
  name: string;
  version: string;
  hooks: Record<string, Array<{ matcher: string; hooks: Array<{ type: string; command: string; timeout: number }> }>>;
  lspServers: Record<string, { command: string; args: string[]; extensionToLanguage: Record<string, string> }>;
};
const marketplace = JSON.parse(readFileSync(join(ROOT, '.claude-plugin/marketplace.json'), 'utf8')) as { name: string; plugins: Array<{ name: string; source: string }> };

describe('the Claude Code plugin', () => {
  it('declares memlint hook for PostToolUse Write|Edit and SessionStart, and memlint lsp --stdio for Markdown, as install --claude does', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(plugin.name).toBe('memlint');
    expect(plugin.version).toBe(pkg.version);
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: 'memlint', source: './plugins/memlint' })]);
    const command = 'node "${CLAUDE_PLUGIN_ROOT}/bin/memlint.mjs" hook';
    expect(plugin.hooks.PostToolUse).toEqual([{ matcher: 'Write|Edit', hooks: [{ type: 'command', command, timeout: 30 }] }]);
    expect(plugin.hooks.SessionStart).toEqual([{ matcher: 'startup|resume|clear|compact', hooks: [{ type: 'command', command, timeout: 30 }] }]);
    expect(plugin.lspServers.memlint).toMatchObject({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/bin/memlint.mjs', 'lsp', '--stdio'], extensionToLanguage: { '.md': 'markdown' } });
    const interop = readFileSync(join(ROOT, 'docs/interop.md'), 'utf8');
    for (const line of ['/plugin marketplace add', '/plugin install memlint@memlint', 'memlint install --claude']) expect(interop).toContain(line);
  });

  it(`passes claude plugin validate --strict of Claude Code ${CLAUDE_CODE}: the marketplace and the plugin`, () => {
    const claude = claudeCode();
    expect(execFileSync(claude, ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: tempDir('memlint-claude-home-') } })).toContain(CLAUDE_CODE);
    const market = validate(claude, ROOT);
    expect(market.code, market.out).toBe(0);
    expect(market.report).toMatchObject({ success: true, manifest: { type: 'marketplace', errors: [], warnings: [] } });
    const own = validate(claude, PLUGIN);
    expect(own.code, own.out).toBe(0);
    expect(own.report).toMatchObject({ success: true, manifest: { type: 'plugin', errors: [], warnings: [] } });
    expect(own.report.provides!.hooks.map((h) => `${h.event} ${h.matcher}`)).toEqual(['PostToolUse Write|Edit', 'SessionStart startup|resume|clear|compact']);
    expect(own.report.provides!.lspServers).toEqual([{ name: 'memlint', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/bin/memlint.mjs', 'lsp', '--stdio'] }]);
  }, 600_000);

  describe('its entry point', () => {
    const BAD = '---\nname: project_x\ntype: project\n---\n\nNo description.\n';
    let tarball: string;
    beforeAll(() => {
      tarball = packPackage();
    }, 120_000);

    it('without memlint in the project: each hook prints one line of advice on stderr and exits 0; the language server answers with no features and shows that line', async () => {
      const project = initRepo();
      commitFiles(project, { '.claude/memory/MEMORY.md': '# Memory\n', '.claude/memory/project_x.md': BAD });
      for (const payload of [{ hook_event_name: 'SessionStart', source: 'startup', cwd: project }, { hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(project, '.claude/memory/project_x.md') }, cwd: project }]) {
        const r = launch(project, ['hook'], JSON.stringify(payload));
        expect(r, payload.hook_event_name).toMatchObject({ code: 0, stdout: '' });
        expect(r.stderr).toMatch(ADVICE);
      }
      const lsp = await lspSession(project, join(project, '.claude/memory/project_x.md'));
      expect(lsp.code).toBe(0);
      expect(lsp.stderr).toMatch(ADVICE);
      const messages = lsp.messages;
      expect(messages.find((m) => m.id === 1)!.result).toEqual({ capabilities: {}, serverInfo: { name: 'memlint (not installed)' } });
      const shown = messages.filter((m) => m.method === 'window/showMessage');
      expect(shown).toHaveLength(1);
      expect(`${shown[0]!.params!.message!}\n`).toMatch(ADVICE);
      expect(messages.find((m) => m.id === 2)).toMatchObject({ result: null });
    });

    it("with memlint installed in node_modules: the hook blocks on the agent's bad memory write and the language server is memlint's", async () => {
      const project = initRepo();
      commitFiles(project, { '.gitignore': 'node_modules/\n', '.claude/memory/MEMORY.md': '# Memory\n\n- [Role](user_role.md) — the user\n', '.claude/memory/user_role.md': '---\nname: user_role\ndescription: The user leads payments\ntype: user\n---\n\nLeads payments.\n' });
      installPackage(project, tarball);
      writeFiles(project, { '.claude/memory/project_x.md': BAD });
      const r = launch(project, ['hook'], JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(project, '.claude/memory/project_x.md') }, cwd: project }));
      expect(r.code, r.stderr).toBe(0);
      const answer = JSON.parse(r.stdout) as { decision: string; reason: string };
      expect(answer.decision).toBe('block');
      expect(answer.reason).toContain('project_x.md');
      expect(answer.reason).toContain('frontmatter-required');

      // memlint's own server answers (its exit code after shutdown and exit is its own business, test/lsp/server.test.ts).
      const lsp = await lspSession(project, join(project, '.claude/memory/project_x.md'), { diagnostics: true });
      const messages = lsp.messages;
      const published = messages.find((m) => m.method === 'textDocument/publishDiagnostics')!.params as unknown as { uri: string; diagnostics: Array<{ code?: string }> };
      expect(published.uri).toBe(pathToFileURL(join(project, '.claude/memory/project_x.md')).href);
      expect(published.diagnostics.map((d) => d.code)).toContain('frontmatter-required');
      const init = messages.find((m) => m.id === 1)!.result!;
      expect(Object.keys(init.capabilities!)).toContain('textDocumentSync');
      expect(messages.some((m) => m.method === 'window/showMessage' && /not installed/.test(m.params?.message ?? ''))).toBe(false);
    });

    it('a node_modules/memlint that git tracks (committed, not installed) is never run', async () => {
      const project = initRepo();
      const marker = join(tempDir(), 'ran');
      const bin = `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
      commitFiles(project, {
        '.claude/memory/MEMORY.md': '# Memory\n',
        'node_modules/memlint/package.json': JSON.stringify({ name: 'memlint', version: '0.1.0', bin: { memlint: 'cli.js' } }),
        'node_modules/memlint/cli.js': bin,
      });
      chmodSync(join(project, 'node_modules/memlint/cli.js'), 0o755);
      const hook = launch(project, ['hook'], JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: project }));
      expect(hook).toMatchObject({ code: 0, stdout: '' });
      expect(hook.stderr).toBe(`memlint (Claude Code plugin): ${join(project, 'node_modules/memlint')} is committed to the repository, not installed by npm: not run, memory was not checked\n`);
      const lsp = await lspSession(project, join(project, '.claude/memory/MEMORY.md'));
      expect(lsp.code).toBe(0);
      expect(lsp.messages.find((m) => m.id === 1)!.result).toMatchObject({ capabilities: {} });
      expect(existsSync(marker)).toBe(false);
    });

    // A user trial (December 2026): `git ls-files node_modules/memlint` prints nothing when a
    // committed link or a submodule stands in the way, and the committed code ran.
    it.each(['a committed symlink node_modules', 'an untracked symlink into a committed folder', 'a submodule at node_modules'])('a memlint the repository holds is never run: %s', (how) => {
      const marker = join(tempDir(), 'ran');
      const pkg = { 'memlint/package.json': JSON.stringify({ name: 'memlint', version: '0.1.0', bin: { memlint: 'cli.js' } }), 'memlint/cli.js': `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n` };
      const prefixed = (dir: string) => Object.fromEntries(Object.entries(pkg).map(([k, v]) => [`${dir}/${k}`, v]));
      let project: string;
      if (how === 'a submodule at node_modules') {
        const vendor = initRepo();
        commitFiles(vendor, pkg);
        const origin = initRepo();
        commitFiles(origin, { '.claude/memory/MEMORY.md': '# Memory\n' });
        git(origin, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', vendor, 'node_modules');
        git(origin, 'commit', '-qm', 'vendor');
        project = tempDir();
        git(project, '-c', 'protocol.file.allow=always', 'clone', '-q', '--recurse-submodules', origin, '.');
      } else {
        project = initRepo();
        commitFiles(project, { '.claude/memory/MEMORY.md': '# Memory\n', ...prefixed('vendor') });
        symlinkSync('vendor', join(project, 'node_modules'));
        if (how === 'a committed symlink node_modules') commitFiles(project, {}, 'link');
      }
      expect(existsSync(join(project, 'node_modules/memlint/cli.js'))).toBe(true);
      const hook = launch(project, ['hook'], JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: project }));
      expect(hook).toMatchObject({ code: 0, stdout: '' });
      expect(hook.stderr).toContain('is committed to the repository, not installed by npm: not run, memory was not checked');
      expect(existsSync(marker)).toBe(false);
    });
  });
});
