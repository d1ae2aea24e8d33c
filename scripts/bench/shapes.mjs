// The 1 MB topics of docs/BENCHMARKS.md ("shapes that went to remark or to a quadratic step"):
// one pattern repeated to a size, in a memory folder committed as a repository of its own.
//   node scripts/bench/shapes.mjs <shape> <dir> [bytes] [--crlf]
//   node scripts/bench/shapes.mjs --list
// Then, in <dir>: /usr/bin/time -f '%U %S' memlint lint > /dev/null (CPU = user + sys).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FM = '---\nname: Log\ndescription: the log\ntype: project\n---\n\n';
// Each: the text of one repetition, numbered i.
const SHAPES = {
  definitions: (i) => `[r${i}]: http://x/${i} "t"\n[r${i}] yesterday\n\n`,
  'reference-items': (i) => `${i === 0 ? '[t]: http://x/t\n\n' : ''}- [Item ${i}][t] shipped yesterday\n- [t] again\n- [T][] collapsed\n`,
  'bracket-log': (i) => `[10:${i % 60}]: deployed the fix ${i} yesterday\n\n`,
  'bracket-log-paragraph': (i) => `[10:${i % 60}]: deployed the fix ${i} yesterday\n`,
  'definition-two-lines': (i) => `${i === 0 ? '[t]:\n  http://x/t\n\n' : ''}- [Item ${i}][t] shipped yesterday\n`,
  'definition-quoted': (i) => `${i === 0 ? '> [t]: http://x/t\n\n' : ''}- [Item ${i}][t] shipped yesterday\n`,
  'definitions-after-items': (i) => `- [Item ${i}][r${i}] shipped yesterday\n- [r${i}] again\n\n[r${i}]: http://x/${i}\n\n`,
  setext: (i) => `Title ${i} yesterday\n===\n\n`,
  'indented-code': (i) => `    code ${i}\n    more\n\npara yesterday\n\n`,
  tokens: (i) => `token ghp_${(i * 7919).toString(36).padStart(36, 'a')} and AKIA${String(i).padStart(16, '7')} key=sk-${'x'.repeat(20)}${i}\n`,
  'dense-line': () => `${'yesterday word '.repeat(2000)}\n\n`,
  alternating: (i) => `Para ${i} deployed yesterday.\n\n\`\`\`sh\nmake ${i}\n\`\`\`\n\n> quote ${i} yesterday\n\n- item ${i}\n- item two\n\n## H ${i}\n\n`,
  'tab-quotes': (i) => `-\t> a ${i} yesterday\n\t> > b\n\t> - c\n1.\t> d\n\n`,
  'empty-quote': (i) => `- >\n  text ${i} yesterday\n- > more\n\n`,
  'code-link-items': (i) => `${i === 0 ? '[t]: http://x/t\n\n' : ''}- [a \`x\` ${i}][t] y yesterday\n`,
  'code-link-inline': (i) => `- [a \`x\` ${i}](x.md) y yesterday\n`,
  'heading-closing': (i) => `## h ${i} ##\ntext yesterday\n`,
  'autolink-items': (i) => `- <http://x/${i}> y yesterday\n`,
  'inline-html-items': (i) => `- <kbd>Ctrl</kbd> ${i} y yesterday\n`,
  'escaped-link': (i) => `- [a \\] ${i}](x.md) y yesterday\n`,
  'escaped-ref': (i) => `${i === 0 ? '[t]: http://x/t\n\n' : ''}- [a \\] ${i}][t] y yesterday\n`,
  'link-title': (i) => `- [a ${i}](x.md "T") y yesterday\n`,
  'angle-dest': (i) => `- [a ${i}](<x y.md>) y yesterday\n`,
  'angle-definitions': (i) => `[r${i}]: <http://x/${i}>\n- [r${i}] yesterday\n\n`,
  'comment-items': (i) => `- <!-- c ${i} --> y yesterday\n`,
  'bracket-link-text': (i) => `- [a [b] ${i}](x.md) y yesterday\n`,
  'html-link-text': (i) => `- [a <b>x</b> ${i}](x.md) y yesterday\n`,
  'quote-staircase': (i) => `${'>'.repeat((i % 60) + 1)} q ${i} yesterday\n`,
  'empty-items': (i) => `-\n  item ${i} shipped yesterday\n-\n  next\n  more\n`,
  'deep-quotes': (i) => Array.from({ length: 25 }, (_, d) => `${'>'.repeat(d + 1)} l${i}\n${'>'.repeat(d + 1)}\n`).join('') + '\n',
  'five-spaces': (i) => `-     a ${i}\n      > b\n      - c\n\n`,
  'tab-items': (i) => `-\ta ${i} yesterday\n\t-\tb\n\n`,
  table: (i) => `| a | b ${i} |\n| --- | --- |\n| yesterday | x |\n\n`,
  html: (i) => `<div>\n<p>yesterday ${i}</p>\n</div>\n\n`,
  inline: (i) => `Text *a **b** _c_* [l](x.md) \`code\` yesterday ${i} ![i](y.png) <http://a.b> **x**\n`,
  'mixed-lists': (i) => `1. a ${i}\n   - b yesterday\n     > c\n     > d\n   2) e\n* f\n+ g\n\n`,
  entities: (i) => `&amp; &#123; &copy; &nbsp; yesterday ${i} \\* \\_\n`,
  lazy: (i) => `> a ${i} yesterday\nlazy line\n- b\n> c\n\n`,
  'code-spans': (i) => `Run \`npm ${i}\` yesterday and \`make\` tomorrow \`x\` \`y\`\n`,
  paths: (i) => `See src/file${i}.ts and lib/mod${i}.py and \`docs/x${i}.md\`\n`,
};

