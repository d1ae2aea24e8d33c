// Types for scripts/gray-matter-linear.mjs (the tests import it).
export const ORIGINAL_CALL: string;
export function withoutYamlComments(text: string): string;
export function linearGrayMatter(source: string, file?: string): string;
export const esbuildPlugin: { name: string; setup(build: unknown): void };
