// The build: dist/main.mjs, one esbuild bundle of the program with lazy chunks (a command loads
// only what it uses), behind dist/cli.js, a small CommonJS launcher (Node starts a CommonJS main
// module sooner than an ES module) that also answers the hot paths git runs: the merge driver
// (dist/merge.cjs, one file) and --staged / --pre-push when no memory is involved.
// Built beside dist/ and swapped in, so a CLI already running from dist/ never sees it half-built.
// With --if-changed it builds only when dist/ was not built from these very sources
// (scripts/build-inputs.mjs): the tests' global setup and prepack ask that way.
import path from 'node:path';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { buildInputsDigest, DIGEST_FILE } from './build-inputs.mjs';

const unknown = process.argv.slice(2).find((a) => a !== '--if-changed');
if (unknown !== undefined) {
  process.stderr.write(`build.mjs: unknown argument "${unknown}" (it takes only --if-changed)\n`);
  process.exit(2);
}
const digest = buildInputsDigest('.');
if (process.argv.includes('--if-changed')) {
  let built = null;
  try {
    built = readFileSync(`dist/${DIGEST_FILE}`, 'utf8').trim();
  } catch {
    // no dist/ yet
  }
  if (built === digest) process.exit(0);
}
const { build } = await import('esbuild');
const { esbuildPlugin: micromarkLinear } = await import('./micromark-linear.mjs');
const { esbuildPlugin: grayMatterLinear } = await import('./gray-matter-linear.mjs');
const { esbuildPlugin: secretlintLinear } = await import('./secretlint-linear.mjs');
const { esbuildPlugin: diff3Linear } = await import('./node-diff3-linear.mjs');

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
// gray-matter parses YAML with js-yaml's safeLoad and nothing else of js-yaml's (memlint never
// writes frontmatter through gray-matter): its require('js-yaml') gets the loader alone, without the
// dumper, and the loader's full schema (read only by load(), never by safeLoad) is the safe one, so
// the !!js types (one of which probes for esprima) stay out.
const yamlLoaderOnly = {
  name: 'yaml-loader-only',
  setup(b) {
    // The build stops if gray-matter ever calls more of js-yaml than these two.
    const used = new Set([...readFileSync('node_modules/gray-matter/lib/engines.js', 'utf8').matchAll(/\byaml\.(\w+)/g)].map((m) => m[1]));
    if ([...used].some((n) => n !== 'safeLoad' && n !== 'safeDump')) throw new Error(`gray-matter calls js-yaml's ${[...used].join(', ')}: scripts/build.mjs gives it safeLoad and safeDump only`);
    b.onResolve({ filter: /^js-yaml$/ }, (args) => (/[\\/]gray-matter[\\/]/.test(args.importer) ? { path: 'js-yaml', namespace: 'yaml-loader-only' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'yaml-loader-only' }, () => ({
      contents: "const { safeLoad } = require('js-yaml/lib/js-yaml/loader.js'); module.exports = { safeLoad, safeDump() { throw new Error('memlint does not write YAML with js-yaml'); } };",
      loader: 'js',
      resolveDir: process.cwd(),
    }));
    b.onResolve({ filter: /^\.\/schema\/default_full$/ }, (args) => (/[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]loader\.js$/.test(args.importer) ? { path: path.join(path.dirname(args.importer), 'schema', 'default_safe.js') } : undefined));
  },
};
// Every bundle that holds micromark gets its text join in one pass (scripts/micromark-linear.mjs),
// every one that holds gray-matter its comment check (scripts/gray-matter-linear.mjs), and every
// one that holds secretlint its duplicate filter (scripts/secretlint-linear.mjs).
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning', plugins: [rawText, micromarkLinear, grayMatterLinear, secretlintLinear, diff3Linear, yamlLoaderOnly] };
// remark stays out of the lint and merge paths until a file needs it: it is its own file,
// dist/lint-lazy/markdown.cjs, required (synchronously, as the block model and ctx.tree() call
// it) on its first use only; most files take the block model's line path and never need it.
// `lazyRemark('cjs')` for the CommonJS bundles, `lazyRemark('esm')` for the ES module program.
const LAZY = { 'src/memdir/markdown.ts': 'markdown' };
// The stub's own folder is dist/ (merge.cjs, update-branch.cjs, main.mjs), dist/chunks/ or
// dist/lint-lazy/ (the lazy file itself).
const LAZY_DIR = String.raw`.replace(/[\\/](?:lint-lazy|chunks)$/, '')`;
// The stub exports each function markdown.ts exports, each loading the file on its first call.
const stub = (format) => {
  const names = [...readFileSync('src/memdir/markdown.ts', 'utf8').matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  const load = format === 'cjs'
    ? `require(require('node:path').join(__dirname${LAZY_DIR}, 'lint-lazy', 'markdown.cjs'))`
    : `createRequire(import.meta.url)(join(dirname(fileURLToPath(import.meta.url))${LAZY_DIR}, 'lint-lazy', 'markdown.cjs'))`;
  return [
    format === 'esm' ? "import { createRequire } from 'node:module'; import { dirname, join } from 'node:path'; import { fileURLToPath } from 'node:url';" : '',
    `let m; const lazy = () => (m ??= ${load});`,
    ...names.map((n) => `export function ${n}(...args) { return lazy().${n}(...args); }`),
  ].join('\n');
};
const lazyRemark = (format) => ({
  name: 'lint-lazy',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(?:[\w-]+\/)*markdown\.js$/ }, (args) => {
      const rel = path.relative(process.cwd(), path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))).split(path.sep).join('/');
      if (rel === 'src/memdir/markdown.ts' && args.kind === 'import-statement') return { path: 'markdown', namespace: 'lazy-remark' };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-remark' }, () => ({ contents: stub(format), loader: 'js', resolveDir: process.cwd() }));
  },
});
await build({
  ...common,
  plugins: [rawText, micromarkLinear, grayMatterLinear, secretlintLinear, diff3Linear, yamlLoaderOnly, lazyRemark('esm')],
  entryPoints: { main: 'src/cli.ts' },
  outdir: next,
  splitting: true,
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
});
// Bundled CommonJS dependencies call esbuild's __require shim, which needs a `require` in scope
// in an ES module. Only the chunk that defines the shim gets one. (js-yaml's probe for esprima,
// for !!js/function, is not in the bundle: yamlLoaderOnly above leaves the !!js types out.)
const REQUIRE = ["import { createRequire as __memlintCreateRequire } from 'node:module';", 'const require = __memlintCreateRequire(import.meta.url);', ''].join('\n');
// dist/remark.mjs: the rules as a unified preset (`memlint/remark`), one ES module file for
// remark-cli and .remarkrc files to import.
await build({ ...common, entryPoints: { remark: 'src/lint/remark.ts' }, outdir: next, format: 'esm', outExtension: { '.js': '.mjs' }, banner: { js: REQUIRE } });
await build({ ...common, entryPoints: { cli: 'src/launcher.ts' }, outdir: next, format: 'cjs', outExtension: { '.js': '.cjs' } });

