// Deterministic generator of realistic memory folders and of a large repository for the
// benchmarks. Pure functions (seed + size -> path/content map) plus a writer that caches the
// result under bench-work/, keyed by generator version, seed and size.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Bump when the generated content changes, so stale caches are not reused. */
export const GENERATOR_VERSION = 7;

/** Entry lines in MEMORY.md stay under this (Claude Code's limit is 150 characters). */
const MAX_ENTRY_LINE = 122;

// ---------------------------------------------------------------------------------------------
// Seeded randomness: FNV-1a of the seed string, then mulberry32.

function hashSeed(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function createRandom(seed) {
  let state = hashSeed(String(seed));
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(next() * 16)];
    return s;
  };
  return { next, int, pick, chance, hex };
}

// ---------------------------------------------------------------------------------------------
// Vocabulary: a payments company's engineering team, in English and some Chinese.

const PEOPLE = [
  'Mei Lin', 'Tomás Ruiz', 'Priya Nair', 'Wang Lei', 'Amara Okafor', 'Jonas Weber', 'Sofia Rossi',
  'Kenji Sato', 'Fatima Zahra', 'Liam Byrne', 'Ana Costa', 'Daniel Kim', 'Chen Jing', 'Olga Ivanova',
  'Noah Fischer', 'Aisha Bello', 'Mateo García', 'Hannah Schulz', 'Ravi Menon', 'Zhao Min',
];

const SERVICES = [
  'ledger', 'payouts', 'webhooks', 'settlement', 'reconciliation', 'billing', 'invoicing', 'refunds',
  'disputes', 'onboarding', 'risk scoring', 'fraud checks', 'notifications', 'merchant portal',
  'reporting', 'exports', 'FX rates', 'card vaulting', 'subscriptions', 'tax engine', 'KYC checks',
  'audit trail', 'search', 'pricing', 'partner API',
];

const TEAMS = ['Berlin', 'Shanghai', 'Singapore', 'Lisbon', 'Toronto', 'Nairobi'];

