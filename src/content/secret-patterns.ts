// Memlint's own secret patterns and the one masking function for everything memlint prints.
// Pure and synchronous, with no library behind it: the merge driver masks its conflict labels
// with it without loading anything (src/content/secrets.ts adds the library scan on top).

export interface SecretFinding {
  /** A short kind id (Claude Code's scanner ids where one exists, e.g. github-pat). */
  kind: string;
  /** What it is, for people. */
  label: string;
  /** UTF-16 offsets of the secret value in the text. */
  start: number;
  end: number;
}

interface Pattern {
  kind: string;
  label: string;
  re: RegExp;
  /** Capture group holding the secret value (0 = the whole match). */
  group?: number;
  /** A match that is not a secret after all. */
  skip?: (match: string) => boolean;
}

export const LOCAL_HOST = /@(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|host\.docker\.internal)\b/i;

// Token formats (gitleaks' and the providers' published shapes), written for memlint. GitHub's
// have no end boundary, as in secretlint's preset: a longer token is still one (findPatternSecrets
// takes it to its end), and the merge driver, which masks with these patterns alone, masks it too.
const PATTERNS: Pattern[] = [
  { kind: 'aws-access-token', label: 'AWS access key id', re: /\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b/g, group: 1 },
  { kind: 'gcp-api-key', label: 'Google Cloud API key', re: /\b(AIza[\w-]{35})(?![\w-])/g, group: 1 },
  { kind: 'azure-ad-client-secret', label: 'Azure AD client secret', re: /(?<![\w~.-])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![\w~.-])/g, group: 1 },
  { kind: 'digitalocean-pat', label: 'DigitalOcean personal access token', re: /\b(dop_v1_[a-f0-9]{64})\b/g, group: 1 },
  { kind: 'digitalocean-access-token', label: 'DigitalOcean OAuth token', re: /\b(do[or]_v1_[a-f0-9]{64})\b/g, group: 1 },
  { kind: 'anthropic-admin-api-key', label: 'Anthropic admin API key', re: /\b(sk-ant-admin01-[\w-]{93}AA)(?![\w-])/g, group: 1 },
  { kind: 'anthropic-api-key', label: 'Anthropic API key', re: /\b(sk-ant-api03-[\w-]{93}AA)(?![\w-])/g, group: 1 },
  { kind: 'openai-api-key', label: 'OpenAI API key', re: /\b(sk-(?:proj|svcacct|admin)-[\w-]{20,}|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?![\w-])/g, group: 1 },
  { kind: 'huggingface-access-token', label: 'Hugging Face access token', re: /\b(hf_[a-zA-Z]{34})\b/g, group: 1 },
  { kind: 'github-pat', label: 'GitHub personal access token', re: /\b(ghp_[0-9a-zA-Z]{36})/g, group: 1 },
  { kind: 'github-fine-grained-pat', label: 'GitHub fine-grained token', re: /\b(github_pat_\w{82})/g, group: 1 },
  { kind: 'github-app-token', label: 'GitHub app token', re: /\b((?:ghu|ghs)_[0-9a-zA-Z]{36})/g, group: 1 },
  { kind: 'github-oauth', label: 'GitHub OAuth token', re: /\b(gho_[0-9a-zA-Z]{36})/g, group: 1 },
  { kind: 'github-refresh-token', label: 'GitHub refresh token', re: /\b(ghr_[0-9a-zA-Z]{36,76})\b/g, group: 1 },
  { kind: 'gitlab-pat', label: 'GitLab personal access token', re: /\b(glpat-[\w-]{20,})(?![\w-])/g, group: 1 },
  { kind: 'gitlab-deploy-token', label: 'GitLab deploy token', re: /\b(gldt-[\w-]{20,})(?![\w-])/g, group: 1 },
  { kind: 'slack-bot-token', label: 'Slack bot token', re: /\b(xoxb-\d{10,13}-\d{10,13}[a-zA-Z0-9-]*)/g, group: 1 },
  { kind: 'slack-user-token', label: 'Slack user token', re: /\b(xox[pe](?:-\d{10,13}){3}-[a-zA-Z0-9-]{28,34})/g, group: 1 },
  { kind: 'slack-app-token', label: 'Slack app token', re: /\b(xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)/gi, group: 1 },
  { kind: 'slack-webhook', label: 'Slack incoming webhook URL', re: /(https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_+/-]{20,})/g, group: 1 },
  { kind: 'twilio-api-key', label: 'Twilio API key', re: /\b(SK[0-9a-fA-F]{32})\b/g, group: 1 },
  { kind: 'sendgrid-api-token', label: 'SendGrid API token', re: /\b(SG\.[\w-]{22}\.[\w-]{43})(?![\w-])/g, group: 1 },
  { kind: 'npm-access-token', label: 'npm access token', re: /\b(npm_[a-zA-Z0-9]{36})\b/g, group: 1 },
  { kind: 'pypi-upload-token', label: 'PyPI upload token', re: /\b(pypi-AgEIcHlwaS5vcmc[\w-]{50,})(?![\w-])/g, group: 1 },
  { kind: 'databricks-api-token', label: 'Databricks API token', re: /\b(dapi[a-f0-9]{32}(?:-\d)?)\b/g, group: 1 },
  { kind: 'hashicorp-tf-api-token', label: 'Terraform Cloud API token', re: /\b([a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70})(?![\w=-])/gi, group: 1 },
  { kind: 'pulumi-api-token', label: 'Pulumi API token', re: /\b(pul-[a-f0-9]{40})\b/g, group: 1 },
  { kind: 'postman-api-token', label: 'Postman API token', re: /\b(PMAK-[a-f0-9]{24}-[a-f0-9]{34})\b/gi, group: 1 },
  { kind: 'grafana-api-key', label: 'Grafana API key', re: /\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,2})/g, group: 1 },
  { kind: 'grafana-cloud-api-token', label: 'Grafana Cloud API token', re: /\b(glc_[A-Za-z0-9+/]{32,400}={0,2})/g, group: 1 },
  { kind: 'grafana-service-account-token', label: 'Grafana service account token', re: /\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})\b/g, group: 1 },
  { kind: 'sentry-user-token', label: 'Sentry user token', re: /\b(sntryu_[a-f0-9]{64})\b/g, group: 1 },
  { kind: 'sentry-org-token', label: 'Sentry organization token', re: /\b(sntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43})/g, group: 1 },
  { kind: 'stripe-access-token', label: 'Stripe secret key', re: /\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})\b/g, group: 1 },
  { kind: 'shopify-access-token', label: 'Shopify access token', re: /\b(shp(?:at|ca|pa)_[a-fA-F0-9]{32})\b/g, group: 1 },
  { kind: 'shopify-shared-secret', label: 'Shopify shared secret', re: /\b(shpss_[a-fA-F0-9]{32})\b/g, group: 1 },
  { kind: 'private-key', label: 'private key', re: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{20,}?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/g },
  {
    kind: 'connection-string-password',
    label: 'connection string with a password',
    re: /\b(?:jdbc:)?[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`<>]+:([^\s@/'"`]+)@[^\s'"`)]+/gi,
    group: 1,
    // A local development database's default password is not a shared secret.
    skip: (match) => LOCAL_HOST.test(match),
  },
  {
    kind: 'generic-secret',
    label: 'secret value',
    re: /(?:\b(?:client[_-]?secret|app[_-]?secret|api[_-]?key|apikey|api[_-]?secret|secret[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|bearer[_-]?token|private[_-]?token|signing[_-]?secret|webhook[_-]?secret)|AppSecret|AppKey|密钥|秘钥)\**\s*(?:=|:|：|是|为)\s*(?:\*+\s*)?["'`“]?((?=[A-Za-z0-9_\-+/=.]*\d)(?=[A-Za-z0-9_\-+/=.]*[A-Za-z])[A-Za-z0-9_\-+/=.]{16,})/gi,
    group: 1,
  },
  {
    kind: 'password-in-prose',
    label: 'password',
    re: /(?:\b(?:password|passwd|pwd|passphrase|pass)|密码|口令)(?:\s+(?:for|of|to|on)\s+(?:the\s+)?[\w.@-]+(?:\s+(?:user|account|login))?(?:\s+(?:on|at|in)\s+(?:the\s+)?[\w.@-]+(?:\s+[\w.@-]+)?)?)?\**\s*(?:is|was|=|:|：|是|为)\s*(?:\*+\s*)?(?:`([^`\s]{4,})`|"([^"\s]{4,})"|'([^'\s]{4,})'|“([^”\s]{4,})”)/gi,
  },
  {
    kind: 'password-in-prose',
    label: 'password',
    re: /(?:\b(?:password|passwd|pwd)|密码|口令)\**\s*(?:=|:|：|是|为)\s*(?=[^\s`'"]*\d)(?=[^\s`'"]*[A-Za-z])([^\s`'"，。,;]{6,})/gi,
    group: 1,
  },
  {
    // "log in as root with password `…`", "密码 `…`": the value right after the word, in code.
    kind: 'password-in-prose',
    label: 'password',
    re: /(?:\b(?:password|passwd|pwd)|密码|口令)[ \t]*`(?=[^`\s]*\d)(?=[^`\s]*[A-Za-z])([^`\s]{6,})`/gi,
    group: 1,
  },
];

// Values that only stand for a secret: placeholders, examples, redactions.
const PLACEHOLDER = /^(?:<[^>]*>|\$\{?[\w:-]+\}?|%[\w]+%?|\{\{[^}]*\}\}|\{[\w.:-]+\}|\*+|x{3,}|\.{3}|…|changeme|change_me|password\d*|passw0rd|secret|example|redacted|your[_-]?\w*|placeholder|dummy|test|none|null|empty|n\/a|\[redacted\]|<redacted>|pass|admin|user|root)$/i;

// The name of a value in capitals, as docs write where a secret goes: `https://USER:TOKEN@host`,
// `GH_TOKEN`, `API_KEY`, `USER:PASS` (an environment variable's or a template's name, not a value).
const NAME_IN_CAPITALS = /^[A-Z]+\d{0,2}(?:[_:][A-Z]+\d{0,2})+$/;
const NAMED_SLOT = /^(?:token|pat|key|api[_-]?key|access[_-]?token|username|user[_-]?name|pass(?:word)?|secret|credentials?)$/i;

