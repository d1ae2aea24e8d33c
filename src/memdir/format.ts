// Claude Code's memory format, by version: one registry of facts as data, each with the version
// that introduced it (and the version that stopped writing it, when one did). Config `claudeCode`
// (a version, default the newest known) selects them; rules, the merge driver's file kinds,
// consolidation, `show`, `touch` and the hook read layout and limits from the selected format
// instead of holding their own numbers. Next month's change is one entry here and its fixtures.
// Sources are cited in docs/format.md: PKG = Claude Code 2.1.332's own bundle strings, CL = its
// CHANGELOG.md, PR = its system prompts as published per version.

/** A version as Claude Code numbers them: major.minor.patch. */
export type Version = readonly [number, number, number];

export interface FormatFact {
  id: string;
  /** The first version with it; null: older than any version memlint tracks. */
  since: string | null;
  /**
   * The first version that no longer writes it. Memory written before stays in folders and is
   * still read, so readers keep accepting it: `until` changes what a writer would produce, not
   * what is valid.
   */
  until?: string;
  /** Only behind a server-side gate (a variant): never assumed, enabled by config. */
  gated?: true;
  summary: string;
  /** Where it was read (see docs/format.md). */
  source: string;
}

/** The newest Claude Code version whose format memlint has checked (the default of `claudeCode`). */
export const NEWEST_KNOWN = '2.1.332';

export const FORMAT_FACTS: readonly FormatFact[] = [
  { id: 'index-limits', since: null, summary: 'MEMORY.md is cut at 200 lines, then at 25,000 UTF-16 units, when loaded; an entry is one line under ~150 characters', source: 'PKG (eV=200, zye=25000; "under ~150 characters")' },
  { id: 'daily-logs', since: null, until: '2.1.116', summary: 'append-only daily logs logs/YYYY/MM/YYYY-MM-DD.md', source: 'PR (dream prompt)' },
  { id: 'team-memory', since: '2.1.98', summary: 'a team/ folder shared by everyone working in the repository, with its own index', source: 'PR (dream team handling), PKG ("team/")' },
  { id: 'session-logs', since: '2.1.116', summary: 'one log per session, logs/YYYY/MM/DD/<id>-<title>.md, lines prefixed > user, < assistant, . tool call, append-only', source: 'PR (dream prompt 2.1.116-2.1.120), CL' },
  { id: 'metadata-frontmatter', since: '2.1.139', summary: 'name is a short kebab-case slug; type sits under metadata:', source: 'PR, PKG (memory file template)' },
  { id: 'wikilinks', since: '2.1.139', summary: 'memories link each other with [[name]]; a [[name]] matching no memory yet is fine, not an error', source: 'PR, PKG ("Link liberally")' },
  { id: 'team-combined-index', since: '2.1.173', summary: 'the single private MEMORY.md indexes team memories as team/file.md', source: 'PR (combined index), PKG ("use a path like `team/file.md`")' },
  { id: 'index-compact-target', since: '2.1.210', summary: 'a write leaving the index at 80% of a read limit or over it tells the agent to compact or rewrite it under 70% of the limit: 140 lines, 17,500 units', source: 'CL, PKG (Ume=0.7, F8r=0.8, "Rewrite it", "Compact it")' },
  { id: 'index-strip-on-load', since: '2.1.211', summary: 'the index limits are measured on loaded content only: frontmatter and HTML comments excluded', source: 'CL' },
  { id: 'modified-timestamp', since: '2.1.214', summary: 'an ISO metadata.modified timestamp is written on every save', source: 'CL, PKG (metadata:{...,modified})' },
  { id: 'pinned-lessons', since: '2.1.219', until: '2.1.240', summary: 'a lesson may be metadata.pinned: true with no type; at most 4 pinned', source: 'PR (durable lesson instructions 2.1.219-2.1.239), CL; not in 2.1.332\'s strings' },
  { id: 'topic-recall-limit', since: null, summary: 'recall shows another session only the first 200 lines and 4,096 bytes of a memory file, frontmatter included; a write past that gets an error asking to rewrite it under 70%', source: 'PKG (ght=200, n1e=4096; "Keep each memory file under 4 KB", "recall shows other sessions only the first")' },
  { id: 'description-length', since: null, summary: 'recall flags a description over 300 characters and asks for about 150', source: 'PKG (bNn=300, long_description)' },
  { id: 'agent-memory-scopes', since: null, summary: 'subagent memory: user ~/.claude/agent-memory/<agent>/, project .claude/agent-memory/<agent>/ (committed), local .claude/agent-memory-local/<agent>/ (never committed)', source: 'PKG (memory scope setting, VLs)' },
  { id: 'generated-index', since: null, gated: true, summary: 'no hand-kept MEMORY.md: the index is assembled from each file\'s name and description at load time', source: 'PR (dream prompt, gated variant), PKG ("memory index backfill")' },
];

