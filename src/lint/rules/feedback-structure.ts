import type { Rule } from '../types.js';
import { codeLineSet } from '../../memdir/blocks.js';

/**
 * feedback-structure: Claude Code's body_structure for feedback and project memories: "Lead with
 * the rule itself, then a **Why:** line … and a **How to apply:** line". Knowing why lets a later
 * session judge edge cases instead of following the rule blindly; project memories decay fast,
 * and the why tells whether one is still load-bearing. Matches generously, as real memories
 * write it: `**Why:**`, `**Why**:`, `Why:`, `**Why**：`, `**Why this matters:**`, `## Why`,
 * `Reason:`, `**Root cause:**`; `**How to apply:**`, `## How to apply`, `**How:**`, `When to apply:`,
 * `**Lesson:**`, `Going forward:`; and Chinese (`为什么`, `原因`, `理由`, `根因`, `## …的根本原因`;
 * `如何应用`, `怎么用`, `适用`, `教训`, `今后`), Russian (`Почему`, `Причина`; `Как применять`),
 * Korean (`이유`; `적용 방법`) and Japanese (`理由`, `なぜ`; `適用方法`). Also warns when the body opens with
 * the Why line instead of the rule.
 *
 * Certainty: medium (a memory may carry its reason in prose).
 */
export const feedbackStructure: Rule = {
  id: 'feedback-structure',
  description: 'Feedback and project memories lead with the rule, then **Why:** and **How to apply:**',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'medium',
  docs: {
    ok: '---\nname: Real database in tests\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database, not mocks.\n\n**Why:** mocked tests passed while a migration broke prod.\n\n**How to apply:** any test under tests/integration.\n',
    notOk: '---\nname: Real database in tests\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database, not mocks.\n',
    notOkOutput: '6:1: feedback memory without a **Why:** line (the reason) and a **How to apply:** line (when it applies): lead with the rule, then add them',
  },
  check(ctx) {
    const topic = ctx.memdir.parsedTopic(ctx.file);
    const type = typeof topic.type === 'string' ? topic.type.trim().toLowerCase() : '';
    if (type !== 'feedback' && type !== 'project') return;
    const lines = ctx.lines();
    const first = topic.bodyLine;
    let whyLine = 0;
    let howLine = 0;
    let firstText = 0;
    const model = ctx.blocks();
    const code = codeLineSet(model);
    for (let l = first; l <= lines.length; l++) {
      const text = lines[l - 1]!;
      if (code.has(l) || text.trim() === '') continue;
      if (!firstText && model.lines[l - 1]!.kind !== 'heading') firstText = l;
      if (!whyLine && WHY.test(text)) whyLine = l;
      else if (!howLine && HOW.test(text)) howLine = l;
    }
    if (!firstText) return;
    const missing = [!whyLine && '**Why:**', !howLine && '**How to apply:**'].filter(Boolean);
    if (missing.length > 0) {
      const what = missing.length === 2 ? 'a **Why:** line (the reason) and a **How to apply:** line (when it applies)' : missing[0] === '**Why:**' ? 'a **Why:** line (the reason behind it)' : 'a **How to apply:** line (when and where it applies)';
      ctx.report({ message: `${type} memory without ${what}: lead with the ${type === 'feedback' ? 'rule' : 'fact'}, then add ${missing.length === 2 ? 'them' : 'it'}`, line: firstText, column: 1 });
    } else if (whyLine === firstText && WHY_LEADS.test(lines[whyLine - 1]!)) {
      ctx.report({ message: `${type} memory opens with its **Why:** line: lead with the ${type === 'feedback' ? 'rule' : 'fact'} itself`, line: firstText, column: 1 });
    }
  },
};

// A label at the start of a line (list marker, heading, bold allowed), followed by a colon, or a
// heading (numbered or lettered, "## F. How to apply", and up to a sentence long).
const label = (words: string) =>
  new RegExp(
    `^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+)?(?:>\\s*)?(?:(?:#{1,6}\\s*)(?:\\*\\*|__)?\\s*(?:(?:\\d{1,3}|[A-Za-z])[.)]\\s+)?(?:${words})(?![a-z])[^\\n]{0,80}$|(?:\\*\\*|__|\\*|_)?\\s*(?:${words})(?![a-z])[^\\n:：]{0,60}?(?:\\*\\*|__|\\*|_)?\\s*[:：])`,
    'iu',
  );

const WHY_WORDS = 'why|reasoning|reason|reasons|rationale|because|motivation|context|root cause|root causes|cause|为什么|原因|理由|缘由|背景|根因|根本原因|起因|动机|почему|зачем|причина|причины|обоснование|이유|왜|원인|배경|なぜ|根本原因';
const HOW_WORDS = 'how to apply|how it applies|how to use|how|when to apply|applies to|applies when|application|apply|when|lessons learned|lessons|lesson|takeaways|takeaway|going forward|next time|in future|如何应用|怎么应用|如何使用|怎么用|怎么做|如何做|适用|应用|使用场景|何时适用|教训|启示|今后|以后|下次|как применять|как применить|применение|когда применять|урок|уроки|적용 방법|적용|교훈|適用方法|適用|使い方|教訓';
// A Chinese heading carries its label anywhere in it ("## 预测轨迹偏差的根本原因").
const zhHeading = (words: string) => new RegExp(`^\\s*#{1,6}\\s+[^\\n]{0,40}(?:${words})`, 'u');
// A loop, not `some` with an arrow: this runs on every line of a topic, and each call made a closure.
const anyOf = (...res: Array<{ test: (text: string) => boolean }>) => ({
  test: (text: string) => {
    for (const re of res) if (re.test(text)) return true;
    return false;
  },
});
// A bold label later on a line, or with more than a colon after it: "… untouched. **Why:** …",
// "**How to apply — the ranked backlog**", "**How to apply / anatomy** (…)".
const WHY_LEADS = anyOf(label(WHY_WORDS), zhHeading('根因|根本原因|原因|为什么'));
const WHY = anyOf(WHY_LEADS, /(?:\*\*|__)(?:why|root cause|rationale)\b/iu);
const HOW = anyOf(label(HOW_WORDS), zhHeading('如何应用|教训|启示|怎么做'), /(?:\*\*|__)how to apply\b/iu);
