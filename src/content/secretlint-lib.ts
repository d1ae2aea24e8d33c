// secretlint's engine and recommended preset, one module loaded lazily (src/content/secrets.ts):
// the largest library memlint bundles, needed only for text that holds a secret's signal.
export { lintSource } from '@secretlint/core';
export { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
