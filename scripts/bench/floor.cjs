// The floor under a start-up row: a Node start, then the git processes memlint ran for the same
// row (recorded with GIT_TRACE when the row was set up, scripts/bench/rows.mjs), one after the
// other through spawnSync, with their output read and dropped. Nothing memlint does besides its git
// calls is in it, so memlint / floor is memlint's own cost, and floor / `node -e 0` what no
// program asking git the same questions can go below on this machine.
'use strict';
const { readFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
for (const call of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  spawnSync('git', call.args, { stdio: [call.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], ...(call.input === undefined ? {} : { input: call.input }) });
}
