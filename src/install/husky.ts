// husky 9's layout: hooks are plain shell files in .husky/; `husky` (the prepare script) sets
// core.hooksPath=.husky/_ and writes a stub per hook into .husky/_/ (untracked, per worktree) that
// runs .husky/<hook> with node_modules/.bin on PATH, and skips everything when HUSKY=0.
// memlint install writes those stubs itself, with the same protocol: it never runs husky, since
// the husky it would find is a file in the working tree (a committed node_modules/husky/bin.js
// would run as the user installing).
import { existsSync } from 'node:fs';
import { writeInsideRepo } from '../fs/inside.js';
import { join } from 'node:path';

export const HOOKS_PATH = '.husky/_';
/** The hooks memlint installs (their scripts are in hooks/), and the memlint arguments each runs. */
export const MEMLINT_HOOKS: Record<string, string> = {
  'pre-commit': '--staged',
  'pre-push': 'consolidate --pre-push',
  'post-commit': 'consolidate --post-commit',
  'post-checkout': 'touch',
  'post-merge': 'touch',
  'post-rewrite': 'touch',
};
const HUSKY_HOOKS = ['pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-rebase', 'post-rewrite', 'post-checkout', 'post-merge', 'pre-push', 'pre-auto-gc'];
/** Marks stubs that memlint wrote itself (husky was not installed), so uninstall knows they are its own. */
export const OWN_STUBS_MARKER = '.memlint';

export function stubsPresent(root: string): boolean {
  const dir = join(root, HOOKS_PATH);
  return existsSync(join(dir, 'h')) && Object.keys(MEMLINT_HOOKS).every((h) => existsSync(join(dir, h)));
}

// The same protocol as husky 9's runner (husky's own replaces it when the prepare script runs husky).
// The hook's name and folders are cut from $0 by the shell itself, where husky's runs basename and
// dirname: git runs every hook in .husky/_ (14 of them, most with no script), and those were four
// more processes each time, on every commit, checkout and rebase step. git names a hook by a path
// (the hooks folder, a slash, the name), so $0 always holds a slash.
const RUNNER = `#!/usr/bin/env sh
# Hook runner written by "memlint install" as husky 9 writes its own; husky's replaces it when
# husky runs. Runs .husky/<hook> with node_modules/.bin on PATH.
[ "$HUSKY" = "2" ] && set -x
hook=\${0##*/}
dir=\${0%/*}
script=\${dir%/*}/$hook
[ -f "$script" ] || exit 0
init="\${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"
[ -f "$init" ] && . "$init"
[ "\${HUSKY-}" = "0" ] && exit 0
export PATH="node_modules/.bin:$PATH"
sh -e "$script" "$@"
code=$?
[ $code != 0 ] && echo "husky - $hook script failed (code $code)"
[ $code = 127 ] && echo "husky - command not found in PATH=$PATH"
exit $code
`;

// Written through the safe-path layer (src/fs/inside.ts): never through a symlinked .husky.
export function writeOwnStubs(root: string): void {
  const dir = join(root, HOOKS_PATH);
  writeInsideRepo(root, join(dir, '.gitignore'), '*', { mkdir: true });
  writeInsideRepo(root, join(dir, 'h'), RUNNER, { mode: 0o755 });
  for (const h of HUSKY_HOOKS) writeInsideRepo(root, join(dir, h), '#!/usr/bin/env sh\n. "${0%/*}/h"\n', { mode: 0o755 });
  markOwnStubs(root);
}

/** Note that install created the stubs folder (it did not exist before), so uninstall may remove it. */
export function markOwnStubs(root: string): void {
  writeInsideRepo(root, join(root, HOOKS_PATH, OWN_STUBS_MARKER), 'created by memlint install; memlint uninstall removes this folder\n');
}
