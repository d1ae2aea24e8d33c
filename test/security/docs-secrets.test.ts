// The project's own files hold nothing that reads as a live credential: a secret scanner (GitHub's
// push protection, secretlint, memlint itself) must not flag the README, docs/, the examples, the
// repository's memory or the sources (a rule's docs among them). Rule examples show a token as a
// stand-in (`ghp_<36 letters and digits>`), written out only by the example run. Fixtures and
// tests under test/ hold secrets on purpose.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/content/secrets.js';
import { lintSource, recommendedPreset } from '../../src/content/secretlint-lib.js';
import { ROOT, git } from '../helpers/repo.js';
import { standIn } from '../lint/rule-examples.js';

/** What secretlint's recommended preset flags in the text, as it stands (no placeholder filter). */
async function secretlintFindings(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { filePath: '/memlint/page.md', content: text, ext: '.md', contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset as never }] }, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('no secret-looking string in the docs and sources', () => {
  const pages = git(ROOT, 'ls-files').split('\n').filter((p) => p !== '' && !p.startsWith('test/') && /\.(?:md|ts|mjs|cjs|js|json|ya?ml|sh)$|^hooks\//.test(p));

  it('covers the README, docs/, the memory in the repository and the sources', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/rules-content.md', 'examples/memory/MEMORY.md', '.claude/memory/MEMORY.md', 'src/lint/rules/no-secrets.ts', 'package-lock.json']));
  });

  it("neither memlint's no-secrets nor secretlint's recommended preset flags a file outside test/", async () => {
    const found: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const f of await findSecrets(text)) found.push(`${page}: ${f.kind} at offset ${f.start}`);
      for (const f of await secretlintFindings(text)) found.push(`${page}: ${f}`);
    }
    expect(found).toEqual([]);
  });

  it('the scan would see a token written out in full (the stand-in the rule examples use, filled)', async () => {
    const token = `ghp_${standIn(36)}`;
    expect((await findSecrets(`Use token ${token} for the release job.\n`)).map((f) => f.kind)).toEqual(['github-pat']);
    expect(await secretlintFindings(`Use token ${token} for the release job.\n`)).toHaveLength(1);
    expect(await findSecrets('Use token ghp_<36 letters and digits> for the release job.\n')).toEqual([]);
  });
});