const FEEDBACK_RULES = [
  { title: 'Integration tests use a real Postgres', rule: 'Integration tests for the {s} service run against the real Postgres from the compose stack, never a mocked driver or an in-memory fake.', why: 'A mocked suite passed on {d} while a renamed column broke production writes in {s}; {p} asked that the database never be mocked again.', how: 'Any test that exercises queries, migrations or transactions in {s} uses the shared Postgres fixture with a fresh schema per test. Pure functions keep plain unit tests.' },
  { title: 'Keep pull requests small', rule: 'Pull requests touching {s} stay under about 400 changed lines, with refactors and behaviour changes in separate pull requests.', why: '{p} reviews {s} changes and a 2,000-line mixed change let a rounding regression through on {d}.', how: 'When a change to {s} grows past 400 lines, split it before asking for review and say in the description which part comes next.' },
  { title: 'Commit message style', rule: 'Commit messages for {s} use an imperative subject under 72 characters and a body that explains why; the Linear key goes in a trailer.', why: '{p} builds the release notes for {s} from commit bodies, and subjects without a reason made the {d} release notes useless.', how: 'Write the subject as a command, wrap the body at 72 columns and end with a Refs trailer naming the Linear issue.' },
  { title: 'Migrations must be reversible', rule: 'Every schema migration in {s} ships with a tested down step and is rehearsed on staging before it merges.', why: 'The {d} migration of {s} had no down step and the rollback took four hours of manual SQL; {p} now signs off every migration.', how: 'Add the down step in the same pull request, run both directions on the staging snapshot and paste the timings in the description.' },
  { title: 'Feature flags for risky changes', rule: 'Behaviour changes in {s} ship behind a feature flag that defaults to off in production.', why: 'A change to {s} on {d} could only be undone by a redeploy, which took forty minutes during peak traffic.', how: 'Name the flag after the Linear issue, enable it for internal merchants first and remove it within two releases of full rollout.' },
  { title: 'Structured logging only', rule: 'Logs in {s} are structured JSON with the merchant id, request id and a stable event name; no free-text log lines.', why: 'During the {d} incident in {s}, free-text logs could not be queried and {p} spent an hour grepping by hand.', how: 'Use the shared logger with an event name in snake case and put variable data in fields, never interpolated into the message.' },
  { title: 'Money is integer minor units', rule: 'Amounts in {s} are integers in minor units with an explicit currency code, never floating point.', why: 'A float rounding error in {s} produced a one-cent mismatch across 12,000 payouts reconciled on {d}.', how: 'Accept and return amounts as integer minor units plus an ISO 4217 code, and convert only at the presentation edge.' },
  { title: 'Timeouts on every outbound call', rule: 'Every outbound HTTP call from {s} sets an explicit timeout and a bounded retry with jitter.', why: 'A partner API hung on {d} and {s} workers piled up until the queue stalled; {p} led the review.', how: 'Set connect and read timeouts from the service config, retry idempotent calls at most three times with jittered backoff.' },
  { title: 'Review comments ordered by severity', rule: 'Code review findings on {s} come first, one line each, ordered by severity, without praise padding.', why: '{p} reads reviews between incidents and long reviews on {s} hid a blocking finding on {d}.', how: 'Open with blocking findings, then suggestions, then nits; keep each to one line and link the line of code.' },
  { title: 'API changes need a versioned endpoint', rule: 'Breaking changes to the {s} API go into a new versioned endpoint; the old version keeps working for two releases.', why: 'A renamed field in {s} broke three merchant integrations on {d} and support took a week to calm it down.', how: 'Add the new version beside the old one, mark the old one deprecated in the changelog and tell partner support before the release.' },
  { title: 'Alerts must be actionable', rule: 'Every alert on {s} names the dashboard, the likely cause and the first action to take.', why: 'On-call for {s} ignored a noisy alert on {d} that turned out to be real; {p} rewrote the alert rules afterwards.', how: 'Write the runbook link and the first step into the alert text, and delete alerts that have never led to an action.' },
  { title: 'Idempotency keys on writes', rule: 'Write endpoints of {s} require an idempotency key and store the first response for 24 hours.', why: 'A client retry on {d} created duplicate records in {s} that finance had to reverse by hand.', how: 'Reject writes without a key, store key plus response in the idempotency table and return the stored response on a repeat.' },
  { title: 'Release notes for merchants', rule: 'Release notes about {s} are written for merchants: the visible effect first, no ticket ids or internal codenames.', why: 'Merchants forwarded the {d} notes about {s} to support asking what the codenames meant.', how: 'Start each note with what a merchant will notice, keep internal references out and let {p} review the wording.' },
  { title: 'No emojis in documentation', rule: 'Documentation, changelogs and release notes for {s} contain no emojis.', why: 'The audit PDF export drops emojis as blank boxes, which made the {d} audit pack for {s} look corrupted.', how: 'Use words instead of emojis in docs and changelogs; the docs check in CI flags them.' },
  { title: 'Three-bullet task summaries', rule: 'Summaries at the end of a task on {s} are three bullets: what changed, how it was verified, what is left open.', why: '{p} reads summaries on a phone between meetings and longer ones about {s} went unread after {d}.', how: 'End every task with exactly three bullets and nothing after them.' },
  { title: 'Dependency upgrades one at a time', rule: 'Dependency upgrades in {s} land one package per pull request, with the changelog linked.', why: 'A batch upgrade on {d} broke {s} and bisecting eleven packages took {p} a whole afternoon.', how: 'Open one pull request per package, link its changelog and note any behaviour change the tests cover.' },
];

