// secretlint drops a message equal to a later one (same range, severity and message) with
// `messages.filter((m, i) => !messages.slice(i + 1).some(...))`: a copy of the rest of the list and
// a scan of it for every message, time quadratic in their number (a 1 MB topic of 11,000 tokens:
// 6 s in that function alone). The build replaces its body with filterDuplicatedMessages below,
// which keeps the same messages in the same order in one pass; the build stops if secretlint's
// function ever reads differently.
import { sourcePatchPlugins } from './source-patch.mjs';

export const ORIGINAL_BODY = `export function filterDuplicatedMessages(messages = []) {
    return messages.filter((message, index) => {
        const restMessages = messages.slice(index + 1);
        return !restMessages.some((restMessage) => {
            return isEqualMessage(message, restMessage);
        });
    });
}`;

/**
 * The messages, without each one that a later message equals as secretlint's isEqualMessage
 * reads equality: both have a severity, and range, severity and message are the same (===).
 */
export function filterDuplicatedMessages(messages = []) {
  const later = new Map();
  const keep = new Array(messages.length);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!('severity' in m)) {
      keep[i] = true;
      continue;
    }
    // Keyed by the range; the few messages sharing one are compared as secretlint compares them.
    const key = `${String(m.range[0])}:${String(m.range[1])}`;
    const same = later.get(key);
    keep[i] = !same || !same.some((o) => o.range[0] === m.range[0] && o.range[1] === m.range[1] && o.severity === m.severity && o.message === m.message);
    if (same) same.push(m);
    else later.set(key, [m]);
  }
  return messages.filter((_, i) => keep[i]);
}

const FILE = /[\\/]@secretlint[\\/]core[\\/]module[\\/]messages[\\/]filter-duplicated-process\.js$/;

/** secretlint's filter-duplicated-process.js with the one-pass filter; throws when its function is not as expected. */
export function linearSecretlint(source, file = 'filter-duplicated-process.js') {
  const at = source.indexOf(ORIGINAL_BODY);
  if (at < 0 || source.indexOf(ORIGINAL_BODY, at + 1) >= 0) throw new Error(`${file}: the duplicate filter is not the one scripts/secretlint-linear.mjs replaces (secretlint changed?)`);
  return source.replace(ORIGINAL_BODY, `export ${filterDuplicatedMessages.toString()}`);
}

// For the bundles, and for vitest, which must transform the package to patch it (the configs inline
// it), so the tests run what the bundles ship.
export const { esbuildPlugin, vitePlugin } = sourcePatchPlugins('secretlint-linear', FILE, linearSecretlint);
