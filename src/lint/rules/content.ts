// The content rules (secrets, hidden text, injection, dates, feedback structure, derivable
// content, judgements), registered here by their own module each.
import type { Rule } from '../types.js';

export const contentRules: Rule[] = [];
