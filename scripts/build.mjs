// One esbuild bundle: dist/cli.js plus lazy chunks, so a command loads only what it uses.
import { build } from 'esbuild';
import { rmSync, chmodSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
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
chmodSync('dist/cli.js', 0o755);
