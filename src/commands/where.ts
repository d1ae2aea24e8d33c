// Placeholder until the command lands; see the open issue that covers it.
import { UsageError } from '../errors.js';

export async function run(_argv: string[]): Promise<number> {
  throw new UsageError('"where" is not available in this build yet');
}
