// Words for a POSIX shell, in commands memlint prints for a person or an agent to run.

/** Single-quote a word for sh (as is when it holds only characters sh reads literally). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A path as one sh word that no command reads as an option (`./-x`, not `-x`). */
export function shellPath(path: string): string {
  return shellQuote(path.startsWith('-') ? `./${path}` : path);
}
