// Secret detection for memory text: secretlint's recommended preset run in-process on the text
// itself (never a temporary file), plus memlint's own patterns for the kinds Claude Code's team
// memory scanner blocks that the preset does not cover (its 36 gitleaks rule ids), connection
// strings with a password, and plaintext passwords written in prose.
//
// secretlint is loaded lazily and only for text that holds one of its signals. The text handed to
// it has secretlint's own suppression comments blanked out, so a memory cannot switch its scan off.
import { findPatternSecrets, isPlaceholder, LOCAL_HOST, mayHoldSecret, SHORT, tokenEnd, type KnownSecrets, type SecretFinding } from './secret-patterns.js';

export { findPatternSecrets, isPlaceholder, maskSecret, maskSecrets, maskSecretsDeep, mayHoldSecret, weak, type KnownSecrets, type SecretFinding } from './secret-patterns.js';

/** The signals of secretlint's recommended preset: only then is it loaded and run. */
const SECRETLINT_SIGNALS = /(?:AKIA|ASIA)[0-9A-Z]{16}|(?:aws|AWS)_?(?:secret|SECRET)|AIza[\w-]{30}|gh[pousr]_[A-Za-z0-9]{30}|github_pat_|xox[abpers]-\d|hooks\.slack\.com\/|npm_[A-Za-z0-9]{30}|sk-[A-Za-z0-9_-]{20}|PRIVATE KEY-----|SG\.[\w-]{20}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{20}|lin_api_|ops_ey|:\/\/[^\s:/@]+:[^\s@/]+@/;

type LintSource = typeof import('./secretlint-lib.js').lintSource;
let secretlintLoad: Promise<{ lintSource: LintSource; rule: unknown }> | undefined;

function loadSecretlint() {
  secretlintLoad ??= import('./secretlint-lib.js').then((lib) => ({ lintSource: lib.lintSource, rule: lib.recommendedPreset }));
  return secretlintLoad;
}

// secretlint rule ids -> memlint kinds, for the providers both know.
const SECRETLINT_KIND: Record<string, string> = {
  AWSAccessKeyID: 'aws-access-token',
  AWSSecretAccessKey: 'aws-secret-access-key',
  AWSAccountID: 'aws-account-id',
  GITHUB_TOKEN: 'github-pat',
  SLACK_TOKEN: 'slack-token',
  SLACK_INCOMING_WEBHOOK: 'slack-webhook',
  NPM_ACCESS_TOKEN: 'npm-access-token',
  ANTHROPIC_API_KEY: 'anthropic-api-key',
  OPENAI_API_KEY: 'openai-api-key',
  PostgreSQLConnection: 'connection-string-password',
  MySQLConnection: 'connection-string-password',
  MongoDBConnection: 'connection-string-password',
  BasicAuth: 'basic-auth',
};

/** secretlint's recommended preset over the text, in-process. */
export async function findSecretlintSecrets(text: string): Promise<SecretFinding[]> {
  const { lintSource, rule } = await loadSecretlint();
  // Blank secretlint's suppression comments (same length, so offsets hold): memory must not
  // silence its own scan. no-prompt-injection reports the directive itself.
  // secretlint drops a leading byte order mark and gives offsets in the text without it: the mark
  // is left out here and its length added back, so a BOM file's secrets stand where they are.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const content = text.slice(bom).replace(/secretlint-(?:disable|enable)(?:-line|-next-line)?/g, (s) => ' '.repeat(s.length));
  const result = await lintSource({
    source: { filePath: '/memlint/memory.md', content, ext: '.md', contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: rule as never }] }, maskSecrets: true, noPhysicFilePath: true },
  });
  const out: SecretFinding[] = [];
  for (const m of result.messages) {
    const start = m.range[0] + bom;
    // secretlint's patterns have a fixed length and no end boundary: the token may go on.
    const end = tokenEnd(text, m.range[1] + bom);
    const value = text.slice(start, end);
    if (isPlaceholder(value) || /(?:[:/@]|^)(?:<[^>]*>|\$\{[^}]*\}|\*{3,}|x{3,})(?=[@/:]|$)/i.test(value)) continue;
    // `https://USER:TOKEN@host`: a password written as a capitalised word is the name of a slot.
    if (/\/\/[^\s:/@]+:[A-Z]{2,}(?:_[A-Z]+)*@/u.test(value)) continue;
    if (LOCAL_HOST.test(value)) continue;
    const kind = SECRETLINT_KIND[m.messageId] ?? m.messageId.toLowerCase().replace(/_/g, '-');
    const label = m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '') + ' secret';
    out.push({ kind, label, start, end });
  }
  return out;
}