const FEEDBACK_RULES_ZH = [
  { title: '数据库迁移必须可回滚', rule: '{s}的每个数据库迁移都要有回滚步骤，并在预发环境完整演练后才能合并。', why: '{d}的{s}迁移没有回滚脚本，回滚花了四个小时手写 SQL，之后由{p}负责审核所有迁移。', how: '在同一个 PR 里写好回滚步骤，在预发快照上双向执行一遍，并把耗时写进描述。' },
  { title: '接口变更需要新版本', rule: '{s}的接口如有破坏性变更，必须新增版本号，旧版本至少保留两个发布周期。', why: '{d}{s}改名了一个字段，导致三个商户集成失败，客服处理了一周。', how: '新旧版本并存，在变更日志中标记旧版本已弃用，并提前通知合作伙伴支持团队。' },
  { title: '告警必须可执行', rule: '{s}的每条告警都要写明看板、可能原因和第一步处理动作。', why: '{d}值班同学忽略了一条{s}的噪音告警，结果是真故障，之后{p}重写了告警规则。', how: '在告警文本里写上处理手册链接和第一步操作，从未触发过处理动作的告警直接删除。' },
  { title: '金额用整数分表示', rule: '{s}中的金额一律用最小货币单位的整数加币种代码表示，禁止浮点数。', why: '{d}对账时发现{s}的浮点舍入误差导致一万两千笔付款各差一分钱。', how: '接口收发金额都用整数最小单位和 ISO 4217 币种代码，只在展示层转换。' },
  { title: '值班交接要写清楚', rule: '{s}值班交接时要写明未关闭的告警、进行中的变更和需要关注的商户。', why: '{d}交接遗漏了一个进行中的{s}变更，导致夜间重复发布，{p}为此补了交接模板。', how: '交接时使用团队模板，逐项填写，没有内容的项目写“无”。' },
];

const PROJECT_FACTS = [
  { title: 'Release freeze for the billing close', text: 'No production deploys of {s} from {d1} to {d2}, both days included. Only P0 fixes ship in that window, each with two approvals and a written rollback plan.', why: 'Merchants run their billing close in that window and finance reconciles every payout against the ledger.', how: 'For work on {s} that would land after {d0}, say whether it can merge behind a flag or has to wait until the freeze ends.' },
  { title: 'Migration deadline', text: 'The {s} database moves from MySQL to Postgres; the hosting contract ends on {d2} and the deploy window runs from {d1} to {d2}.', why: 'Finance will not renew the old hosting contract, and {p} committed the date to the leadership review.', how: 'Plan {s} schema work so that nothing new lands on MySQL after {d0}.' },
  { title: 'Service ownership', text: '{s} is owned by {p}; the {t} team covers on-call outside European hours since {d1}.', why: 'Ownership changed in the {d0} reorganisation and old runbooks still name the previous owner.', how: 'Route {s} questions and reviews to {p}, and page the {t} team at night.' },
  { title: 'Partner launch', text: 'The {s} integration with the partner bank launches on {d2}; the sandbox opened on {d1}.', why: 'The partner contract fixes the launch date and penalties apply after it.', how: 'Treat {s} bugs found in the sandbox as release blockers until {d2}.' },
  { title: 'Incident follow-up', text: 'The {s} outage of {d0} has three open follow-ups owned by {p}, due {d2}.', why: 'The postmortem review asked for the follow-ups before the next peak season starting {d1}.', how: 'Link new {s} work to the follow-up issues when it overlaps, and do not start unrelated refactors in {s} before {d2}.' },
  { title: 'Handover to the regional team', text: 'From {d1} the {t} team runs {s}; both teams share on-call until {d2}.', why: 'The regional team takes over to cover the new market hours.', how: 'Copy the {t} team on {s} changes until {d2} and write handover notes in English.' },
  { title: 'Compliance audit window', text: 'The external audit of {s} runs from {d1} to {d2}; evidence requests go through {p}.', why: 'Missing evidence in the previous audit on {d0} delayed the certificate by a month.', how: 'Do not change access controls or retention settings of {s} during the audit window.' },
];

const PROJECT_FACTS_ZH = [
  { title: '结算批处理交接', text: '自{d1}起{s}由{t}团队负责，{d2}前两地共同值班。', why: '新市场开业后需要覆盖当地营业时间，{p}负责协调交接。', how: '{d2}前{s}的变更都要抄送{t}团队，交接文档用英文写。' },
  { title: '发布冻结期', text: '{d1}至{d2}期间{s}禁止生产发布，只允许 P0 修复，且需要两人审批和回滚方案。', why: '商户在这段时间做年度结算，财务要逐笔核对付款。', how: '{d0}之后才能合并的{s}工作，要说明能否用功能开关提前合并。' },
];

