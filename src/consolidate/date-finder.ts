// The absolute-dates rule's date finder, adapted to the dates step's interface.
// Until src/lint/dates.ts lands the dates step is skipped (and says so).
import type { RelativeDateFinder } from './dates.js';

export async function loadDateFinder(): Promise<RelativeDateFinder | undefined> {
  return undefined;
}
