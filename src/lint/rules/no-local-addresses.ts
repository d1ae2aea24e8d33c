import { bodyStart } from '../content-scan.js';
import { findLocalAddresses, mayHoldLocalAddress } from '../local-addresses.js';
import type { Rule } from '../types.js';
import { positionAt } from '../positions.js';

/**
 * no-local-addresses: shared memory should not carry one person's machine. A home folder path
 * (`/Users/ana/…`, `C:\Users\ana\…`, `/home/ana/…`) names a teammate's account and works on no
 * one else's machine; a private IP address (10.x, 172.16–31.x, 192.168.x) names a host on some
 * office or home network. Both leak who and where into every teammate's session, and both are
 * wrong for the next reader. Placeholders and the default users of CI runners, containers and
 * cloud images (`/home/runner`, `/home/ubuntu`, `/Users/you`) are fine.
 *
 * A warning of its own, not part of no-secrets: neither is a credential (nothing to rotate), and
 * a team may keep its servers' addresses on purpose (switch the rule off, or disable it inline).
 *
 * Certainty: medium.
 */
export const noLocalAddresses: Rule = {
  id: 'no-local-addresses',
  description: 'No home folder paths or private IP addresses: they name one person\'s machine or network',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'medium',
  docs: {
    ok: 'The export script is scripts/export.sh; run it from the repository root.\n',
    notOk: 'Run /Users/ana/work/ledger/scripts/export.sh against 192.168.1.20.\n',
    notOkOutput: "6:5: home folder path \"/Users/ana…\" names one person's machine: write the path from the repository root, or ~/…\n6:54: private IP address 192.168.1.20 names a host on one network: name the host or its role instead",
  },
  check(ctx) {
    const text = ctx.file.text;
    if (!mayHoldLocalAddress(text)) return;
    const from = bodyStart(text);
    for (const a of findLocalAddresses(text)) {
      if (a.start < from) continue;
      const at = positionAt(ctx, a.start);
      const message =
        a.kind === 'home-path'
          ? `home folder path "${a.value}…" names one person's machine: write the path from the repository root, or ~/…`
          : `private IP address ${a.value} names a host on one network: name the host or its role instead`;
      ctx.report({ message, line: at.line, column: at.column });
    }
  },
};
