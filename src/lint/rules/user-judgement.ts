import { bodyStart, inRanges, isQuoted, lineOf } from '../content-scan.js';
import { inlineCodeRanges } from '../../memdir/lines.js';
import { codeLineSet } from '../../memdir/blocks.js';
import type { Rule } from '../types.js';

/**
 * user-judgement: Claude Code's guidance for user memories: "Avoid writing memories about the user
 * that could be viewed as a negative judgement or that are not relevant to the work you're trying
 * to accomplish together." Memory committed to git is read by teammates and their agents. Flags
 * negative judgements of the user (or a named he/she) in English and Chinese: "the user is
 * lazy", "doesn't read the docs", "用户很粗心", "水平一般". Facts about knowledge ("new to
 * React", "prefers short answers") are not judgements.
 *
 * Certainty: medium (a warning).
 */
export const userJudgement: Rule = {
  id: 'user-judgement',
  description: 'No negative judgements about the user',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['topic', 'index'],
  certainty: 'medium',
  docs: {
    ok: '---\nname: Role\ndescription: Backend engineer, new to React\ntype: user\n---\nBackend engineer; new to React, so explain component lifecycles.\n',
    notOk: '---\nname: Role\ndescription: The user\ntype: user\n---\nThe user is lazy and never reads the docs.\n',
    notOkOutput: '6:1: negative judgement about the user ("The user is lazy"): record what helps the work (role, preferences, knowledge), not opinions of the person',
  },
  check(ctx) {
    const text = ctx.file.text;
    if (!PREFILTER.test(text)) return;
    const lower = text.toLowerCase();
    if (!NEGATIVE_WORDS.some((w) => lower.includes(w))) return;
    const candidates = JUDGEMENTS.filter((re) => re.test(text));
    if (candidates.length === 0) return;
    const lines = ctx.lines();
    const from = lineOf(ctx.lineOffsets(), bodyStart(text));
    const code = codeLineSet(ctx.blocks());
    for (let l = from; l <= lines.length; l++) {
      if (code.has(l)) continue;
      const line = lines[l - 1]!;
      let spans: Array<[number, number]> | undefined;
      for (const re of candidates) {
        const m = re.exec(line);
        if (!m) continue;
        if (inRanges((spans ??= inlineCodeRanges(line)), m.index, m.index + m[0].length) || isQuoted(line, m.index, m.index + m[0].length)) continue;
        ctx.report({ message: `negative judgement about the user ("${m[0].trim()}"): record what helps the work (role, preferences, knowledge), not opinions of the person`, line: l, column: m.index + 1 });
        break;
      }
    }
  },
};

const PREFILTER = /\b(?:user|he|she|they|him|her)\b|用户|他|她/i;

// Cheap test first: no negative word, no judgement.
const NEGATIVE_WORDS = [
  'lazy', 'careless', 'sloppy', 'incompetent', 'clueless', 'impatient', 'rude', 'annoying', 'stupid', 'dumb', 'arrogant', 'stubborn',
  'condescending', 'unreliable', 'hostile', 'unreasonable', 'demanding', 'needy', 'whiny', 'petty', 'irritable', 'grumpy', 'moody',
  'paranoid', 'useless', 'hopeless', 'ignorant', 'naive', 'gullible', 'forgetful', 'disorganized', 'scatterbrained', 'flaky',
  'difficult', 'hard to work', 'not very', 'not that', 'not too', 'not smart', 'not bright', 'not technical', 'not competent', 'not good', 'not skilled', 'not capable',
  ' at ', 'coder', 'programmer', 'engineer', 'developer', 'communicator', 'writer', 'confused', 'overreact', 'micromanag', 'control freak',
  "n't", 'not ', 'never', 'refuses', 'poor', 'weak', 'bad', 'terrible', 'awful', 'lacking', 'limited', 'shaky', 'mediocre', 'questionable', 'trust',
  '用户',
];

