// The memdir's texts while duplicates are merged, knowing which lines of which files hold a
// `[[link]]` by each name, so that renaming the links to a merged-away memory visits those lines
// only. Asking every file, and then every line of a file, for each merge that renames made
// consolidation quadratic in the memories merged (thousands of duplicates named differently, an
// index or a list linking them all). Pure: texts in, texts out.
import { blockModel } from '../memdir/blocks.js';
import { lineWikiNames, renameLinks, wikiLinks } from '../memdir/links.js';

/** A file's lines (each with its line ending) and where each link name stands in them. */
interface LinkLines {
  lines: string[];
  /** Whether each line can hold a link (not code, not frontmatter): renames keep this. */
  open: boolean[];
  /** Line indexes holding a link by each name. */
  at: Map<string, Set<number>>;
  /** The link names of each line. */
  names: string[][];
  /** Renamed as a whole text, by renameLinks itself (a lone CR: the lines differ from the block model's). */
  whole: boolean;
}

// A name a rename can write into a line without changing any line's block or its inline code:
// no line break, no backtick, no table pipe, no bracket, no backslash, no angle bracket.
const PLAIN_NAME = /^[^\n\r`|[\]\\<>]*$/;
const LONE_CR = /\r(?!\n)/;

export class LinkedFiles extends Map<string, string> {
  private readonly byName = new Map<string, Set<string>>();
  private readonly parsed = new Map<string, LinkLines>();
  /** Files whose text was set since they were read for links. */
  private readonly stale = new Set<string>();
  /** Files whose lines a rename changed, their text not joined again yet. */
  private readonly edited = new Set<string>();

  constructor(texts: Map<string, string>) {
    super();
    for (const [rel, text] of texts) this.set(rel, text);
  }

  override set(rel: string, text: string): this {
    super.set(rel, text);
    this.edited.delete(rel);
    this.stale.add(rel);
    return this;
  }

  override delete(rel: string): boolean {
    this.edited.delete(rel);
    this.stale.add(rel);
    return super.delete(rel);
  }

  override get(rel: string): string | undefined {
    this.join(rel);
    return super.get(rel);
  }

  override entries(): MapIterator<[string, string]> {
    for (const rel of [...this.edited]) this.join(rel);
    return super.entries();
  }

  override values(): MapIterator<string> {
    for (const rel of [...this.edited]) this.join(rel);
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  override forEach(callback: (value: string, key: string, map: Map<string, string>) => void, thisArg?: unknown): void {
    for (const rel of [...this.edited]) this.join(rel);
    super.forEach(callback, thisArg);
  }

  /**
   * renameLinks(text, from, to) on every file `skip` leaves, as calling it on each would: the
   * lines holding a `[[from]]` link get its name replaced (with renameLinks' own pattern), where
   * the file holds `[[from` at all.
   */
  renameLinks(from: string, to: string, skip: (rel: string) => boolean): void {
    if (from === to) return;
    this.read();
    for (const rel of [...(this.byName.get(from) ?? [])]) {
      if (skip(rel)) continue;
      const p = this.parsed.get(rel);
      if (!p || p.whole || !PLAIN_NAME.test(from) || !PLAIN_NAME.test(to)) {
        const text = this.get(rel)!;
        const renamed = renameLinks(text, from, to);
        if (renamed !== text) this.set(rel, renamed);
        continue;
      }
      const lines = p.at.get(from)!;
      if (![...lines].some((i) => p.lines[i]!.includes(`[[${from}`)) && !p.lines.some((l) => l.includes(`[[${from}`))) continue;
      const re = renamePattern(from);
      for (const i of [...lines]) {
        const line = p.lines[i]!;
        const out = line.replace(re, `[[${to}`);
        if (out === line) continue;
        p.lines[i] = out;
        this.placeNames(rel, p, i, lineWikiNames(withoutEol(out)));
        this.edited.add(rel);
      }
    }
  }

  private join(rel: string): void {
    if (!this.edited.delete(rel)) return;
    super.set(rel, this.parsed.get(rel)!.lines.join(''));
  }

  /** Read the files set since the last question for their links. */
  private read(): void {
    for (const rel of this.stale) {
      const old = this.parsed.get(rel);
      if (old) old.names.forEach((_, i) => this.placeNames(rel, old, i, []));
      this.parsed.delete(rel);
      const text = super.get(rel);
      if (text === undefined || !text.includes('[[')) continue;
      // A lone CR ends a line for the block model and not for renameLinks' lines: such a file is
      // renamed whole, as renameLinks does it, and known by the names wikiLinks reads in it.
      if (LONE_CR.test(text)) {
        const p: LinkLines = { lines: [text], open: [true], at: new Map(), names: [[]], whole: true };
        this.parsed.set(rel, p);
        this.placeNames(rel, p, 0, wikiLinks(text).map((l) => l.name));
        continue;
      }
      const kinds = blockModel(text).lines;
      const lines = text.match(/[^\n]*\n?/g)!.filter((l) => l !== '');
      const p: LinkLines = { lines, open: lines.map((_, i) => kinds[i]?.kind !== 'code' && kinds[i]?.kind !== 'frontmatter'), at: new Map(), names: lines.map(() => []), whole: false };
      this.parsed.set(rel, p);
      lines.forEach((l, i) => this.placeNames(rel, p, i, lineWikiNames(withoutEol(l))));
    }
    this.stale.clear();
  }

  private placeNames(rel: string, p: LinkLines, i: number, names: string[]): void {
    for (const n of p.names[i]!) {
      const lines = p.at.get(n)!;
      lines.delete(i);
      if (lines.size === 0) {
        p.at.delete(n);
        this.byName.get(n)!.delete(rel);
      }
    }
    p.names[i] = p.open[i] ? [...new Set(names)] : [];
    for (const n of p.names[i]!) {
      let lines = p.at.get(n);
      if (!lines) p.at.set(n, (lines = new Set()));
      lines.add(i);
      this.holder(n).add(rel);
    }
  }

  private holder(name: string): Set<string> {
    let rels = this.byName.get(name);
    if (!rels) this.byName.set(name, (rels = new Set()));
    return rels;
  }
}

function withoutEol(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** renameLinks' pattern for a link to `from`. */
function renamePattern(from: string): RegExp {
  return new RegExp(`\\[\\[\\s*${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?=[|#\\]])`, 'g');
}
