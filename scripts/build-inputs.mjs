// What dist/ is built from, as one digest: every file of src/ and hooks/, the build scripts, the
// manifest, the lock file and tsconfig.json. scripts/build.mjs writes it into
// dist/build-inputs.sha256 and, with --if-changed, builds only when it differs (the tests' global
// setup after CI's build, prepack after prepare's: the same bundle is not built twice).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/build-inputs.mjs', 'scripts/micromark-linear.mjs', 'scripts/gray-matter-linear.mjs', 'scripts/secretlint-linear.mjs', 'scripts/node-diff3-linear.mjs', 'scripts/source-patch.mjs'];
const FOLDERS = ['src', 'hooks'];

function filesUnder(root, rel) {
  return readdirSync(join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const p = `${rel}/${e.name}`;
    return e.isDirectory() ? filesUnder(root, p) : e.isFile() ? [p] : [];
  });
}

/** The digest of the build's inputs in `root` (hex sha256 over each file's path and bytes). */
export function buildInputsDigest(root) {
  const hash = createHash('sha256');
  for (const rel of [...FILES, ...FOLDERS.flatMap((f) => filesUnder(root, f))].sort()) {
    const bytes = readFileSync(join(root, rel));
    hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

export const DIGEST_FILE = 'build-inputs.sha256';