const SUBJECT = String.raw`\b(?:the\s+user|this\s+user|user|he|she)\b`;
const BE = String.raw`(?:\s+(?:is|was|seems|seemed|appears|appeared|can\s+be|tends\s+to\s+be|gets|got|has\s+been|is\s+being|is\s+kind\s+of|is\s+a\s+bit|is\s+pretty|is\s+quite|is\s+very|is\s+really|is\s+so|is\s+often|is\s+always|is\s+generally))+`;
const ADJ = String.raw`(?:\s+(?:very|really|quite|pretty|a\s+bit|kind\s+of|somewhat|extremely|so|too|rather|fairly|often|always|easily))*\s+(?:lazy|careless|sloppy|incompetent|clueless|impatient|rude|annoying|stupid|dumb|arrogant|stubborn|condescending|unreliable|hostile|unreasonable|demanding|needy|whiny|petty|irritable|grumpy|moody|paranoid|useless|hopeless|ignorant|naive|gullible|forgetful|disorganized|scatterbrained|flaky|difficult(?:\s+to\s+work\s+with)?|hard\s+to\s+work\s+with|not\s+(?:very\s+|that\s+|too\s+)?(?:smart|bright|technical|competent|good\s+at\s+\w+|skilled|capable)|bad\s+at|terrible\s+at|awful\s+at|hopeless\s+at|weak\s+at|a\s+(?:bad|poor|weak|terrible|mediocre|sloppy|lazy)\s+(?:coder|programmer|engineer|developer|communicator|writer)|confused\s+easily|easily\s+confused|overreacting|micromanaging|a\s+micromanager|a\s+control\s+freak)\b`;

const JUDGEMENTS: RegExp[] = [
  new RegExp(`${SUBJECT}${BE}${ADJ}`, 'i'),
  new RegExp(`${SUBJECT}\\s+(?:doesn't|does\\s+not|don't|can't|cannot|never|won't|refuses\\s+to)\\s+(?:really\\s+|even\\s+|actually\\s+|bother\\s+to\\s+)?(?:read\\s+(?:the\\s+)?(?:docs|documentation|instructions|error\\s+messages)|listen|pay\\s+attention|think\\s+before|understand\\s+(?:anything|basic|the\\s+basics|simple)|know\\s+what\\s+(?:he|she|they)\\s+(?:is|are)\\s+doing|code|write\\s+tests|test\\s+(?:his|her|their)\\s+code|care\\s+about\\s+quality)`, 'i'),
  new RegExp(`${SUBJECT}(?:'s|’s)\\s+(?:code|work|skills?|understanding|knowledge|english|writing|judgement|judgment|attitude|temper)(?:\\s+(?:on|about|in|of|with)\\s+[^.;,]{1,30}?)?\\s+(?:is|are)\\s+(?:very\\s+|really\\s+|quite\\s+|pretty\\s+)?(?:poor|weak|bad|sloppy|terrible|awful|lacking|limited|shaky|mediocre|questionable|unreliable)`, 'i'),
  /\b(?:don't|do\s+not|never)\s+trust\s+(?:the\s+)?user(?:'s|’s)?\s+(?:judgement|judgment|claims|word|estimates|opinions?)/i,
  /用户(?:这个人)?(?:做事|写代码|干活|工作|沟通|说话|态度)?(?:很|比较|太|有点|有些|非常|特别|总是|经常|一向|真的|挺)?(?:懒|粗心|马虎|急躁|暴躁|不耐烦|笨|蠢|傻|菜|不靠谱|靠不住|难搞|难缠|难沟通|固执|啰嗦|无知|幼稚|脾气(?:很|比较)?(?:差|坏|大|不好))/,
  /用户(?:的)?(?:(?:技术|代码|英语|编程)(?:水平|能力)?|水平|能力)(?:很|太|比较|非常|实在)?(?:一般|差|烂|低|弱|不行|堪忧|有限)/,
  /用户(?:根本|完全|从来|总是)(?:不|没)(?:懂|会|理解|看|读|听|测试)/,
];