const REFERENCE_SITES = [
  { title: 'Grafana dashboard', host: 'grafana.ledgerline.io', path: '/d/{slug}/{slug}', what: 'p99 latency, error rate by merchant tier and queue depth for {s}' },
  { title: 'Linear project', host: 'linear.app', path: '/ledgerline/project/{slug}', what: 'bugs and incidents for {s}; the incident label links the postmortem' },
  { title: 'Runbook', host: 'notion.so', path: '/ledgerline/{slug}-runbook', what: 'the on-call runbook for {s}: restarts, failover and escalation contacts' },
  { title: 'Sentry project', host: 'sentry.io', path: '/organizations/ledgerline/projects/{slug}/', what: 'error reports for {s}, grouped by release' },
  { title: 'Design document', host: 'notion.so', path: '/ledgerline/{slug}-design', what: 'the design of {s}: data model, failure modes and the rollout plan' },
  { title: 'Status page', host: 'status.ledgerline.io', path: '/components/{slug}', what: 'public status of {s}; update it within ten minutes of a confirmed incident' },
  { title: 'PagerDuty service', host: 'ledgerline.pagerduty.com', path: '/service-directory/{slug}', what: 'the escalation policy for {s} and the current on-call rota' },
];

const USER_FACTS = [
  { title: 'Role and ownership', desc: '{p} is a staff engineer who owns {s} and reviews its design changes', body: ['{p} is a staff engineer on the payments platform and owns {s}.', 'Design changes to {s} go through {p}; implementation reviews can go to anyone on the team.'] },
  { title: 'Review style', desc: 'prefers terse reviews of {s}: findings first, one line each, ordered by severity', body: ['When reviewing {s} changes, list findings first, one line each, ordered by severity.', 'Skip compliments and summaries of what the change does.'] },
  { title: 'Working hours', desc: 'works from the {t} office; meetings about {s} before noon local time', body: ['{p} works from the {t} office and keeps afternoons free for focused work.', 'Schedule discussions about {s} before noon in {t}.'] },
  { title: 'Background', desc: 'deep background in {s}, newer to the frontend of the merchant portal', body: ['{p} has years of experience with {s} and with payment networks.', 'Explain frontend changes of the merchant portal in more detail, relating them to {s} where possible.'] },
];

const USER_FACTS_ZH = [
  { title: '语言习惯', desc: '用中文讨论{s}的设计，代码注释、提交信息和 PR 描述用英文', body: ['用户和{t}团队讨论{s}的设计时习惯用中文。', '代码注释、提交信息、PR 描述和发布说明一律用英文，因为其他城市的同事也要阅读。'] },
  { title: '沟通方式', desc: '{p}喜欢先给结论再给理由，关于{s}的问题尽量一次问完', body: ['{p}希望先看到结论，再看理由和数据。', '关于{s}的问题尽量合并成一次提问。'] },
];

const SERVICE_ZH = {
  ledger: '账本服务', payouts: '付款服务', webhooks: '回调服务', settlement: '结算批处理', reconciliation: '对账服务',
  billing: '计费服务', invoicing: '发票服务', refunds: '退款服务', disputes: '争议处理', onboarding: '商户入驻',
  'risk scoring': '风险评分', 'fraud checks': '反欺诈检查', notifications: '通知服务', 'merchant portal': '商户门户',
  reporting: '报表服务', exports: '数据导出', 'FX rates': '汇率服务', 'card vaulting': '卡信息存储', subscriptions: '订阅服务',
  'tax engine': '税务引擎', 'KYC checks': '实名认证', 'audit trail': '审计日志', search: '搜索服务', pricing: '定价服务',
  'partner API': '合作伙伴接口',
};

const LOG_LINES = [
  '{p} confirmed the {s} change waits until after {d}',
  '{p} asked that {s} tests run against the compose Postgres',
  'Reviewed the {s} rollout plan with {p}; flag stays off until {d}',
  'Release notes for the {s} release reworded for merchants',
  'Agreed with {p} that {s} alerts name the first action to take',
  'The {t} team takes {s} on-call from {d}',
  '{p} approved the {s} migration after the staging rehearsal',
  'Moved the {s} design review to {d} at {p}\'s request',
  '{p}确认{s}的回滚演练已在预发环境完成',
  '和{p}约定{s}的告警文本要写明第一步处理动作',
];

