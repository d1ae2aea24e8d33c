// File names are data (docs/security.md): a name an index entry cannot spell so that it reads back as
// that same file is reported, and no fix or consolidation writes an entry for it (such an entry
// would never be recognised, and would be added again on every run).

/** Why a topic file's name cannot stand in an index entry, or null when it can. */
export function unsafeTopicName(rel: string): string | null {
  if (rel.includes('\n')) return 'holds a newline';
  if (rel.includes('\r')) return 'holds a carriage return';
  // An escape, a NUL, a zero-width or direction mark: a terminal or an editor shows the entry as
  // something else, and what writes it may drop it (the entry then names no file).
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(rel)) return 'holds a control character';
  if (/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u.test(rel)) return 'holds an invisible or direction character';
  for (const part of rel.split('/')) {
    if (/^\s/.test(part)) return 'starts with whitespace';
    if (/\s$/.test(part)) return 'ends with whitespace';
  }
  return null;
}
