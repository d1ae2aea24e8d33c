// Inline configuration: <!-- memlint-disable RULE... -->, <!-- memlint-enable RULE... -->,
// <!-- memlint-disable-next-line RULE... -->. No rule named means every rule.
export interface Directives {
  isDisabled(ruleId: string, line: number): boolean;
  /** Lines (1-based) holding a memlint directive, for rules that must not flag them. */
  lines: Set<number>;
}

export const DIRECTIVE_RE = /<!--\s*memlint-(disable-next-line|disable|enable)\b([^>]*?)\s*-->/g;

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
    DIRECTIVE_RE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = DIRECTIVE_RE.exec(lineText))) {
      lines.add(line);
      const kind = m[1]!;
      const rules = m[2]!.trim().split(/[\s,]+/).filter(Boolean);
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
