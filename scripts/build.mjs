// The build: dist/main.mjs, one esbuild bundle of the program with lazy chunks (a command loads
// only what it uses), behind dist/cli.js, a small CommonJS launcher (Node starts a CommonJS main
// module sooner than an ES module) that also answers the hot paths git runs: the merge driver
// (dist/merge.cjs, one file) and --staged / --pre-push when no memory is involved.
// Built beside dist/ and swapped in, so a CLI already running from dist/ never sees it half-built.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
// `import text from '../../hooks/pre-commit?raw'`: the file's text as a string (vitest reads the
// same suffix natively), so the hook scripts in hooks/ ship inside dist/.
const rawText = {
  name: 'raw-text',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)), namespace: 'raw-text' }));
    b.onLoad({ filter: /.*/, namespace: 'raw-text' }, (args) => ({ contents: readFileSync(args.path, 'utf8'), loader: 'text', watchFiles: [args.path] }));
  },
};
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning', plugins: [rawText] };
await build({
  ...common,
  entryPoints: { main: 'src/cli.ts' },
  outdir: next,
  splitting: true,
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
});
await build({ ...common, entryPoints: { cli: 'src/launcher.ts' }, outdir: next, format: 'cjs', outExtension: { '.js': '.cjs' } });

// dist/lint.cjs: the lint command as one CommonJS file, started from a V8 code cache by the
// launcher (src/code-cache.ts). Code run through node:vm has no import(), so import() becomes
// require(), and the large libraries a lint run rarely needs stay out of the file (less to read
// on every run): each is its own file in dist/lint-lazy/, required when first needed.
const LAZY = { 'src/lint/dates.ts': 'dates', 'src/memdir/markdown.ts': 'markdown', 'src/lint/secretlint-lib.ts': 'secretlint' };
const lazyOutside = {
  name: 'lint-lazy',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(?:[\w-]+\/)*(dates|markdown|secretlint-lib)\.js$/ }, (args) => {
      const rel = path.relative(process.cwd(), path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))).split(path.sep).join('/');
      if (!LAZY[rel]) return undefined;
      if (args.kind === 'dynamic-import') return { path: `./lint-lazy/${LAZY[rel]}.cjs`, external: true };
      // remark, imported statically by the block model, is required on its first use only: most
      // files take the block model's line path and never need it.
      if (rel === 'src/memdir/markdown.ts' && args.kind === 'import-statement') return { path: 'markdown', namespace: 'lazy-remark' };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-remark' }, () => ({
      // __dirname is dist/ in lint.cjs and merge.cjs, dist/lint-lazy/ in the lazy files.
      contents: "let m; export function parseMarkdown(text) { m ??= require(require('node:path').join(__dirname.replace(/[\\\\/]lint-lazy$/, ''), 'lint-lazy', 'markdown.cjs')); return m.parseMarkdown(text); }",
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};
// The merge driver: one file, with remark in dist/lint-lazy/markdown.cjs for an index that needs it.
// update-branch the same way: it starts the driver once per merged file, and starting the ES module
// program on top would cost it more than the merge (scripts/bench, row update-branch).
await build({ ...common, entryPoints: { merge: 'src/commands/merge.ts', 'update-branch': 'src/commands/update-branch.ts' }, outdir: next, format: 'cjs', outExtension: { '.js': '.cjs' }, plugins: [lazyOutside] });
const cjsWithoutImport = { ...common, format: 'cjs', supported: { 'dynamic-import': false } };
await build({ ...cjsWithoutImport, entryPoints: { lint: 'src/commands/lint.ts' }, outdir: next, outExtension: { '.js': '.cjs' }, plugins: [rawText, lazyOutside] });
await build({
  ...cjsWithoutImport,
  entryPoints: Object.fromEntries(Object.entries(LAZY).map(([src, name]) => [`lint-lazy/${name}`, src])),
  outdir: next,
  outExtension: { '.js': '.cjs' },
  plugins: [lazyOutside],
});
for (const f of ['lint.cjs', ...Object.values(LAZY).map((n) => `lint-lazy/${n}.cjs`)]) {
  if (/\bimport\(/.test(readFileSync(`${next}/${f}`, 'utf8'))) throw new Error(`dist/${f} calls import(), which code run through node:vm cannot`);
}
renameSync(`${next}/cli.cjs`, `${next}/cli.js`);
// .js files in dist/ are CommonJS (the launcher); the program is .mjs.
writeFileSync(`${next}/package.json`, '{ "type": "commonjs" }\n');
// Bundled CommonJS dependencies call esbuild's __require shim, which needs a `require` in scope
// in an ES module. Only the chunk that defines the shim gets one.
// js-yaml (under gray-matter) probes for esprima to support !!js/function, which memlint never
// parses: the probe is refused, saving a module load on every run.
const REQUIRE = [
  "import { createRequire as __memlintCreateRequire } from 'node:module';",
  'const __memlintRequire = __memlintCreateRequire(import.meta.url);',
  "const require = Object.assign((id) => { if (id === 'esprima') throw new Error('esprima is not used by memlint'); return __memlintRequire(id); }, __memlintRequire);",
  '',
].join('\n');
for (const rel of ['main.mjs', ...readdirSync(`${next}/chunks`).map((f) => `chunks/${f}`)]) {
  const file = `${next}/${rel}`;
  const text = readFileSync(file, 'utf8');
  if (/\bvar __require = /.test(text)) writeFileSync(file, REQUIRE + text);
}
writeFileSync(`${next}/cli.js`, `#!/usr/bin/env node\n${readFileSync(`${next}/cli.js`, 'utf8')}`);
chmodSync(`${next}/cli.js`, 0o755);
// The code cache for dist/lint.cjs: the launcher compiles it, lints the example memory (output
// discarded) and saves what V8 compiled, for this Node version only (src/code-cache.ts).
const cached = spawnSync(process.execPath, [`${next}/cli.js`, 'examples/memory'], {
  env: { ...process.env, MEMLINT_BUILD_CODE_CACHE: '1', MEMLINT_NO_CODE_CACHE: '', NO_COLOR: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
// Exit 1 (problems found) still leaves a good cache; only a failed run or a missing file is an error.
if ((cached.status !== 0 && cached.status !== 1) || !readdirSync(next).some((f) => f.endsWith('.v8cache'))) {
  throw new Error(`building the code cache failed (exit ${cached.status})`);
}
if (existsSync('dist')) renameSync('dist', old);
renameSync(next, 'dist');
rmSync(old, { recursive: true, force: true });
