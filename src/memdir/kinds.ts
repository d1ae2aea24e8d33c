// What a memory file is, decided by its path, in one place: the index (MEMORY.md), a daily log
// (logs/YYYY/MM/YYYY-MM-DD.md), a topic (any other Markdown file), and the archive's index
// (ARCHIVE.md). Two views of the same names:
// - fileKind(rel): a file of a known memdir, by its memdir-relative path (the model, lint,
//   consolidation);
// - pathKind(path): any repository path, its memdir unknown (the merge driver, resolve,
//   update-branch: git gives them a path and nothing else).
// Where the two differ, each keeps what its command has always done: pathKind merges ARCHIVE.md
// as an index (a list of entries) where fileKind calls it a topic; pathKind takes a log anywhere
// in the path (a/b/logs/2026/11/2026-11-29.md) and whatever its date, where fileKind takes only the
// memdir's own logs/ folder and a date that matches its folders (logs/2026/11/2026-12-01.md is a
// topic); pathKind takes `.MD` in any case for Markdown, where a memdir's files are `.md`.
import { basename } from 'node:path';
import { isMemoryType, type FileKind } from './types.js';

export type { FileKind } from './types.js';

/** The index Claude Code loads: the file that makes a folder a memdir. */
export const INDEX_FILE = 'MEMORY.md';
/** The archive folder's index (consolidation moves what leaves the memdir there). */
export const ARCHIVE_INDEX = 'ARCHIVE.md';

/** A repository path: a memory file's kind, or other (not Markdown: git's line merge). */
export type PathKind = FileKind | 'other';

const MEMDIR_LOG = /^logs\/(\d{4})\/(\d{2})\/(\d{4}-\d{2}-\d{2})\.md$/;
const ANY_LOG = /(?:^|\/)logs\/\d{4}\/\d{2}\/(?:\d{4}-\d{2}-\d{2}|\d{2}\/[^/]+)\.md$/;
// A session log (Claude Code 2.1.116 on, src/memdir/format.ts `session-logs`): one file per
// session, logs/YYYY/MM/DD/<id>-<title>.md, append-only like the daily logs it replaced.
const SESSION_LOG = /^logs\/(\d{4})\/(\d{2})\/(\d{2})\/[^/]+\.md$/;

/** A file of a memdir, by its memdir-relative path ('/' separators); a log with its date. */
export function fileKind(rel: string): { kind: FileKind; logDate?: string } {
  if (rel === INDEX_FILE) return { kind: 'index' };
  const m = MEMDIR_LOG.exec(rel);
  if (m && m[3]!.startsWith(`${m[1]}-${m[2]}-`)) return { kind: 'log', logDate: m[3]! };
  const s = SESSION_LOG.exec(rel);
  if (s && validDay(s[1]!, s[2]!, s[3]!) && !rel.endsWith(`/${INDEX_FILE}`)) return { kind: 'log', logDate: `${s[1]}-${s[2]}-${s[3]}` };
  return { kind: 'topic' };
}

