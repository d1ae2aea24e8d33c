// Inline configuration: <!-- memlint-disable RULE... -->, <!-- memlint-enable RULE... -->,
// <!-- memlint-disable-next-line RULE... -->. No rule named means every rule.
export interface Directives {
  isDisabled(ruleId: string, line: number): boolean;
  /** Lines (1-based) holding a memlint directive, for rules that must not flag them. */
  lines: Set<number>;
}

export const DIRECTIVE_RE = /<!--\s*memlint-(disable-next-line|disable|enable)\b([^>]*?)\s*-->/g;

interface Range {
  rule: string | null;
  from: number;
  to: number;
}

export function parseDirectives(text: string): Directives {
  const lines = new Set<number>();
  if (!text.includes('memlint-')) return { isDisabled: () => false, lines };
  const ranges: Range[] = [];
  const open = new Map<string | null, number>();
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
        if (kind === 'disable-next-line') ranges.push({ rule, from: line + 1, to: line + 1 });
        else if (kind === 'disable') {
          if (!open.has(rule)) open.set(rule, line);
        } else {
          if (rule === null) {
            for (const [r, from] of open) ranges.push({ rule: r, from, to: line });
            open.clear();
          } else if (open.has(rule)) {
            ranges.push({ rule, from: open.get(rule)!, to: line });
            open.delete(rule);
          }
        }
      }
    }
  });
  for (const [rule, from] of open) ranges.push({ rule, from, to: Infinity });
  return {
    lines,
    isDisabled(ruleId, line) {
      return ranges.some((r) => (r.rule === null || r.rule === ruleId) && line >= r.from && line <= r.to);
    },
  };
}
