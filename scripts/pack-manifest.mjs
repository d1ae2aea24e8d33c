// npm pack / npm publish: the package.json that ships has no "scripts", no "devDependencies" and
// no "allowScripts" (npm reads that one from the project being installed, never from a dependency).
// Its "prepare" sets up a contributor's clone (husky, a build, the merge driver); in the package npm
// would list it as an install script of memlint's own. The other scripts (build, test, prepack…)
// run files the package does not ship, and devDependencies are the source repository's: an
// installed package never installs them. prepack strips both (keeping the file's text aside),
// postpack puts the file back byte for byte. npm runs postpack from the manifest it read before
// prepack, so stripping the scripts does not stop the restore. A pack interrupted in between is
// repaired by the next strip.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const FILE = 'package.json';
const KEPT = 'package.json.before-pack';

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, FILE);
}

const command = process.argv[2];
if (command === 'strip') {
  restore();
  const text = readFileSync(FILE, 'utf8');
  const json = JSON.parse(text);
  if ('scripts' in json || 'devDependencies' in json || 'allowScripts' in json) {
    writeFileSync(KEPT, text);
    delete json.scripts;
    delete json.devDependencies;
    delete json.allowScripts;
    writeFileSync(FILE, `${JSON.stringify(json, null, 2)}\n`);
  }
} else if (command === 'restore') {
  restore();
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
