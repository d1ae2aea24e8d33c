// The npm package and a contributor's clone of this repository, as npm leaves them:
// - npm ci in a fresh clone runs prepare before any dist/ exists: prepare builds, then sets up the
//   merge driver, so doctor passes;
// - npm pack ships dist, README, docs and LICENSE, and no install script of its own (the dev
//   prepare is stripped from the packed package.json, and the working package.json is given back);
// - the tarball installed into an empty project prints no warning, and its memlint runs;
// - npm ci on Node 20 finds no package that needs a newer Node (EBADENGINE).
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, initRepo, tempDir } from '../helpers/repo.js';
import { contributorClone, sh } from './helpers.js';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { visit } from 'unist-util-visit';

/** Relative links (and images, definitions) of the Markdown under dir that lead to no file there: "file -> url". */
function deadLinks(dir: string): string[] {
  const out: string[] = [];
  const md = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.md'));
  for (const f of md) {
    const tree = unified().use(remarkParse).parse(readFileSync(join(dir, f), 'utf8'));
    visit(tree, (n) => {
      if (n.type !== 'link' && n.type !== 'image' && n.type !== 'definition') return;
      const url = (n as { url: string }).url;
      if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) return;
      const path = decodeURIComponent(url.split('#')[0]!);
      if (path !== '' && !existsSync(join(dir, dirname(f), path))) out.push(`${f} -> ${url}`);
    });
  }
  return out;
}

describe('the package and a contributor clone', () => {
  it('npm ci (prepare) builds and installs the driver; npm pack ships what a user needs and no install script', () => {
    const clone = contributorClone();
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const prepare = sh(clone, 'npm', ['run', 'prepare', '--silent']);
    expect(prepare.code, prepare.out).toBe(0);
    expect(existsSync(join(clone, 'dist', 'cli.js'))).toBe(true);
    // The run's shared HOME: not linked here (test/install/team-link.test.ts covers the link).
    const doctor = sh(clone, process.execPath, ['dist/cli.js', 'doctor'], { MEMLINT_LINK: '0' });
    expect(doctor.out).toMatch(/^ok    merge driver: /m);
    expect(doctor.code, doctor.out).toBe(0);

    const manifest = readFileSync(join(clone, 'package.json'), 'utf8');
    const out = tempDir();
    const pack = sh(clone, 'npm', ['pack', '--silent', '--pack-destination', out]);
    expect(pack.code, pack.out).toBe(0);
    expect(readFileSync(join(clone, 'package.json'), 'utf8')).toBe(manifest);
    const tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
    const listing = sh(out, 'tar', ['tzf', tarball]).out.split('\n');
    for (const f of ['package/dist/cli.js', 'package/dist/main.mjs', 'package/README.md', 'package/LICENSE', 'package/docs/install.md', 'package/package.json']) expect(listing).toContain(f);
    expect(listing.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/') || f.startsWith('package/scripts/'))).toBe(false);
    const packed = JSON.parse(sh(out, 'tar', ['xzf', tarball, '-O', 'package/package.json']).out) as { scripts?: Record<string, string>; dependencies?: unknown; devDependencies?: unknown; allowScripts?: unknown };
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(packed.scripts?.[s], s).toBeUndefined();
    expect(packed.dependencies).toBeUndefined();
    // The scripts (build, test, prepack…) and devDependencies are the source repository's: they name
    // files the package does not ship, and an installed package never runs or installs them.
    expect(packed.scripts).toBeUndefined();
    expect(packed.devDependencies).toBeUndefined();
    // allowScripts answers npm 11's question for this repository's own install (esbuild's
    // postinstall, which the build does not need); npm never reads it from a dependency.
    expect(packed.allowScripts).toBeUndefined();
    // Every relative link of the shipped Markdown leads to a file the package ships.
    const unpacked = tempDir();
    expect(sh(unpacked, 'tar', ['xzf', tarball]).code).toBe(0);
    expect(deadLinks(join(unpacked, 'package'))).toEqual([]);

    // An empty project installs the tarball (nothing to download: no runtime dependency).
    const app = initRepo();
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }, null, 2) + '\n');
    const install = sh(app, 'npm', ['install', '--offline', '-D', tarball]);
    expect(install.code, install.out).toBe(0);
    expect(install.out).not.toMatch(/warn/i);
    const help = sh(app, 'npx', ['--offline', 'memlint', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: memlint');
    const setup = sh(app, 'npx', ['--offline', 'memlint', 'install']);
    expect(setup.code, setup.out).toBe(0);
    const preCommit = readFileSync(join(app, '.husky', 'pre-commit'), 'utf8');
    expect(preCommit).toContain('memlint=node_modules/.bin/memlint');
    expect(preCommit).toContain('"$memlint" --staged');
    expect(sh(app, 'npx', ['--offline', 'memlint', 'doctor'], { MEMLINT_LINK: '0' }).code).toBe(0);
  });

  it('npm ci on this Node finds no package that needs a newer one', () => {
    const dir = tempDir();
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(dir, f));
    const r = sh(dir, 'npm', ['ci', '--dry-run', '--offline', '--ignore-scripts']);
    expect(r.out).not.toContain('EBADENGINE');
  });
});
