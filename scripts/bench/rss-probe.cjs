// Preloaded (NODE_OPTIONS=--require) only when /usr/bin/time is missing: each Node process
// appends its own peak resident set size in KB, as the kernel counts it, when it exits.
'use strict';
const file = process.env.MEMLINT_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      require('node:fs').appendFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // a probe must never change the outcome of the command it measures
    }
  });
}
