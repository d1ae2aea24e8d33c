// The build: dist/main.mjs, one esbuild bundle of the program with lazy chunks (a command loads
// only what it uses), behind dist/cli.js, a small CommonJS launcher (Node starts a CommonJS main
// module sooner than an ES module) that also answers the hot paths git runs: the merge driver
// (dist/merge.cjs, one file) and --staged / --pre-push when no memory is involved.
// Built beside dist/ and swapped in, so a CLI already running from dist/ never sees it half-built.
import { build } from 'esbuild';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };
await build({
  ...common,
  entryPoints: { main: 'src/cli.ts' },
  outdir: next,
  splitting: true,
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
});
await build({ ...common, entryPoints: { cli: 'src/launcher.ts', merge: 'src/commands/merge.ts' }, outdir: next, format: 'cjs', outExtension: { '.js': '.cjs' } });
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
if (existsSync('dist')) renameSync('dist', old);
renameSync(next, 'dist');
rmSync(old, { recursive: true, force: true });