function validDay(y: string, m: string, d: string): boolean {
  const t = new Date(`${y}-${m}-${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(`${y}-${m}-${d}`);
}

/** A session log (logs/YYYY/MM/DD/<id>-<title>.md), not a daily log. */
export function isSessionLog(rel: string): boolean {
  return SESSION_LOG.test(rel) && fileKind(rel).kind === 'log';
}

/** Any repository path that is a session log (the merge driver knows no memdir). */
export function isSessionLogPath(path: string): boolean {
  return /(?:^|\/)logs\/\d{4}\/\d{2}\/\d{2}\/[^/]+\.md$/.test(path.replace(/\\/g, '/'));
}

const TEMPLATE_FOLDER = /^[._]?templates?$/i;

/**
 * A repository path memlint never takes for memory on its own: anything under node_modules, a
 * template folder (`templates/`, `template/`: a plugin's or a project's copy to start memory from,
 * whose MEMORY.md and topics hold placeholders, not what a team's agents learned; Claude Code reads
 * no memory there), or `.claude/worktrees/` (Claude Code 2.1.332 makes its worktrees there: another
 * checkout, whose memory is that checkout's to lint, and a copy of this one's when committed). A
 * folder named on the command line or in config memoryDirs is linted all the same.
 */
export function neverFoundAsMemory(path: string): boolean {
  const segments = path.split('/');
  return segments.some((segment, i) => segment === 'node_modules' || TEMPLATE_FOLDER.test(segment) || (segment === 'worktrees' && segments[i - 1] === '.claude'));
}

/** A Markdown file of this memdir (memdir-relative path): not a nested memdir's own index, which is a memdir of its own. */
export function isMemoryPath(rel: string): boolean {
  return rel.endsWith('.md') && !rel.endsWith(`/${INDEX_FILE}`);
}

/**
 * An AppleDouble file: the resource fork macOS writes as `._<name>` beside a file on a volume
 * without its attributes, copied into repositories by archives and sync tools. Told by its name and
 * its magic number both: a text file named `._notes.md` is read as memory like any other.
 */
export function isAppleDoubleFork(rel: string, bytes: Uint8Array): boolean {
  return basename(rel).startsWith('._') && bytes.length >= 4 && bytes[0] === 0x00 && bytes[1] === 0x05 && bytes[2] === 0x16 && bytes[3] === 0x07;
}

/**
 * A topic at the top of the memdir, where Claude Code keeps them: subfolders (logs/, sessions/)
 * hold other things that consolidation must not index or merge.
 */
export function isTopLevelTopic(rel: string): boolean {
  return rel !== INDEX_FILE && rel.endsWith('.md') && !rel.includes('/');
}

/** Any repository path (either separator), its memdir unknown. */
export function pathKind(path: string): PathKind {
  const p = path.replace(/\\/g, '/');
  const name = basename(p);
  if (name === INDEX_FILE || name === ARCHIVE_INDEX) return 'index';
  if (ANY_LOG.test(p)) return 'log';
  if (/\.md$/i.test(name)) return 'topic';
  return 'other';
}

const README_RE = /^(readme|runbook|setup|install|changelog|contributing|license|notes|todo|handoff|session[-_ ]?handoff|agents|claude)(\.[\w-]+)?\.md$/i;

// A name in capitals (SCHEMA.md, CONVENTIONS.md, DEPLOY_GUIDE.md) is how people name a document
// beside code; Claude Code names the memories it writes by type and topic, in lower case.
const CAPITALS_RE = /^[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)*\.md$/;

/** Files that look like documentation rather than a memory: by name, or a name in capitals. */
export function isReadmeLike(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return README_RE.test(base) || (CAPITALS_RE.test(base) && base !== INDEX_FILE && base !== ARCHIVE_INDEX);
}

const NAMES_MARKDOWN_FILE = /[\w.-]\.md\b/i;
const POINTS_AWAY = /\b(?:deleted|removed|merged|moved|superseded|replaced|retired|deprecated|obsolete|redirect(?:s|ed)?|see|now in|lives? in)\b|→|->|=>/i;

/**
 * A tombstone or a redirect: a file without frontmatter whose whole text (at most three lines) says
 * it is gone or lives elsewhere and names the Markdown file that holds it ("Merged into
 * MEMORY.md.", "Superseded by project_auth_v2.md"). What a memory was, not a memory: the file it
 * names is where the knowledge is.
 */
export function isPointerStub(text: string): boolean {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0 || lines.length > 3 || lines[0] === '---') return false;
  const body = lines.join(' ');
  return body.length <= 300 && NAMES_MARKDOWN_FILE.test(body) && POINTS_AWAY.test(body);
}

/**
 * A memory file its template left unfilled: frontmatter, and a body of nothing but HTML comments
 * (a writer's instructions, "fill in when this agent first works here") and blank lines. No memory
 * yet: an index entry would point the agent at an empty note. (A body left empty is not one: a
 * short memory may say all it knows in its description.)
 */
export function isUnfilledStub(body: string): boolean {
  return body.includes('<!--') && body.replace(/<!--[\s\S]*?-->/g, '').trim() === '';
}

const SKILL_FILE = /(?:^|\/)SKILL\.md$/i;
const ARCHIVED_RE = /(?:^|\/)[._]?archived?\//i;

/**
 * A Markdown file of the memdir that is not a memory: README.md, another README-like file
 * (notes.md, handoff.md, …) without a memory type (frontmatter-yaml tells it to leave the folder),
 * a skill's files (SKILL.md, anything under a skills/ folder), and a file without frontmatter in a
 * subfolder. Claude Code writes its memories at the top of the folder (team/ memories too carry
 * frontmatter); what an agent or a person keeps in a subfolder with none (a review agent's
 * per-check records, copied specifications) is material beside the memories. A file in a folder
 * named archive (`archive/`, `_archive/`, `.archive/`, `archived/`) was set aside by its writer.
 * No index entry is ever written for one, and none is asked for.
 */
export function notAMemory(rel: string, type: unknown, hasFrontmatter = true): boolean {
  if (/^readme(?:\.[\w-]+)?\.md$/i.test(rel.split('/').pop()!)) return true;
  if (isReadmeLike(rel) && !isMemoryType(type)) return true;
  if (!hasFrontmatter && rel.includes('/')) return true;
  if (ARCHIVED_RE.test(rel)) return true;
  return isSkillFile(rel);
}

/**
 * A skill's file: a SKILL.md, or anything under a skills/ folder. Claude Code 2.1.332 shares skills
 * through team memory (`team/<mount>/skills/<skill-name>/SKILL.md`): a skill's frontmatter is a
 * skill's (name, description, capability keys), never a memory type.
 */
export function isSkillFile(rel: string): boolean {
  return SKILL_FILE.test(rel) || /(?:^|\/)skills\//i.test(rel);
}
