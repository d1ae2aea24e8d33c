// GitHub Actions workflow commands: ::error file=…,line=…,col=…,title=…::message
import { relative, sep } from 'node:path';
import type { FileResult } from '../engine.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProp = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `root`: the repository's top (GitHub places annotations by repository-relative path), else the working directory. */
export function formatGithub(results: FileResult[], opts: { root: string }): string {
  const out: string[] = [];
  for (const r of results) {
    const file = relative(opts.root, r.filePath).split(sep).join('/');
    for (const m of r.messages) {
      const kind = m.severity === 2 ? 'error' : 'warning';
      const title = m.ruleId ? `memlint(${m.ruleId})` : 'memlint';
      out.push(`::${kind} file=${escapeProp(file)},line=${m.line},col=${m.column},title=${escapeProp(title)}::${escapeData(m.message)}`);
    }
  }
  return out.length ? out.join('\n') + '\n' : '';
}
