// SARIF 2.1.0, for code scanning in CI. Written one result at a time (the same bytes as one
// JSON.stringify(sarif, null, 2)): a whole run's results as one object tree does not fit in memory.
import { pathToFileURL } from 'node:url';
import type { FileResult, LintMessage } from '../engine.js';
import type { Rule } from '../types.js';
import { INPUT_PROBLEM_ID } from './output.js';
import { slashRelative } from '../../fs/paths.js';

/** Where each result sits in the pretty-printed document: $.runs[0].results[i]. */
const RESULT_INDENT = ' '.repeat(8);

function resultJson(m: LintMessage, uri: string, ruleIndex: Map<string, number>): string {
  const result = {
    ruleId: m.ruleId ?? INPUT_PROBLEM_ID,
    ...(m.ruleId && ruleIndex.has(m.ruleId) ? { ruleIndex: ruleIndex.get(m.ruleId) } : {}),
    level: m.severity === 2 ? 'error' : 'warning',
    message: { text: m.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
          region: { startLine: m.line, startColumn: m.column, ...(m.endLine ? { endLine: m.endLine } : {}), ...(m.endColumn ? { endColumn: m.endColumn } : {}) },
        },
      },
    ],
  };
  return RESULT_INDENT + JSON.stringify(result, null, 2).replace(/\n/g, `\n${RESULT_INDENT}`);
}

/**
 * A relative path as a URI reference (RFC 3986, which SARIF 2.1.0 §3.4 asks of `uri`): each segment
 * percent-encoded, so a space or a non-ASCII letter is valid, `#` and `?` do not start a fragment or
 * a query, `%` is not read as an escape and a `:` in the first segment is not a scheme.
 */
export function uriReference(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Paths are relative to `root` (the repository's top, else the working directory), named as %SRCROOT%. */
export function* sarifChunks(results: FileResult[], rules: Rule[], opts: { root: string; version: string }): Generator<string> {
  const used = new Set<string>();
  for (const r of results) for (const m of r.messages) if (m.ruleId) used.add(m.ruleId);
  const ruleList = rules.filter((r) => used.has(r.id));
  const ruleIndex = new Map(ruleList.map((r, i) => [r.id, i]));
  const skeleton = JSON.stringify(
    {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'memlint',
              version: opts.version,
              informationUri: 'https://www.npmjs.com/package/memlint',
              rules: ruleList.map((r) => ({
                id: r.id,
                shortDescription: { text: r.description },
                defaultConfiguration: { level: r.defaultSeverity === 'error' ? 'error' : 'warning' },
                properties: { certainty: r.certainty, fixable: r.fixable },
              })),
            },
          },
          originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(opts.root).href.replace(/\/?$/, '/')}` } },
          results: [],
        },
      ],
    },
    null,
    2,
  );
  const slot = skeleton.lastIndexOf('"results": []');
  yield skeleton.slice(0, slot);
  let first = true;
  for (const r of results) {
    const uri = uriReference(slashRelative(opts.root, r.filePath));
    for (const m of r.messages) {
      yield `${first ? '"results": [\n' : ',\n'}${resultJson(m, uri, ruleIndex)}`;
      first = false;
    }
  }
  yield first ? '"results": []' : '\n      ]';
  yield skeleton.slice(slot + '"results": []'.length);
}

