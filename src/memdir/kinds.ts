// What a memory file is, by its path.

const README_RE = /^(readme|runbook|changelog|contributing|license|notes|todo|handoff|session[-_ ]?handoff|agents|claude)(\.[\w-]+)?\.md$/i;

/** Files that look like documentation rather than a memory. */
export function isReadmeLike(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return README_RE.test(base);
}
