// Which git hook a run serves: a config memlint cannot use costs a hook one line and git goes on
// (src/cli.ts; the pre-commit and pre-push hooks still check conflict markers and secrets with the
// default settings), where a command run by hand exits 2.

/**
 * The git hook this run serves, or null: the hooks memlint installs name themselves in
 * MEMLINT_HOOK (hooks/), and `consolidate --pre-push` / `--post-commit` are hook modes whatever
 * started them (hooks installed before MEMLINT_HOOK was set).
 */
export function hookOf(argv: string[], env: NodeJS.ProcessEnv): string | null {
  const named = env.MEMLINT_HOOK;
  if (named && /^[a-z-]{1,40}$/.test(named)) return named;
  if (argv[0] === 'consolidate') {
    if (argv.includes('--pre-push')) return 'pre-push';
    if (argv.includes('--post-commit')) return 'post-commit';
  }
  return null;
}
