// Types for scripts/micromark-linear.mjs (the tests import it).
export const ORIGINAL: string;
export const LINEAR: string;
export function linearText(source: string, file?: string): string;
export const ORIGINAL_MOVE: string;
export const TAIL_MOVE: string;
export function tailMoveDocument(source: string, file?: string): string;
export const ORIGINAL_CODE_TEXT: string;
export function linearCodeText(source: string, file?: string): string;
export function linkedStack(source: string, file?: string): string;
export const esbuildPlugin: { name: string; setup(build: unknown): void };
export const vitePlugin: { name: string; enforce: 'pre'; resolveId(id: string): string | null; transform(code: string, id: string): { code: string; map: null } | null };