export function parseVersion(v: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function compareVersions(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The format a configured Claude Code version reads and writes. */
export interface ClaudeFormat {
  version: string;
  /** Memory written under this fact is read by this version (since <= version; gated facts by config only). */
  reads(id: string): boolean;
  /** This version itself writes memory this way (since <= version < until). */
  writes(id: string): boolean;
  indexMaxLines: number;
  indexMaxUnits: number;
  maxEntryChars: number;
  /** Frontmatter and block HTML comments stripped before measuring the index. */
  stripIndex: boolean;
  /** Where Claude Code tells the agent to compact the index to (null before it did). */
  compactTarget: { lines: number; units: number } | null;
  /** The share of a limit at which Claude Code starts telling the agent to compact. */
  compactWarnAt: number;
  maxPinned: number;
  descriptionMaxChars: number;
  /** What recall shows of a memory file: its first lines and bytes (UTF-8), frontmatter included. */
  topicRecall: { lines: number; bytes: number };
}

export interface FormatOptions {
  /** Config `generatedIndex`: the memdir's index is assembled at load time (the gated variant). */
  generatedIndex?: boolean;
}

const INDEX_LINES = 200;
const INDEX_UNITS = 25_000;
const COMPACT_TARGET = 0.7;

export function claudeFormat(version: string = NEWEST_KNOWN, options: FormatOptions = {}): ClaudeFormat {
  const v = parseVersion(version);
  if (!v) throw new Error(`not a Claude Code version: ${JSON.stringify(version)} (expected e.g. ${NEWEST_KNOWN})`);
  const at = (s: string | null | undefined) => (s ? compareVersions(v, parseVersion(s)!) >= 0 : true);
  const byId = new Map(FORMAT_FACTS.map((f) => [f.id, f]));
  const fact = (id: string) => {
    const f = byId.get(id);
    if (!f) throw new Error(`unknown format fact ${id}`);
    return f;
  };
  const reads = (id: string) => {
    const f = fact(id);
    if (f.gated) return id === 'generated-index' && options.generatedIndex === true;
    return at(f.since);
  };
  const writes = (id: string) => reads(id) && !(fact(id).until !== undefined && at(fact(id).until));
  return {
    version: version.trim().replace(/^v/, ''),
    reads,
    writes,
    indexMaxLines: INDEX_LINES,
    indexMaxUnits: INDEX_UNITS,
    maxEntryChars: 150,
    stripIndex: reads('index-strip-on-load'),
    compactTarget: reads('index-compact-target') ? { lines: Math.floor(INDEX_LINES * COMPACT_TARGET), units: Math.floor(INDEX_UNITS * COMPACT_TARGET) } : null,
    compactWarnAt: 0.8,
    maxPinned: 4,
    descriptionMaxChars: 300,
    topicRecall: { lines: 200, bytes: 4096 },
  };
}

/** The facts a version reads, one line each, for `memlint formats` and docs. */
export function describeFormats(version: string = NEWEST_KNOWN): string {
  const f = claudeFormat(version);
  const lines = [`Claude Code memory format facts (claudeCode: ${f.version}; newest known ${NEWEST_KNOWN})`];
  for (const fact of FORMAT_FACTS) {
    const span = `${fact.since ?? 'all'}${fact.until ? `..<${fact.until}` : '+'}${fact.gated ? ' (gated)' : ''}`;
    const mark = f.reads(fact.id) ? '*' : ' ';
    lines.push(`${mark} ${fact.id.padEnd(22)} ${span.padEnd(18)} ${fact.summary}`);
  }
  lines.push('* = applies to the configured version. Pin one with "claudeCode": "2.1.235" in .memlintrc.json.');
  return lines.join('\n');
}

/**
 * Which agent-memory scope a folder is (`agent-memory-scopes`): project
 * (.claude/agent-memory/<agent>/, "shared with your team via version control"), local
 * (.claude/agent-memory-local/<agent>/, "not checked into version control": memlint never
 * commits it), or null for any other folder. User scope lives outside the repository.
 */
export function agentMemoryScope(dir: string): 'project' | 'local' | null {
  const m = /(?:^|[/\\])\.claude[/\\](agent-memory|agent-memory-local)[/\\][^/\\]+[/\\]?$/.exec(dir);
  if (!m) return null;
  return m[1] === 'agent-memory' ? 'project' : 'local';
}
