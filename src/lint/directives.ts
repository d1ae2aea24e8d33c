// Inline configuration: <!-- memlint-disable RULE... -->, <!-- memlint-enable RULE... -->,
// <!-- memlint-disable-next-line RULE... -->. No rule named means every rule.
export interface Directives {
  isDisabled(ruleId: string, line: number): boolean;
  /** Lines (1-based) holding a memlint directive, for rules that must not flag them. */
  lines: Set<number>;
}

// What a directive starts with; its rules run to the `-->` that ends at the next `>`.
const DIRECTIVE_START_RE = /<!--\s*memlint-(disable-next-line|disable|enable)\b/y;

export interface Directive {
  /** Offsets of the comment in the text searched: `<!--` to `-->`. */
  start: number;
  end: number;
  kind: 'disable-next-line' | 'disable' | 'enable';
  /** What is written between the kind and the `-->` (the rules it names, untrimmed). */
  rules: string;
}

/**
 * The directives in a text, left to right, as the pattern `<!--\s*memlint-(kind)\b([^>]*?)\s*-->`
 * matches them, in one pass: that pattern reads on to the next `>` from every `<!--`, so a line of
 * unclosed comments took it quadratic time (512 KiB: 24 s). A directive ends at the first `>` after
 * its kind, which must close `-->`; the next `>` is found once for all the `<!--` before it.
 */
export function findDirectives(text: string): Directive[] {
  const out: Directive[] = [];
  let gt = -1;
  for (let p = text.indexOf('<!--'); p >= 0; ) {
    DIRECTIVE_START_RE.lastIndex = p;
    const m = DIRECTIVE_START_RE.exec(text);
    if (m) {
      const after = DIRECTIVE_START_RE.lastIndex;
      if (gt < after) gt = text.indexOf('>', after);
      if (gt < 0) break;
      if (gt - 2 >= after && text.startsWith('--', gt - 2)) {
        out.push({ start: p, end: gt + 1, kind: m[1] as Directive['kind'], rules: text.slice(after, gt - 2) });
        p = text.indexOf('<!--', gt + 1);
        continue;
      }
    }
    p = text.indexOf('<!--', p + 1);
  }
  return out;
}

/** Whether a text holds directives and nothing else but whitespace. */
export function onlyDirectives(text: string): boolean {
  const found = findDirectives(text);
  if (found.length === 0) return false;
  let from = 0;
  for (const d of found) {
    if (text.slice(from, d.start).trim() !== '') return false;
    from = d.end;
  }
  return text.slice(from).trim() === '';
}

interface Event {
  line: number;
  kind: 'disable' | 'enable';
  /** null: every rule. */
  rule: string | null;
}

export function parseDirectives(text: string): Directives {
  const lines = new Set<number>();
  if (!text.includes('memlint-')) return { isDisabled: () => false, lines };
  const events: Event[] = [];
  const nextLine: Array<{ line: number; rule: string | null }> = [];
  const all = text.split(/\r\n|\r|\n/);
  all.forEach((lineText, i) => {
    const line = i + 1;
    for (const d of findDirectives(lineText)) {
      lines.add(line);
      const kind = d.kind;
      const rules = d.rules.trim().split(/[\s,]+/).filter(Boolean);
      const targets: Array<string | null> = rules.length ? rules : [null];
      for (const rule of targets) {
        if (kind === 'disable-next-line') nextLine.push({ line: line + 1, rule });
        else events.push({ line, kind: kind as Event['kind'], rule });
      }
    }
  });
  return {
    lines,
    isDisabled(ruleId, line) {
      if (nextLine.some((n) => n.line === line && (n.rule === null || n.rule === ruleId))) return true;
      // Replay the directives above the line (markdownlint's semantics: `enable RULE` after a
      // bare `disable` turns that one rule back on). A disable counts from its own line, an
      // enable from the line after it.
      let off = false;
      for (const e of events) {
        if (e.line > line) break;
        if (e.rule !== null && e.rule !== ruleId) continue;
        if (e.kind === 'enable' && e.line === line) continue;
        off = e.kind === 'disable';
      }
      return off;
    },
  };
}
