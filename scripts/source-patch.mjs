// Some dependencies are loaded with one function of theirs replaced (scripts/*-linear.mjs): the
// same patch as an esbuild plugin, for the bundles (scripts/build.mjs), and as a vite plugin, for
// the tests (vitest.config.ts), applied to the files `file` matches.
import { readFileSync } from 'node:fs';

/** The two plugins that give `patch(source, path)` in place of each file `file` matches. */
export function sourcePatchPlugins(name, file, patch) {
  return {
    esbuildPlugin: {
      name,
      setup(b) {
        b.onLoad({ filter: file }, (args) => ({ contents: patch(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
      },
    },
    vitePlugin: {
      name,
      enforce: 'pre',
      transform(code, id) {
        const path = id.split('?')[0];
        return file.test(path) ? { code: patch(code, path), map: null } : null;
      },
    },
  };
}
