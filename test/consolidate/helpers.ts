// Building plan inputs for the pure steps: a memdir as texts and the repository facts as data.
import type { ConsolidateFacts, MemState, StepContext } from '../../src/consolidate/types.js';

export function facts(over: Partial<ConsolidateFacts> = {}): ConsolidateFacts {
  return {
    today: '2026-11-29',
    inGit: true,
    lineDates: () => [],
    firstCommitTimes: () => new Map(),
    lastCommitDates: () => new Map(),
    deletions: () => new Map(),
    lostPaths: () => new Map(),
    notCheckedOut: () => new Set(),
    ...over,
  };
}

export function ctx(over: Partial<StepContext> = {}, factsOver: Partial<ConsolidateFacts> = {}): StepContext {
  return {
    facts: facts(factsOver),
    allPaths: new Set(),
    archivePaths: new Set(),
    memdirLabel: '.claude/memory',
    staleDays: 90,
    prune: false,
    ...over,
  };
}

export function state(files: Record<string, string>, archive: Record<string, string> = {}): MemState {
  return { files: new Map(Object.entries(files)), archive: new Map(Object.entries(archive)), moves: [] };
}

export function topic(name: string, type: string, description: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n${extra}---\n\n${body}`;
}

/** Every non-blank line of `from`, trimmed. */
export function contentLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== '---');
}
