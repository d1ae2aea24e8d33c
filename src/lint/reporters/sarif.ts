// SARIF 2.1.0, for code scanning in CI.
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileResult } from '../engine.js';
import type { Rule } from '../types.js';

/** Paths are relative to `root` (the repository's top, else the working directory), named as %SRCROOT%. */
export function formatSarif(results: FileResult[], rules: Rule[], opts: { root: string; version: string }): string {
  const used = new Set(results.flatMap((r) => r.messages.map((m) => m.ruleId).filter((x): x is string => !!x)));
  const ruleList = rules.filter((r) => used.has(r.id));
  const ruleIndex = new Map(ruleList.map((r, i) => [r.id, i]));
  const sarif = {
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
        results: results.flatMap((r) =>
          r.messages.map((m) => ({
            ruleId: m.ruleId ?? 'memlint-input',
            ...(m.ruleId && ruleIndex.has(m.ruleId) ? { ruleIndex: ruleIndex.get(m.ruleId) } : {}),
            level: m.severity === 2 ? 'error' : 'warning',
            message: { text: m.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: relative(opts.root, r.filePath).split(sep).join('/'), uriBaseId: '%SRCROOT%' },
                  region: { startLine: m.line, startColumn: m.column, ...(m.endLine ? { endLine: m.endLine } : {}), ...(m.endColumn ? { endColumn: m.endColumn } : {}) },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2);
}