const args = process.argv.slice(2);
if (args[0] === '--list' || args.length < 2 || !(args[0] in SHAPES)) {
  process.stdout.write(`shapes: ${Object.keys(SHAPES).join(', ')}\nusage: node scripts/bench/shapes.mjs <shape> <dir> [bytes] [--crlf]\n`);
  process.exit(args[0] === '--list' ? 0 : 2);
}
const [shape, dir] = args;
const size = Number(args.find((a, k) => k >= 2 && /^\d+$/.test(a)) ?? 1_000_000);
const eol = args.includes('--crlf') ? '\r\n' : '\n';
let text = FM;
for (let i = 0; text.length < size; i++) text += SHAPES[shape](i);
// A folder this script made before (it holds the marker) is made anew; any other that is not
// empty is refused: the folder is a path typed by hand, and a slip must not delete a checkout.
const MARKER = '.memlint-bench-shape';
if (existsSync(dir) && readdirSync(dir).length > 0) {
  if (!existsSync(join(dir, MARKER))) {
    process.stderr.write(`shapes.mjs: ${dir} exists and was not made by this script: give a new or empty folder\n`);
    process.exit(2);
  }
  rmSync(dir, { recursive: true, force: true });
}
const memdir = join(dir, '.claude', 'memory');
mkdirSync(memdir, { recursive: true });
writeFileSync(join(dir, MARKER), '');
writeFileSync(join(memdir, 'MEMORY.md'), '# Memory\n\n- [Log](log.md) — the log\n');
writeFileSync(join(memdir, 'log.md'), eol === '\n' ? text : text.replace(/\n/g, eol));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
try {
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', '-c', 'commit.gpgsign=false', 'commit', '-qm', `${shape} topic`);
} catch (e) {
  process.stderr.write(`shapes.mjs: git could not commit the topic in ${dir}: ${e instanceof Error ? e.message.split('\n')[0] : e}\n`);
  process.exit(1);
}
process.stdout.write(`${dir}: ${shape}, ${text.length} characters${eol === '\n' ? '' : ', CRLF'}\n`);
