// dist/lint.cjs, the lint command as one CommonJS file, started from a V8 code cache.
//
// Compiling JavaScript is a large share of a short lint run (`memlint --staged` in a pre-commit
// hook): Node 20 has no compile cache for ES modules (module.enableCompileCache is Node 22), but
// a script compiled through node:vm accepts V8's cached data. The build runs the linter once on
// examples/memory and keeps the compiled code (functions it ran included) beside the bundle, named
// for the Node version and architecture that made it: V8 accepts it only from the same V8. Any
// other Node, or MEMLINT_NO_CODE_CACHE=1, runs the ES module program instead, as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fs/atomic.js';

export type LintModule = { run(argv: string[]): Promise<number>; runHook(argv: string[]): Promise<number> };

export function codeCachePath(distDir: string): string {
  return join(distDir, `lint-${process.version}-${process.arch}.v8cache`);
}

// Exactly the wrapper Node's CommonJS loader puts around a module: the cache is tied to this text.
export const wrapCommonJs = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/**
 * Load dist/lint.cjs with its code cache, or null when there is none for this Node (the caller
 * then loads the ES module program). With `writeCache` (the build), compile without one and
 * return a function that saves the cache once the caller has run its workload.
 */
export function loadCachedLint(distDir: string, opts: { writeCache?: boolean } = {}): { lint: LintModule; saveCache?: () => void } | null {
  const cacheFile = codeCachePath(distDir);
  let cachedData: Buffer | undefined;
  if (!opts.writeCache) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      return null;
    }
  }
  const file = join(distDir, 'lint.cjs');
  const { Script } = require('node:vm') as typeof import('node:vm'); // loaded only on this path
  const script = new Script(wrapCommonJs(readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  // Code inside node:vm has no import(): the bundle was built without it (its lazily loaded
  // libraries are required from dist/lint-lazy/). No config is code, so nothing else is imported.
  // js-yaml (under gray-matter) probes for esprima to support !!js/function, which memlint never
  // parses: refused here, without a search of node_modules folders.
  const requireForLint = Object.assign((id: string) => {
    if (id === 'esprima') throw new Error('esprima is not used by memlint');
    return require(id) as unknown;
  }, require);
  const module = { exports: {} as LintModule };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireForLint, module, file, distDir);
  if (!opts.writeCache) return { lint: module.exports };
  return { lint: module.exports, saveCache: () => writeFileAtomic(cacheFile, script.createCachedData()) };
}
