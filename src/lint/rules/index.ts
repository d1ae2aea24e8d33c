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
import { noConflictMarkers } from './no-conflict-markers.js';
import { contentRules } from './content.js';
import { noMemoryLoss } from './no-memory-loss.js';

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
  noConflictMarkers,
];

export const allRules: Rule[] = [...structuralRules, ...contentRules, noMemoryLoss];
