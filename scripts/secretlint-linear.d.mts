// Types for scripts/secretlint-linear.mjs (the tests import it).
export const ORIGINAL_BODY: string;
export function filterDuplicatedMessages<T extends { range: readonly number[]; severity?: unknown; message?: unknown }>(messages?: T[]): T[];
export function linearSecretlint(source: string, file?: string): string;
export const esbuildPlugin: { name: string; setup(build: unknown): void };
export const vitePlugin: { name: string; enforce: 'pre'; transform(code: string, id: string): { code: string; map: null } | null };
