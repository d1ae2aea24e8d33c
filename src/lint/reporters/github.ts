// GitHub Actions workflow commands: ::error file=…,line=…,col=…,title=…::message
import type { FileResult } from '../engine.js';
import { slashRelative } from '../../fs/paths.js';
import { escapeControls } from '../../printable.js';

// GitHub's escapes (%, CR, LF; in properties also : and ,), then any other control character shown
// escaped: none reaches the workflow log raw (contract §14).
const escapeData = (s: string) => escapeControls(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
const escapeProp = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One annotation line per message. `root`: the repository's top (GitHub places annotations by repository-relative path), else the working directory. */
export function* githubChunks(results: FileResult[], opts: { root: string }): Generator<string> {
  for (const r of results) {
    const file = escapeProp(slashRelative(opts.root, r.filePath));
    for (const m of r.messages) {
      const kind = m.severity === 2 ? 'error' : 'warning';
      const title = m.ruleId ? `memlint(${m.ruleId})` : 'memlint';
      yield `::${kind} file=${file},line=${m.line},col=${m.column},title=${escapeProp(title)}::${escapeData(m.message)}\n`;
    }
  }
}

