// The hook scripts memlint installs, from the top-level hooks/ folder (hooks/README.md), bundled
// into dist/ as text by the build (and read as text by vitest): install never reads them from disk.
import preCommit from '../../hooks/pre-commit?raw';
import prePush from '../../hooks/pre-push?raw';
import postCommit from '../../hooks/post-commit?raw';
import postCheckout from '../../hooks/post-checkout?raw';
import postMerge from '../../hooks/post-merge?raw';
import postRewrite from '../../hooks/post-rewrite?raw';

/** Each hook memlint installs and its script, with the @find@ and @run@ placeholders (src/install/setup.ts hookScript). */
export const HOOK_SCRIPTS: Record<string, string> = {
  'pre-commit': preCommit,
  'pre-push': prePush,
  'post-commit': postCommit,
  'post-checkout': postCheckout,
  'post-merge': postMerge,
  'post-rewrite': postRewrite,
};
