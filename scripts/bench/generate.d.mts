// Types for the benchmark generator (plain ESM, run by Node without a build step), for the tests.
export declare const GENERATOR_VERSION: number;
export declare const MEMDIR_REL: string;
export interface Random {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  hex(n: number): string;
}
export declare function createRandom(seed: string | number): Random;
export declare function generateMemdir(options: { seed: string | number; topics: number; logDays?: number; endDate?: string }): Map<string, string>;
export declare function generateRepoFiles(options: { seed: string | number; count: number }): Map<string, string>;
export declare function writeTree(dir: string, files: Map<string, string>): void;
export declare function git(cwd: string, args: string[], input?: string): string;
export declare function initRepo(dir: string): void;
export declare function cached(root: string, name: string, build: (tmpDir: string) => void): string;
export declare function ensureMemdirRepo(root: string, options: { seed: string | number; topics: number; logDays?: number }): string;
export declare function ensureLargeRepo(root: string, options: { seed: string | number; count: number; topics: number; logDays: number }): string;
