// git's own line merge, in a module of its own: the merge driver loads it for a file it cannot
// merge by kind, and nothing else of the git layer.
import { gitSync } from './run.js';
import type { GitContext } from './repo.js';

/**
 * git's own line merge (`git merge-file -p`): the merged text of three files and the number of
 * conflicts. Throws a GitError when git refuses (binary input, unreadable file).
 */
export function mergeFile(
  at: GitContext,
  files: { ours: string; base: string; theirs: string },
  opts: { markerSize?: number; labels?: [ours: string, base: string, theirs: string]; style?: 'merge' | 'diff3' | 'zdiff3' } = {},
): { output: Buffer; conflicts: number } {
  const labels = opts.labels ?? ['ours', 'base', 'theirs'];
  const style = opts.style && opts.style !== 'merge' ? [`--${opts.style}`] : [];
  const args = ['merge-file', '-p', ...style, `--marker-size=${opts.markerSize ?? 7}`, '-L', labels[0], '-L', labels[1], '-L', labels[2], files.ours, files.base, files.theirs];
  const okCodes = Array.from({ length: 128 }, (_, i) => i);
  const { stdout, code } = gitSync(args, { cwd: at.cwd, env: at.env, okCodes });
  return { output: stdout, conflicts: code };
}
