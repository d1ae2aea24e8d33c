// Types for scripts/node-diff3-linear.mjs (the tests import it).
export const ORIGINAL_SCAN: string;
export const HALVING: string;
export function linearDiff3(source: string, file?: string): string;
export const esbuildPlugin: { name: string; setup(build: unknown): void };
export const vitePlugin: { name: string; enforce: 'pre'; transform(code: string, id: string): { code: string; map: null } | null };
