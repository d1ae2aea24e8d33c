// One esbuild bundle: dist/cli.js plus lazy chunks, so a command loads only what it uses.
// Built beside dist/ and swapped in, so a CLI already running from dist/ never sees it half-built.
import { build } from 'esbuild';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';

const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: next,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __memlintCreateRequire } from 'node:module';\nconst require = __memlintCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(`${next}/cli.js`, 0o755);
if (existsSync('dist')) renameSync('dist', old);
renameSync(next, 'dist');
rmSync(old, { recursive: true, force: true });
