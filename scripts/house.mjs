// `node scripts/house.mjs [--json]`: the shape of src/ as its imports draw it, in facts anyone can
// recompute (madge's: modules, lines, arrows, cycles), read from esbuild's own module graph of the
// program's entry points (the CLI, its launcher, the remark preset, the merge driver's bundle).
// Arrows between folders show the layering: `merge -> lint` is one the house does not want.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const ENTRIES = ['src/cli.ts', 'src/launcher.ts', 'src/lint/remark.ts', 'src/commands/merge.ts', 'src/commands/update-branch.ts'];
const asJson = process.argv.includes('--json');

const { metafile } = await build({
  entryPoints: ENTRIES,
  bundle: true,
  write: false,
  metafile: true,
  platform: 'node',
  format: 'esm',
  outdir: 'house-out',
  packages: 'external',
  splitting: true,
  logLevel: 'silent',
  plugins: [{ name: 'raw', setup: (b) => b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: a.path, external: true })) }],
});

const modules = Object.keys(metafile.inputs).filter((f) => f.startsWith('src/')).sort();
const arrows = [];
for (const from of modules) {
  for (const imp of metafile.inputs[from].imports) if (imp.path.startsWith('src/') && imp.path !== from) arrows.push([from, imp.path]);
}
const folder = (f) => (f.split('/').length > 2 ? f.split('/')[1] : f.slice(4));
const lines = modules.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length - 1, 0);

// Cycles: strongly connected components of more than one module (Tarjan).
const next = new Map(modules.map((m) => [m, []]));
for (const [a, b] of arrows) next.get(a)?.push(b);
let index = 0;
const stack = [];
const seen = new Map();
const cycles = [];
function connect(v) {
  const node = { index, low: index, onStack: true };
  seen.set(v, node);
  index++;
  stack.push(v);
  for (const w of next.get(v) ?? []) {
    if (!seen.has(w)) {
      connect(w);
      node.low = Math.min(node.low, seen.get(w).low);
    } else if (seen.get(w).onStack) node.low = Math.min(node.low, seen.get(w).index);
  }
  if (node.low === node.index) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      seen.get(w).onStack = false;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  }
}
for (const m of modules) if (!seen.has(m)) connect(m);

const folderArrows = new Map();
for (const [a, b] of arrows) {
  const key = `${folder(a)} -> ${folder(b)}`;
  if (folder(a) !== folder(b)) folderArrows.set(key, (folderArrows.get(key) ?? 0) + 1);
}
const facts = {
  modules: modules.length,
  lines,
  arrows: arrows.length,
  cycles: cycles.length,
  folderArrows: Object.fromEntries([...folderArrows].sort()),
  mergeImportsLint: arrows.filter(([a, b]) => folder(a) === 'merge' && folder(b) === 'lint').map(([a, b]) => `${a} -> ${b}`),
};
const out = [];
if (asJson) out.push(JSON.stringify(facts, null, 2));
else {
  out.push(`modules ${facts.modules}, lines ${facts.lines}, import arrows ${facts.arrows}, cycles ${facts.cycles}`);
  for (const c of cycles) out.push(`  cycle: ${c.join(' ')}`);
  out.push('arrows between folders:');
  for (const [k, n] of Object.entries(facts.folderArrows)) out.push(`  ${k}: ${n}`);
  out.push(`merge -> lint: ${facts.mergeImportsLint.length}`);
  for (const a of facts.mergeImportsLint) out.push(`  ${a}`);
}
// One write: a reader that stops early (| head) closes the pipe after it.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});
process.stdout.write(`${out.join('\n')}\n`);