// The merge driver: one file, with remark in dist/lint-lazy/markdown.cjs for an index that needs it.
// update-branch the same way: it starts the driver once per merged file, and starting the ES module
// program on top would cost it more than the merge (scripts/bench, row update-branch). Measured
// with it run through dist/main.mjs instead: 13 ms (7%) more CPU for the whole command, which the
// row's thin margin under its 2x target does not hold. It cannot share merge.cjs either: the
// driver's file holds only what the merge uses (test/merge/startup.test.ts).
await build({ ...common, entryPoints: { merge: 'src/commands/merge.ts', 'update-branch': 'src/commands/update-branch.ts' }, outdir: next, format: 'cjs', outExtension: { '.js': '.cjs' }, plugins: [micromarkLinear, grayMatterLinear, secretlintLinear, diff3Linear, yamlLoaderOnly, lazyRemark('cjs')] });
await build({
  ...common,
  format: 'cjs',
  entryPoints: Object.fromEntries(Object.entries(LAZY).map(([src, name]) => [`lint-lazy/${name}`, src])),
  outdir: next,
  outExtension: { '.js': '.cjs' },
  plugins: [micromarkLinear, grayMatterLinear, secretlintLinear, diff3Linear, yamlLoaderOnly, lazyRemark('cjs')],
});
renameSync(`${next}/cli.cjs`, `${next}/cli.js`);
// .js files in dist/ are CommonJS (the launcher); the program is .mjs.
writeFileSync(`${next}/package.json`, '{ "type": "commonjs" }\n');
// What this dist/ was built from (scripts/build-inputs.mjs).
writeFileSync(`${next}/${DIGEST_FILE}`, `${digest}\n`);
for (const rel of ['main.mjs', ...readdirSync(`${next}/chunks`).map((f) => `chunks/${f}`)]) {
  const file = `${next}/${rel}`;
  const text = readFileSync(file, 'utf8');
  if (/\bvar __require = /.test(text)) writeFileSync(file, REQUIRE + text);
}
writeFileSync(`${next}/cli.js`, `#!/usr/bin/env node\n${readFileSync(`${next}/cli.js`, 'utf8')}`);
chmodSync(`${next}/cli.js`, 0o755);
if (existsSync('dist')) renameSync('dist', old);
renameSync(next, 'dist');
rmSync(old, { recursive: true, force: true });
