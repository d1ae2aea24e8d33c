// File names are data (docs/security.md): a name an index entry cannot spell so that it reads back as
// that same file is reported, and no fix or consolidation writes an entry for it (such an entry
// would never be recognised, and would be added again on every run).

/** Why a topic file's name cannot stand in an index entry, or null when it can. */
export function unsafeTopicName(rel: string): string | null {
  if (rel.includes('\n')) return 'holds a newline';
  if (rel.includes('\r')) return 'holds a carriage return';
  for (const part of rel.split('/')) {
    if (/^\s/.test(part)) return 'starts with whitespace';
    if (/\s$/.test(part)) return 'ends with whitespace';
  }
  return null;
}
