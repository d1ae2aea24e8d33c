// Types for the test of scripts/bench/profile.mjs (test/bench/profile.test.ts).
export function parseGitTrace(file: string): Array<{ argv: string; ms: number | null }>;
