import type { Rule } from '../types.js';
import { allowKey, findSecrets, maskSecret, mayHoldSecret } from '../../content/secrets.js';
import { positionAt } from '../positions.js';

/**
 * no-secrets: credentials never belong in memory. Memory is committed to git and read by every
 * teammate's agent at the start of every session. Runs secretlint's recommended preset in-process
 * on the text being linted (the staged text with --staged), plus memlint's patterns for the 36
 * kinds Claude Code's team-memory scanner blocks, connection strings with a password (any
 * scheme, not localhost), plaintext passwords in prose and high-entropy values assigned to a
 * secret-looking name (`client_secret = "…"`). The value is never printed: messages show at most
 * its first four characters (nothing of a password) and its length. A value that is not a secret is allowed in config by rule and hash:
 * `"no-secrets": ["error", {"allow": ["github-pat:0123456789abcdef"]}]` (the message prints the key).
 *
 * Certainty: high for provider token formats and private keys; medium for passwords in prose and
 * generic assignments.
 */
export const noSecrets: Rule = {
  id: 'no-secrets',
  description: 'No credentials (API keys, tokens, private keys, passwords) in memory',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'high',
  docs: {
    ok: 'The staging database password is in 1Password under "ledger-staging".\n',
    notOk: 'Use token ghp_<36 letters and digits> for the release job.\n',
    notOkOutput: '6:11: GitHub personal access token (github-pat) ghp_… (40 chars): remove it from memory and rotate it; if it is not a secret, allow it with "github-pat:6504a46854cfb42b"',
  },
  options: ['allow'],
  async check(ctx) {
    const text = ctx.file.text;
    if (!mayHoldSecret(text)) return;
    const allow = new Set(Array.isArray(ctx.options.allow) ? ctx.options.allow.filter((a): a is string => typeof a === 'string') : []);
    for (const f of await findSecrets(text)) {
      const value = text.slice(f.start, f.end);
      const key = await allowKey(f.kind, value);
      if (allow.has(key)) continue;
      const at = positionAt(ctx, f.start);
      ctx.report({
        message: `${f.label} (${f.kind}) ${maskSecret(value, f.kind)}: remove it from memory and rotate it; if it is not a secret, allow it with "${key}"`,
        line: at.line,
        column: at.column,
      });
    }
  },
};
