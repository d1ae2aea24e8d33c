// topicReferences finds each tag's place (a label at the entry's edge, or part of the sentence)
// without reading the text before and after every tag again: the same answers as reading them
// again (the function as it stood, kept here), on entries of tags, words, punctuation and time
// stamps.
import fc from 'fast-check';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { topicReferences } from '../../src/consolidate/logs.js';
import { normalizeTarget } from '../../src/memdir/memory-index.js';

const LINK_RE = /\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const TAG_RE = /\[([A-Za-z0-9][\w.-]*)\](?![([:])/g;
const TAGS_ONLY = String.raw`(?:\s|[.,;:!?()|—–-]|\[\[?[A-Za-z0-9][\w.-]*\]\]?|(?:\*\*|__)?\[?\d{1,2}:\d{2}(?::\d{2})?\]?(?:\*\*|__)?)*`;
const EDGE = new RegExp(`^${TAGS_ONLY}$`);

function referenceTopicReferences(text: string, logRel: string, topics: Set<string>, slugs: Map<string, string> = new Map()): { topics: string[]; cleaned: string } {
  const found: string[] = [];
  const resolve = (target: string): string | undefined => {
    const key = normalizeTarget(target);
    if (!key.endsWith('.md') || /^[a-z][a-z0-9+.-]*:/i.test(key)) return undefined;
    const fromLog = posix.normalize(posix.join(posix.dirname(logRel), key));
    if (topics.has(fromLog)) return fromLog;
    if (topics.has(key)) return key;
    return undefined;
  };
  let cleaned = text.replace(LINK_RE, (whole, label: string, target: string) => {
    const topic = resolve(target);
    if (!topic) return whole;
    found.push(topic);
    return label;
  });
  // A tag that labels the entry (before or after its words) goes with the entry into the topic; one
  // inside the sentence ("see [[rounding]] first") is part of what it says and stays.
  // A tag between the words and the sentence's closing punctuation ("see [[rounding]].", "saved a
  // memory: [[rounding]].") is what the sentence names: taking it out would leave "see." behind.
  const closes = (before: string, after: string) => /^\s*[.,;:!?]/.test(after) && /[\p{L}\p{N}:'"’”)]\s*$/u.test(before);
  const label = (all: string, offset: number, whole: string) => {
    const before = all.slice(0, offset);
    const after = all.slice(offset + whole.length);
    return EDGE.test(before) || (EDGE.test(after) && !closes(before, after));
  };
  cleaned = cleaned.replace(/\[\[([A-Za-z0-9][\w.-]*)\]\]/g, (whole, tag: string, offset: number, all: string) => {
    // [[name]] names the other memory's `name` slug (Claude Code 2.1.139 on), else its file.
    const topic = slugs.get(tag) ?? resolve(tag.endsWith('.md') ? tag : `${tag}.md`);
    if (!topic) return whole;
    found.push(topic);
    return label(all, offset, whole) ? '' : whole;
  });
  cleaned = cleaned.replace(TAG_RE, (whole, tag: string, offset: number, all: string) => {
    const topic = resolve(tag.endsWith('.md') ? tag : `${tag}.md`);
    if (!topic) return whole;
    found.push(topic);
    return label(all, offset, whole) ? '' : whole;
  });
  cleaned = cleaned
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .replace(/^\s*(?:[-—–:|]\s*)+/, '')
    .trim();
  return { topics: [...new Set(found)], cleaned };
}


const part = fc.constantFrom('[[a]]', '[[b]]', '[[zz]]', '[[q]]', '[q]', 'x', '[a]', '[b]', '[a.md]', '[[b.md]]', '[', ']', '[[', ']]', '[[[a]]]', '[[a]]]', '[12:30]', '**09:14**', '10:30:45', ' ', '  ', '\t', '.', ',', ':', '—', '-', '|', '(', ')', 'see', 'the db', 'é', '日本', "it's", '”', '[x](a.md)', '[y](b.md)', '[z](c.md)', '_', '**');
const entry = fc.array(part, { maxLength: 24 }).map((parts) => parts.join(''));

describe('topicReferences', () => {
  it('labels and keeps the tags as reading the text before and after each again did (property)', () => {
    const topics = new Set(['a.md', 'b.md', 'logs/2026/04/c.md']);
    const slugs = new Map([['zz', 'a.md']]);
    fc.assert(
      fc.property(entry, (text) => {
        expect(topicReferences(text, 'logs/2026/04/2026-04-27.md', topics, slugs)).toEqual(referenceTopicReferences(text, 'logs/2026/04/2026-04-27.md', topics, slugs));
      }),
      { numRuns: 20000 },
    );
  });
});
