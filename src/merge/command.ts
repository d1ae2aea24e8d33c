// The driver command that git config holds (`memlint install` writes it; docs/merge.md explains it).
//
// git runs it through `sh` in the top of the worktree being merged, so a relative path to the
// binary resolves in every linked worktree on its own, and nothing absolute lands in the shared
// config. It starts the binary directly (no npx resolution). When memlint cannot start or fails
// before writing (exit 126/127 from the shell, 2 from memlint, a signal), git's own line merge
// runs instead: a missing driver's exit 127 would otherwise leave OURS in place with no markers.
// After memlint's own exit 0 or 1 nothing else runs.

export const DRIVER_NAME = 'memlint';
export const DRIVER_DESCRIPTION = "memlint: semantic merge of Claude Code memory (MEMORY.md, topic files, daily logs)";
/** The binary, relative to the worktree top, as npm installs it. */
export const DEFAULT_MEMLINT_BIN = 'node_modules/.bin/memlint';

export interface DriverCommandOptions {
  /** Shell words that start memlint, e.g. "node_modules/.bin/memlint" (never an absolute worktree path). */
  memlint?: string;
}

export function driverCommand(options: DriverCommandOptions = {}): string {
  const memlint = options.memlint ?? DEFAULT_MEMLINT_BIN;
  return `${memlint} merge %O %A %B %L %P; s=$?; [ $s -le 1 ] && exit $s; git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B`;
}

/** The git config keys and values that define the driver. */
export function driverConfig(options: DriverCommandOptions = {}): Array<[key: string, value: string]> {
  return [
    [`merge.${DRIVER_NAME}.name`, DRIVER_DESCRIPTION],
    [`merge.${DRIVER_NAME}.driver`, driverCommand(options)],
  ];
}

/** The .gitattributes lines that route a memdir's files to the driver. */
export function attributeLines(memdir: string): string[] {
  const dir = memdir.replace(/\\/g, '/').replace(/\/+$/, '');
  const prefix = dir === '' || dir === '.' ? '' : `${dir}/`;
  return [`${prefix}**/*.md merge=${DRIVER_NAME}`];
}
