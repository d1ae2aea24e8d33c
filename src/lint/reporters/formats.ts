// The report formats by name, on their own so that the launcher (dist/cli.js) reads them without
// loading a reporter. src/lint/reporters/table.ts maps each name to its reporter.
export const FORMATS = {
  stylish: { printsWhenEmpty: false },
  json: { printsWhenEmpty: true },
  sarif: { printsWhenEmpty: true },
  github: { printsWhenEmpty: false },
} as const satisfies Record<string, { printsWhenEmpty: boolean }>;

export type FormatName = keyof typeof FORMATS;

export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

export const DEFAULT_FORMAT: FormatName = 'stylish';

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}

/**
 * A format that prints nothing for a run with no messages (a person's format, or annotations);
 * the others, for machines, print a well-formed empty document (ESLint's json prints []).
 */
export function printsWhenEmpty(name: FormatName): boolean {
  return FORMATS[name].printsWhenEmpty;
}
