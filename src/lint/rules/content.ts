// The content rules (secrets, hidden text, injection, dates, feedback structure, derivable
// content, judgements, one person's machine), registered here by their own module each.
import type { Rule } from '../types.js';
import { noSecrets } from './no-secrets.js';
import { noHiddenUnicode } from './no-hidden-unicode.js';
import { noPromptInjection } from './no-prompt-injection.js';
import { absoluteDates } from './absolute-dates.js';
import { feedbackStructure } from './feedback-structure.js';
import { noDerivableContent } from './no-derivable-content.js';
import { userJudgement } from './user-judgement.js';
import { noLocalAddresses } from './no-local-addresses.js';

export const contentRules: Rule[] = [noSecrets, noHiddenUnicode, noPromptInjection, absoluteDates, feedbackStructure, noDerivableContent, userJudgement, noLocalAddresses];