// ---------------------------------------------------------------------------------------------
// Helpers.

function fill(template, vars) {
  return template.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? `{${k}}`);
}

function slugify(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** File names people keep short: at most 40 characters, cut at a word. */
function shortSlug(slug) {
  if (slug.length <= 40) return slug;
  const cut = slug.slice(0, 40);
  return cut.slice(0, cut.lastIndexOf('_') > 20 ? cut.lastIndexOf('_') : 40);
}

const DAY = 86_400_000;

function isoDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

function capitalize(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Cut a hook at a word boundary so the entry line stays under the limit (counted in code points). */
function fitHook(prefix, hook) {
  const room = Math.max(24, MAX_ENTRY_LINE - [...prefix].length);
  const chars = [...hook];
  if (chars.length <= room) return hook;
  let cut = chars.slice(0, room - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space > room / 2) cut = cut.slice(0, space);
  return cut.replace(/[,;:.\s]+$/, '').replace(/\s+(and|or|of|the|a|an|to|in|on|for|by|with|its|from|at|is|are)$/i, '');
}

function uuid(rnd) {
  return `${rnd.hex(8)}-${rnd.hex(4)}-4${rnd.hex(3)}-${'89ab'[rnd.int(0, 3)]}${rnd.hex(3)}-${rnd.hex(12)}`;
}

function yamlString(s) {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function frontmatter(rnd, { name, description, type, modifiedMs }) {
  if (rnd.chance(0.6)) {
    // Newer Claude Code: type and bookkeeping under metadata.
    return [
      '---',
      `name: ${yamlString(name)}`,
      `description: ${yamlString(description)}`,
      'metadata:',
      '  node_type: memory',
      `  type: ${type}`,
      `  originSessionId: ${uuid(rnd)}`,
      `  modified: ${new Date(modifiedMs).toISOString()}`,
      '---',
      '',
    ].join('\n');
  }
  return ['---', `name: ${yamlString(name)}`, `description: ${yamlString(description)}`, `type: ${type}`, '---', ''].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Topics.

const TYPE_WEIGHTS = [
  ['user', 0.1],
  ['feedback', 0.35],
  ['project', 0.3],
  ['reference', 0.25],
];

function pickType(rnd) {
  let x = rnd.next();
  for (const [t, w] of TYPE_WEIGHTS) {
    if ((x -= w) < 0) return t;
  }
  return 'reference';
}

function makeTopic(rnd, type, endMs) {
  const chinese = rnd.chance(0.12) && type !== 'reference';
  const service = rnd.pick(SERVICES);
  const s = chinese ? SERVICE_ZH[service] : service;
  const p = rnd.pick(PEOPLE);
  const t = rnd.pick(TEAMS);
  const past = (lo, hi) => isoDay(endMs - rnd.int(lo, hi) * DAY);
  const future = (lo, hi) => isoDay(endMs + rnd.int(lo, hi) * DAY);
  const modifiedMs = endMs - rnd.int(0, 400) * DAY - rnd.int(0, DAY - 1);
  if (type === 'feedback') {
    const f = rnd.pick(chinese ? FEEDBACK_RULES_ZH : FEEDBACK_RULES);
    const vars = { s, p, d: past(30, 500) };
    const rule = fill(f.rule, vars);
    const body = `${rule}\n\n**Why:** ${fill(f.why, vars)}\n\n**How to apply:** ${fill(f.how, vars)}\n`;
    return { type, chinese, key: `${f.title}|${service}`, title: chinese ? `${f.title}（${s}）` : `${f.title} (${service})`, slugBase: chinese ? `${slugify(service)}_zh_${FEEDBACK_RULES_ZH.indexOf(f)}` : `${slugify(f.title)}_${slugify(service)}`, description: rule, hook: rule, body, modifiedMs };
  }
  if (type === 'project') {
    const f = rnd.pick(chinese ? PROJECT_FACTS_ZH : PROJECT_FACTS);
    const vars = { s, p, t, d0: past(10, 200), d1: future(5, 60), d2: future(61, 200) };
    const text = fill(f.text, vars);
    const body = `${text}\n\n**Why:** ${fill(f.why, vars)}\n\n**How to apply:** ${fill(f.how, vars)}\n`;
    const title = chinese ? `${f.title}（${s}）` : `${f.title}: ${service}`;
    return { type, chinese, key: `${f.title}|${service}`, title, slugBase: chinese ? `${slugify(service)}_zh_${PROJECT_FACTS_ZH.indexOf(f)}` : `${slugify(f.title)}_${slugify(service)}`, description: text, hook: text, body, modifiedMs };
  }
  if (type === 'reference') {
    const f = rnd.pick(REFERENCE_SITES);
    const slug = slugify(service).replace(/_/g, '-');
    const url = `https://${f.host}${fill(f.path, { slug })}`;
    const what = fill(f.what, { s });
    const extra = rnd.chance(0.5) ? `\n- Ask ${p} for access; the ${t} team keeps it up to date.` : '';
    const body = `- ${capitalize(what)}: ${url}${extra}\n`;
    return { type, chinese, key: `${f.title}|${service}`, title: `${service} ${f.title.toLowerCase()}`.replace(/^./, (c) => c.toUpperCase()), slugBase: `${slugify(f.title)}_${slugify(service)}`, description: `${f.title} for ${service}: ${what}`, hook: what, body, modifiedMs };
  }
  const f = rnd.pick(chinese ? USER_FACTS_ZH : USER_FACTS);
  const vars = { s, p, t };
  const desc = fill(f.desc, vars);
  const body = f.body.map((l) => fill(l, vars)).join('\n\n') + '\n';
  return { type, chinese, key: `${f.title}|${service}|${p}`, title: chinese ? f.title : `${f.title}: ${p}`, slugBase: chinese ? `${slugify(service)}_zh_${USER_FACTS_ZH.indexOf(f)}` : `${slugify(f.title)}_${slugify(p)}`, description: desc, hook: desc, body, modifiedMs };
}

/**
 * A memdir as a map of memdir-relative path -> content, in a stable order.
 * `topics`: number of topic files; `logDays`: daily logs for that many days ending at `endDate`.
 */
export function generateMemdir({ seed, topics, logDays = 0, endDate = '2026-11-28' }) {
  const rnd = createRandom(`${seed}:memdir:${topics}:${logDays}`);
  const endMs = Date.parse(`${endDate}T12:00:00Z`);
  const files = new Map();
  const byType = { user: [], feedback: [], project: [], reference: [] };
  const usedSlugs = new Set();
  const usedTitles = new Set();
  for (let i = 0; i < topics; i++) {
    const type = pickType(rnd);
    const topic = makeTopic(rnd, type, endMs);
    const base = shortSlug(`${type}_${topic.slugBase}`);
    let slug = base;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${base}_${n}`;
    usedSlugs.add(slug);
    let title = topic.title;
    for (let n = 2; usedTitles.has(title); n++) title = `${topic.title} (${n})`;
    usedTitles.add(title);
    const file = `${slug}.md`;
    const fm = frontmatter(rnd, { name: title, description: topic.description, type, modifiedMs: topic.modifiedMs });
    files.set(file, `${fm}\n${topic.body}`);
    const prefix = `- [${title}](${file}) — `;
    byType[type].push({ file, slug, line: `${prefix}${fitHook(prefix, topic.hook)}` });
  }
  // Under ~190 topics the index has sections; a full one is entries only, as the 200-line
  // limit leaves no room for headings.
  const sections = topics < 190;
  const index = sections ? ['# Memory', ''] : [];
  const headings = { user: 'User', feedback: 'Feedback', project: 'Project', reference: 'Reference' };
  for (const type of ['user', 'feedback', 'project', 'reference']) {
    if (byType[type].length === 0) continue;
    if (sections) index.push(`## ${headings[type]}`);
    for (const e of byType[type]) index.push(e.line);
    if (sections) index.push('');
  }
  if (!sections) index.push('');
  const ordered = new Map([['MEMORY.md', index.join('\n')]]);
  const slugs = [...usedSlugs];
  for (let day = logDays - 1; day >= 0; day--) {
    const date = isoDay(endMs - day * DAY);
    const [y, m] = date.split('-');
    const lines = [`# ${date}`, ''];
    let minute = rnd.int(8 * 60, 10 * 60);
    const count = rnd.int(2, 6);
    for (let k = 0; k < count; k++) {
      const hh = String(Math.floor(minute / 60)).padStart(2, '0');
      const mm = String(minute % 60).padStart(2, '0');
      const service = rnd.pick(SERVICES);
      const template = rnd.pick(LOG_LINES);
      const zh = /[\u4e00-\u9fff]/.test(template);
      const text = fill(template, { p: rnd.pick(PEOPLE), s: zh ? SERVICE_ZH[service] : service, t: rnd.pick(TEAMS), d: isoDay(Date.parse(`${date}T12:00:00Z`) + rnd.int(3, 40) * DAY) });
      const ref = slugs.length ? ` [${rnd.pick(slugs)}]` : '';
      lines.push(`- ${hh}:${mm} — ${text}${ref}`);
      minute += rnd.int(15, 120);
      if (minute > 23 * 60) minute = 23 * 60 + k;
    }
    files.set(`logs/${y}/${m}/${date}.md`, lines.join('\n') + '\n');
  }
  for (const [k, v] of files) ordered.set(k, v);
  return ordered;
}

/** Files of a large source repository (everything but the memdir): `count` small tracked files. */
export function generateRepoFiles({ seed, count }) {
  const rnd = createRandom(`${seed}:repo:${count}`);
  const files = new Map();
  files.set('package.json', '{\n  "name": "ledgerline-platform",\n  "private": true\n}\n');
  files.set('README.md', '# Ledgerline platform\n\nPayments services monorepo.\n');
  const perDir = 100;
  for (let i = 0; files.size < count; i++) {
    const dir = `src/${SERVICES[i % SERVICES.length].replace(/ /g, '-')}-${Math.floor(i / perDir)}`;
    const name = `${dir}/module-${i % perDir}.ts`;
    files.set(name, `// ${rnd.pick(SERVICES)} module ${i}\nexport const limit${i} = ${rnd.int(1, 10_000)};\nexport function check${i}(value: number): boolean {\n  return value <= limit${i};\n}\n`);
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// Writing, with a cache under bench-work/.

export function writeTree(dir, files) {
  const made = new Set();
  for (const [rel, content] of files) {
    const target = join(dir, rel);
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(target, content);
  }
}

export function git(cwd, args, input) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', input, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr.trim()}`);
  return r.stdout;
}

export function initRepo(dir) {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Bench']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'core.autocrlf', 'false']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
}

/**
 * Build `name` under `root` with `build(tmpDir)` unless a finished copy exists. Built in a
 * temporary folder and renamed into place, so an interrupted build is never reused.
 */
export function cached(root, name, build) {
  const dir = join(root, name);
  if (existsSync(join(dir, '.bench-complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  build(tmp);
  writeFileSync(join(tmp, '.bench-complete'), '');
  renameSync(tmp, dir);
  return dir;
}

export const MEMDIR_REL = '.claude/memory';

/** A git repository holding one memdir at .claude/memory, committed. Returns the repository folder. */
export function ensureMemdirRepo(root, { seed, topics, logDays = 0 }) {
  const name = `memdir-v${GENERATOR_VERSION}-${seed}-${topics}t-${logDays}d`;
  return join(cached(root, name, (tmp) => {
    const repo = join(tmp, 'repo');
    initRepo(repo);
    writeTree(join(repo, MEMDIR_REL), generateMemdir({ seed, topics, logDays }));
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'memory']);
  }), 'repo');
}

/** A repository of `count` tracked files in all, a memdir (topics + logs) among them. */
export function ensureLargeRepo(root, { seed, count, topics, logDays }) {
  const name = `repo-v${GENERATOR_VERSION}-${seed}-${count}f-${topics}t-${logDays}d`;
  return join(cached(root, name, (tmp) => {
    const repo = join(tmp, 'repo');
    initRepo(repo);
    const memdir = generateMemdir({ seed, topics, logDays });
    writeTree(join(repo, MEMDIR_REL), memdir);
    writeTree(repo, generateRepoFiles({ seed, count: count - memdir.size }));
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'initial import']);
  }), 'repo');
}