// The same text is scanned by no-secrets and again by the output masker: the second time is free.
const found = new Map<string, Promise<SecretFinding[]>>();

/** All secrets in the text, the overlapping ones merged (memlint's patterns win: their kinds are Claude Code's). */
export function findSecrets(text: string): Promise<SecretFinding[]> {
  if (!mayHoldSecret(text)) return Promise.resolve([]);
  let p = found.get(text);
  if (!p) {
    if (found.size >= 256) found.clear();
    found.set(text, (p = scanSecrets(text)));
  }
  return p;
}

async function scanSecrets(text: string): Promise<SecretFinding[]> {
  const own = findPatternSecrets(text);
  const lint = SECRETLINT_SIGNALS.test(text) ? await findSecretlintSecrets(text) : [];
  return mergedFindings(own, lint);
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/**
 * memlint's findings, then each of secretlint's (in its order) that overlaps none of them nor one
 * taken before it; then, by position (the longer first at one start), each that overlaps none
 * kept before it. Asked by binary search, not of every finding kept: a topic holds thousands.
 */
export function mergedFindings(own: readonly SecretFinding[], lint: readonly SecretFinding[]): SecretFinding[] {
  const all = [...own];
  if (lint.length > 0) {
    // memlint's findings by start, with the largest end among each one and those before it.
    const byStart = [...own].sort((a, b) => a.start - b.start);
    const maxEnd: number[] = [];
    for (const o of byStart) maxEnd.push(Math.max(o.end, maxEnd[maxEnd.length - 1] ?? -Infinity));
    // secretlint's taken so far: none overlaps another, so by start their ends rise too.
    const taken: SecretFinding[] = [];
    for (const f of lint) {
      const k = lastBefore(byStart, f.end);
      // (Each of those starts before f ends: one overlaps f when it ends after f starts.)
      if (k >= 0 && maxEnd[k]! > f.start) continue;
      const t = lastBefore(taken, f.end);
      if (t >= 0 && overlap(f, taken[t]!)) continue;
      taken.splice(t + 1, 0, f);
      all.push(f);
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFinding[] = [];
  // Kept ones start at or before the next one: it overlaps one only if it starts before one's end.
  let reach = -Infinity;
  for (const f of all) {
    if (f.start === f.end ? out.some((o) => overlap(f, o)) : f.start < reach) continue;
    out.push(f);
    if (f.end > f.start) reach = Math.max(reach, f.end);
  }
  return out;
}

/** The last index of `sorted` (by start) whose start is before `end`, or -1. */
function lastBefore(sorted: readonly { start: number }[], end: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start < end) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The allow-list key of a secret: "<kind>:<first 16 hex of sha256(value)>". node:crypto is loaded
 * only here, once a secret is found: on Node 20 it costs every lint ~2 ms to load.
 */
export async function allowKey(kind: string, value: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `${kind}:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}

/** Every secret no-secrets finds in these texts (the files an output speaks of), allowed or not. */
export async function secretsOf(texts: Iterable<string | null | undefined>): Promise<KnownSecrets> {
  const known = new Map<string, string>();
  for (const text of texts) {
    if (!text) continue;
    for (const f of await findSecrets(text)) {
      const value = text.slice(f.start, f.end);
      known.set(value, f.kind);
      // A value over several lines (a private key) is also masked line by line, as a diff shows it.
      if (/[\r\n]/.test(value)) for (const line of value.split(/\r?\n|\r/)) if (line.trim().length >= SHORT && !line.startsWith('-----')) known.set(line.trim(), f.kind);
    }
  }
  return known;
}

/**
 * The secrets no-secrets reports in these texts (value -> kind): every one it finds but those its
 * allow-list names by key. What consolidation never moves or copies out of the file holding it.
 */
export async function reportedSecrets(texts: Iterable<string>, allow: ReadonlySet<string>): Promise<KnownSecrets> {
  const out = new Map<string, string>();
  for (const text of texts) {
    if (!mayHoldSecret(text)) continue;
    for (const f of await findSecrets(text)) {
      const value = text.slice(f.start, f.end);
      if (allow.has(await allowKey(f.kind, value))) continue;
      out.set(value, f.kind);
      // A value over several lines (a private key): a log entry joins its lines, so each is looked for.
      if (/[\r\n]/.test(value)) for (const line of value.split(/\r?\n|\r/)) if (line.trim().length >= SHORT && !line.startsWith('-----')) out.set(line.trim(), f.kind);
    }
  }
  return out;
}
