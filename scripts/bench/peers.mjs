// The peers, invoked as their installed binaries through the same Node (no npx), with their
// configs written into each generated repository: markdownlint-cli2 with its default rules and a
// YAML front matter pattern, remark-cli with remark-frontmatter and the recommended lint preset.
// markdownlint-cli2 lives in the bench's own package (scripts/bench/package.json, its own lock):
// it needs Node 22 and the project supports Node 20. remark-cli is the project's devDependency.
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PEERS_DIR = fileURLToPath(new URL('.', import.meta.url));

export function peersInstalled() {
  return existsSync(join(PEERS_DIR, 'node_modules', '.bin', 'markdownlint-cli2'));
}

export function peerBins(root) {
  const bin = (dir, name) => realpathSync(join(dir, 'node_modules', '.bin', name));
  return { markdownlint: bin(PEERS_DIR, 'markdownlint-cli2'), remark: bin(root, 'remark') };
}

// markdownlint-cli2 compiles frontMatter with the "u" flag only (no "m"), so ^ is the start of
// the file and the pattern matches lines by their newlines.
const MARKDOWNLINT_CONFIG = `// Written by scripts/bench/peers.mjs: default rules, YAML front matter skipped.
{
  "config": { "default": true },
  "frontMatter": "^---[ \\\\t]*\\\\r?\\\\n[\\\\s\\\\S]*?\\\\r?\\\\n---[ \\\\t]*(\\\\r\\\\n|\\\\r|\\\\n|$)"
}
`;

const REMARK_CONFIG = `${JSON.stringify({ plugins: ['remark-frontmatter', 'remark-preset-lint-recommended'] }, null, 2)}\n`;

export function writePeerConfigs(repo) {
  writeFileSync(join(repo, '.markdownlint-cli2.jsonc'), MARKDOWNLINT_CONFIG);
  writeFileSync(join(repo, '.remarkrc.json'), REMARK_CONFIG);
}

export function markdownlintCommand(root, repo, memdirRel) {
  return { name: 'markdownlint-cli2', argv: [process.execPath, peerBins(root).markdownlint, `${memdirRel}/**/*.md`], cwd: repo, display: `markdownlint-cli2 "${memdirRel}/**/*.md"` };
}

export function remarkCommand(root, repo, memdirRel) {
  return { name: 'remark-cli', argv: [process.execPath, peerBins(root).remark, '--quiet', '--no-stdout', '--no-color', memdirRel], cwd: repo, display: `remark --quiet --no-stdout ${memdirRel}` };
}

/** How many files each peer looked at and what it found, from one captured run. */
export function peerCounts(name, out) {
  const text = out.replace(/\x1b\[[0-9;]*m/g, '');
  if (name === 'markdownlint-cli2') {
    const files = /Linting: (\d+) file/.exec(text);
    const issues = /Summary: (\d+)/.exec(text);
    return { files: files ? Number(files[1]) : null, findings: issues ? Number(issues[1]) : 0 };
  }
  if (name === 'remark-cli') {
    const warnings = /(\d+) warnings?/.exec(text);
    return { files: null, findings: warnings ? Number(warnings[1]) : 0 };
  }
  return { files: null, findings: null };
}
