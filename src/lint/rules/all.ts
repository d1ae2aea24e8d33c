// Every rule memlint knows, in the order they are documented.
import type { Rule } from '../types.js';
import { frontmatterYaml } from './frontmatter-yaml.js';
import { frontmatterRequired } from './frontmatter-required.js';
import { frontmatterType } from './frontmatter-type.js';
import { indexEntryFormat } from './index-entry-format.js';
import { indexLineLength } from './index-line-length.js';
import { indexMaxLines } from './index-max-lines.js';
import { indexMaxBytes } from './index-max-bytes.js';
import { indexLinkTarget } from './index-link-target.js';
import { indexDuplicate } from './index-duplicate.js';
import { indexOrphan } from './index-orphan.js';
import { maxTopicFiles } from './max-topic-files.js';
import { maxPinned } from './max-pinned.js';
import { topicRecallLimit } from './topic-recall-limit.js';
import { noConflictMarkers } from './no-conflict-markers.js';
import { noSecrets } from './no-secrets.js';
import { noHiddenUnicode } from './no-hidden-unicode.js';
import { noPromptInjection } from './no-prompt-injection.js';
import { absoluteDates } from './absolute-dates.js';
import { feedbackStructure } from './feedback-structure.js';
import { noDerivableContent } from './no-derivable-content.js';
import { userJudgement } from './user-judgement.js';
import { noLocalAddresses } from './no-local-addresses.js';
import { noMemoryLoss } from './no-memory-loss.js';
import { privateMemory } from './private-memory.js';
import { noStaleReference } from './no-stale-reference.js';

export const structuralRules: Rule[] = [
  frontmatterYaml,
  frontmatterRequired,
  frontmatterType,
  indexEntryFormat,
  indexLineLength,
  indexMaxLines,
  indexMaxBytes,
  indexLinkTarget,
  indexDuplicate,
  indexOrphan,
  maxTopicFiles,
  maxPinned,
  topicRecallLimit,
  noConflictMarkers,
];

// The content rules: secrets, hidden text, injection, dates, feedback structure, derivable
// content, judgements, one person's machine, what the code no longer holds.
export const contentRules: Rule[] = [noSecrets, noHiddenUnicode, noPromptInjection, absoluteDates, feedbackStructure, noDerivableContent, userJudgement, noLocalAddresses, noStaleReference];

export const allRules: Rule[] = [...structuralRules, ...contentRules, noMemoryLoss, privateMemory];
