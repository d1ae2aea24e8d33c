// Minimal glob matching for config `ignore` (Node 20 has no path.matchesGlob):
// `**` any number of folders, `*` anything but '/', `?` one character, `{a,b}` alternatives.
export function globToRegExp(glob: string): RegExp {
  let re = '';
  // gitignore habits: a leading '/' anchors at the config's folder, a trailing '/' names a folder.
  const rooted = glob.startsWith('/');
  const g = glob.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*') {
      if (g[i + 1] === '*') {
        const slash = g[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const close = g.indexOf('}', i);
      if (close < 0) re += '\\{';
      else {
        re += `(?:${g.slice(i + 1, close).split(',').map(escape).join('|')})`;
        i = close;
      }
    } else re += escape(c);
  }
  // A pattern without a slash matches at any depth, like .gitignore.
  const anchored = g.includes('/') || rooted ? `^${re}` : `(?:^|/)${re}`;
  return new RegExp(`${anchored}(?:/.*)?$`);
}

function escape(s: string): string {
  return s.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

export function matcher(globs: string[] | undefined): (relPath: string) => boolean {
  if (!globs || globs.length === 0) return () => false;
  const res = globs.map(globToRegExp);
  return (p) => res.some((r) => r.test(p));
}