// For a password given in words next to its value (`password: \`user\``), only a value shaped as
// a placeholder stands for one: the word itself may be the password, whatever it is.
const SHAPED_PLACEHOLDER = /^(?:<[^>]*>|\$\{?[\w:-]+\}?|%[\w]+%?|\{\{[^}]*\}\}|\{[\w.:-]+\}|\*+|x{3,}|\.{3}|…|\[redacted\])$/i;

// A kebab-case name of lower-case words: a CSS class, an element id, a route.
const KEBAB_NAME = /^[a-z]+(?:-[a-z]+)+$/;

// The script that sets or asks for a password (`.\\set-password.ps1`): where it comes from, not it.
const SCRIPT_PATH = /^(?:\.{1,2}[\\/]|[\\/])?(?:[\w.-]+[\\/])*[\w.-]+\.(?:ps1|sh|bat|cmd|py|js|ts)$/i;

/** A value that only stands for a password (`<password>`, `${DB_PASSWORD}`, `****`, `EXAMPLE`), not any word. */
export function isPasswordPlaceholder(value: string): boolean {
  return SHAPED_PLACEHOLDER.test(value) || SCRIPT_PATH.test(value) || NAME_IN_CAPITALS.test(value) || /^(?:PASSWORD|PASSWD|SECRET|TOKEN)$/.test(value) || /([xX*#.•])\1{7,}/.test(value) || /EXAMPLE|REDACTED|PLACEHOLDER|YOUR_|_HERE\b|^your[-_]|change[-_]?me|replace[-_]?me/i.test(value);
}

// A CSS selector that finds a form's password field ("Password: `input#password`" in a list of a
// form's locators): a form element with an id, class or attribute, an attribute selector naming a
// field, or an id or class of lower-case words that names a password field. A value with digits or
// capitals after `#` or `.` is left to be a password.
const FIELD_SELECTOR = [
  /^(?:input|textarea|select|button|form|label)(?:[#.][A-Za-z][\w-]*|\[[^\]\s]+\])+(?::[\w-]+(?:\([^)\s]*\))?)*$/,
  /^\[(?:name|type|id|data-[\w-]+|aria-label|placeholder|autocomplete)(?:[~|^$*]?=[^\]\s]+)?\]$/,
  /^[#.](?=[a-z_-]*(?:pass|pwd|pw))[a-z][a-z_-]*$/,
];

/** A value that is a CSS selector of a form field, not what is typed into it. */
export function isFormFieldSelector(value: string): boolean {
  return FIELD_SELECTOR.some((re) => re.test(value));
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || NAME_IN_CAPITALS.test(value) || NAMED_SLOT.test(value) || /([xX*0#.•])\1{7,}/.test(value) || /(?:^|[-_])your[-_]|[-_]here(?:[-_]|$)|change[-_]?me|replace[-_]?me/i.test(value) || /EXAMPLE|REDACTED|PLACEHOLDER|^x+$|\*{3,}|^<|>$|^\$\{|YOUR_|_HERE\b/i.test(value);
}

const COMPILED: Pattern[] = PATTERNS.map((p) => ({ ...p, re: new RegExp(p.re.source, p.re.flags + 'd') }));

/** Shannon entropy in bits per character: random keys are high, words and version strings low. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / value.length) * Math.log2(n / value.length);
  return h;
}

/** Cheap signals: no signal, no scan (and no library load). */
const SIGNALS = /secret|Secret|SECRET|api[_-]?key|API[_-]?KEY|apikey|AppKey|access[_-]?(?:key|token)|auth[_-]?token|bearer|密钥|秘钥|AKIA|ASIA|ABIA|ACCA|A3T|AIza|Q~|do[por]_v1_|sk-|hf_|gh[pousr]_|github_pat_|glpat-|gldt-|xox[abpers]-|xapp-|SK[0-9a-fA-F]{32}|SG\.|npm_|pypi-|dapi|atlasv1|pul-|PMAK-|eyJrIjoi|glc_|glsa_|sntry[us]_|[sr]k_(?:test|live|prod)_|shp(?:at|ca|pa|ss)_|PRIVATE KEY|:\/\/[^\s:/@]+:[^\s@/]+@|hooks\.slack\.com\/|lin_api_|ops_|密码|口令/;
const PASSWORD_WORD = /pass(?:word|wd|phrase)?\b|pwd/i;


// no-secrets and the masking of a run's output ask about the same file texts: the last few answers are kept.
const asked = new Map<string, boolean>();

export function mayHoldSecret(text: string): boolean {
  let answer = asked.get(text);
  if (answer === undefined) {
    answer = SIGNALS.test(text) || PASSWORD_WORD.test(text);
    if (asked.size >= 4) asked.delete(asked.keys().next().value!);
    asked.set(text, answer);
  }
  return answer;
}

/** Memlint's own patterns over the text. */
export function findPatternSecrets(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  for (const p of COMPILED) {
    p.re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = p.re.exec(text)); ) {
      // The secret is the first capture that matched, or the whole match.
      const gi = p.group ?? m.slice(1).findIndex((g) => g !== undefined) + 1;
      const [start, matchEnd] = gi > 0 && m.indices![gi] ? m.indices![gi]! : [m.index, m.index + m[0].length];
      // The whole token, where the match stops inside one (a fixed-length pattern over a longer token).
      const end = tokenEnd(text, matchEnd);
      // The rest of this token is this secret: the pattern goes on after it.
      if (end > p.re.lastIndex) p.re.lastIndex = end;
      const value = text.slice(start, end);
      if (p.kind === 'password-in-prose' ? isPasswordPlaceholder(value) || isFormFieldSelector(value) : p.kind !== 'private-key' && isPlaceholder(value)) continue;
      // "PASS: `lint`", "Pass: `e2e`": a review's verdict, not a password (the word alone, capitalised).
      if (p.kind === 'password-in-prose' && /^(?:PASS|Pass)\b(?!word|wd|phrase)/u.test(m[0])) continue;
      // "Backward pass: `wi-c`", "a second pass: `lint`": the bare word after another word is a step, not a password.
      if (p.kind === 'password-in-prose' && /^pass\b(?!word|wd|phrase)/iu.test(m[0]) && /[\p{L}\p{N}][ \t]+$/u.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
      // "reset-password: `btn-accent`": the word ends a kebab-case name (a route, a component) and
      // the value is one too (a class, an id), not a password given in prose. A dotted config key
      // (`db.password: letmein`) or a kebab key with any other value (`db-password: letmein`) still is.
      if (p.kind === 'password-in-prose' && /[\p{L}\p{N}]-$/u.test(text.slice(Math.max(0, m.index - 2), m.index)) && KEBAB_NAME.test(value)) continue;
      if (p.skip?.(m[0])) continue;
      if (p.kind === 'generic-secret' && entropy(value) < 3) continue;
      if (p.kind === 'private-key' && !/[A-Za-z0-9+/]{40,}/.test(value)) continue;
      out.push({ kind: p.kind, label: p.label, start, end });
    }
  }
  return out;
}

/**
 * Characters a token is made of: a match that stops inside a run of them (a pattern of fixed length,
 * secretlint's `ghp_` and 36 characters over a longer token) stops short of the token's end.
 * Dots and slashes are not among them: a token ends before a file extension, a sentence's full
 * stop or a URL's path.
 */
const TOKEN_CHAR = /[A-Za-z0-9_+=-]/;

/**
 * How far past its match a token is followed: no credential is longer, and a bound keeps a run of
 * glued look-alikes (`ghp_…-ghp_…-…` over 100 KB) linear to scan and to mask.
 */
const MAX_TOKEN_TAIL = 1024;

/**
 * Where the token holding a secret that ends at `end` really ends: past the run of token
 * characters that continues the match. Everything up to there is the secret, to be masked,
 * hashed and counted as one (contract §9: no part of a secret is printed).
 */
export function tokenEnd(text: string, end: number): number {
  if (end <= 0 || !TOKEN_CHAR.test(text[end - 1] ?? '')) return end;
  const limit = Math.min(text.length, end + MAX_TOKEN_TAIL);
  while (end < limit && TOKEN_CHAR.test(text[end]!)) end++;
  return end;
}

/** A secret shown without its value: its first 4 characters (at most a quarter of it), then its length. */
export function maskSecret(value: string, kind = ''): string {
  const shown = shownPrefix(value, kind);
  return `${shown === 0 ? '••••' : `${value.slice(0, shown).trim()}…`} (${value.length} chars)`;
}

/** How many of a secret's first characters its masked form shows. */
function shownPrefix(value: string, kind: string): number {
  // Passwords are short and guessable from a prefix: show none of them.
  if (/password|basic-auth/.test(kind)) return 0;
  const firstLine = value.split('\n')[0]!;
  if (/^-----BEGIN/.test(firstLine)) return firstLine.length;
  return Math.min(4, Math.floor(value.length / 4));
}

/** Secret values by value, with their kinds: what every output is masked against. */
export type KnownSecrets = ReadonlyMap<string, string>;

/** A value shorter than this is masked only where it stands as a whole word. */
export const SHORT = 8;
const ALLOW_KEY = /\b[a-z0-9]+(?:-[a-z0-9]+)+:[0-9a-f]{16}\b/g;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const PATH_SEPARATOR = /[/\\]/;
const LETTERS = /^\p{L}+$/u;

/** A value that is also an everyday word or name: masked only where it stands alone. */
export function weak(value: string): boolean {
  return value.length < SHORT || LETTERS.test(value);
}

/** Where a known value (or, cut short with "…" or at the end of the text, its first 8 or more characters) stands in the text. */
function knownRanges(text: string, known: KnownSecrets, out: Array<{ start: number; end: number; value: string; kind: string }>): void {
  for (const [value, kind] of known) {
    const probe = value.slice(0, SHORT);
    for (let i = text.indexOf(probe); i >= 0; i = text.indexOf(probe, i + 1)) {
      let k = probe.length;
      while (k < value.length && text[i + k] === value[k]) k++;
      const whole = k === value.length;
      // Cut short: a leak only when it shows more than the masked form itself does.
      const cut = !whole && k >= SHORT && k > shownPrefix(value, kind) && (i + k === text.length || text[i + k] === '…');
      if (!whole && !cut) continue;
      // A weak value (short, or a word of letters: "demo", "password") is masked where it stands as
      // a word of its own, and not as a segment of a path: a folder named "demo" is no credential.
      if (weak(value) && (WORD_CHAR.test(text[i - 1] ?? '') || WORD_CHAR.test(text[i + k] ?? '') || PATH_SEPARATOR.test(text[i - 1] ?? '') || PATH_SEPARATOR.test(text[i + k] ?? ''))) continue;
      // A whole value that a longer token continues: the token is masked to its end, as no-secrets reports it.
      const end = whole && value.length >= SHORT ? tokenEnd(text, i + k) : i + k;
      out.push({ start: i, end, value: end === i + k ? value : text.slice(i, end), kind });
      // A whole value is masked to its token's end: the next occurrence is looked for past it.
      if (whole) i = end - 1;
    }
  }
}

/**
 * The one masking function for everything memlint prints (lint messages of every rule, diffs,
 * JSON, merge and resolve messages, conflict labels): every secret in the text is replaced by
 * maskSecret's form, as no-secrets reports it. Masked are the values known from the files the
 * output speaks of (`known`, from secretsOf: the library scan's finds included) and whatever memlint's
 * own patterns find in the text itself (a decoded link target, a value cut short).
 */
export function maskSecrets(text: string, known: KnownSecrets = new Map()): string {
  const ranges: Array<{ start: number; end: number; value: string; kind: string }> = [];
  if (known.size > 0) knownRanges(text, known, ranges);
  if (mayHoldSecret(text)) {
    for (const f of findPatternSecrets(text)) ranges.push({ start: f.start, end: f.end, value: text.slice(f.start, f.end), kind: f.kind });
  }
  if (ranges.length === 0) return text;
  // no-secrets' allow keys (a rule's id and 16 hex digits of a hash) are memlint's own words, not
  // secrets, though `password-in-prose:8b33…` reads like a password assignment and a password
  // "password" is a word of it.
  const keys: Array<[number, number]> = [];
  for (const m of text.matchAll(ALLOW_KEY)) keys.push([m.index, m.index + m[0].length]);
  if (keys.length > 0) return maskRanges(text, ranges.filter((r) => !keys.some(([a, b]) => a <= r.start && r.end <= b)));
  return maskRanges(text, ranges);
}

function maskRanges(text: string, ranges: Array<{ start: number; end: number; value: string; kind: string }>): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let pos = 0;
  for (const r of ranges) {
    if (r.start < pos) continue;
    out += text.slice(pos, r.start) + maskSecret(r.value, r.kind);
    pos = r.end;
  }
  return out + text.slice(pos);
}

/** maskSecrets over every string inside a JSON-like value (keys aside). */
export function maskSecretsDeep<T>(value: T, known: KnownSecrets = new Map()): T {
  if (typeof value === 'string') return maskSecrets(value, known) as T;
  if (Array.isArray(value)) return value.map((v) => maskSecretsDeep(v, known)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecretsDeep(v, known)])) as T;
  }
  return value;
}
