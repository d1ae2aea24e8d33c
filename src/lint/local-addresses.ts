// Home folder paths and private IP addresses: a teammate's machine or network written into memory
// that the whole team shares. Pure: text in, spans out.

export interface LocalAddress {
  start: number;
  end: number;
  kind: 'home-path' | 'private-ip';
  /** The path up to and including the user's folder name, or the address. */
  value: string;
}

// Folder names that stand for no one: placeholders, the defaults of CI runners, containers and
// cloud images, and macOS's shared folder.
const NOT_A_PERSON = /^(?:user|users|username|user-?name|you|your-?name|yourname|your_user|me|name|someone|somebody|example|foo|bar|x+|ubuntu|debian|ec2-user|centos|fedora|runner|runneradmin|node|vscode|codespace|codespaces|jovyan|gitpod|coder|admin|administrator|root|guest|shared|public|default|all users|app|www-data|docker|vagrant|pi|linuxbrew|postgres|mysql|redis|nginx|git|jenkins|gitlab-runner)$/i;

// No `=` in a folder name: "/home/ana=0" is a count of the folder's hits, not a folder "ana=0".
const HOME_RE = /(?<![\w.$~-])(?:\/Users\/|\/home\/|[A-Za-z]:[\\/](?:Users|Documents and Settings)[\\/])([^\s/\\`'"<>)(\]\[{}*$%=]{1,64})(?=[\\/]|[\s`'")\],;:.=]|$)/g;

const IP_RE = /(?<![\w.])(?:10\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3})|172\.(?:1[6-9]|2\d|3[01])\.(?:\d{1,3})\.(?:\d{1,3})|192\.168\.(?:\d{1,3})\.(?:\d{1,3}))(?![\w]|\.\d)/g;

// The same address on every machine of its kind, no one's network: Docker's default bridge
// gateway (how a container reaches its host), the Android emulator's alias for its host.
const WELL_KNOWN_HOST_ALIASES = new Set(['172.17.0.1', '10.0.2.2']);

/** Quick test: a text without these hints has nothing to find. */
export function mayHoldLocalAddress(text: string): boolean {
  return /\/Users\/|\/home\/|:[\\/](?:Users|Documents)|\b10\.\d|\b172\.(?:1[6-9]|2\d|3[01])\.|\b192\.168\./.test(text);
}

export function findLocalAddresses(text: string): LocalAddress[] {
  if (!mayHoldLocalAddress(text)) return [];
  const out: LocalAddress[] = [];
  // The paragraph each folder was last searched for in: later paths under it there are what was found.
  const searchedIn = new Map<string, number>();
  let breaks: number[] | undefined;
  for (const m of text.matchAll(HOME_RE)) {
    const name = m[1]!;
    if (NOT_A_PERSON.test(name) || /^[<{[]|[<>{}]/.test(name) || /^\.+$/.test(name)) continue;
    const start = m.index!;
    if (isSearchedFor(text, start, start + m[0].length, pathEnd(text, start))) {
      breaks ??= paragraphBreaks(text);
      searchedIn.set(name, paragraphAt(breaks, start));
      continue;
    }
    if (breaks && searchedIn.get(name) === paragraphAt(breaks, start)) continue;
    out.push({ start, end: start + m[0].length, kind: 'home-path', value: m[0] });
  }
  for (const m of text.matchAll(IP_RE)) {
    const octets = m[0].split('.').map(Number);
    // A network (10.9.100.0, 10.6.0.0/16) names no host; an octet over 255 is no address.
    if (octets.some((o) => o > 255) || octets[3] === 0 || text[m.index! + m[0].length] === '/') continue;
    if (WELL_KNOWN_HOST_ALIASES.has(m[0])) continue;
    out.push({ start: m.index!, end: m.index! + m[0].length, kind: 'private-ip', value: m[0] });
  }
  return out.sort((a, b) => a.start - b.start);
}

// A leak check names the home folder as what it looks for: the pattern of a search command (its
// options, and an opening quote, between), the left side of a sed substitution, or what is counted,
// scrubbed or gone ("/home/ana=0", "/home/ana hits: 0", "the /home/ana prefix", "no /home/ana
// left"). Written from the repository root or as ~/, the check would no longer say what it checked.
// A count is read only after the bare folder: "/home/ana/data = 42 GB" is a size of a real place.
const SEARCH_COMMAND_BEFORE = /(?:^|[\s`'"(;|&])(?:git\s+grep|[ef]?grep|rg|ag|ack|findstr|Select-String)(?:\s+-{1,2}[\w-]+(?:=\S+)?)*\s+["'`]?$/i;
const SED_PATTERN_BEFORE = /(?:^|[\s`'"])s([#|:,@!%])$/;
const NONE_BEFORE = /\b(?:no|zero)\s+["'`]?$/i;
const COUNT_AFTER = /^["'`]?\s*(?:(?:leaks?|hits?|matches|occurrences|count|lines|files)\s*)?(?:==?|:|→|->)\s*\**\d+(?!\w|[.,]\d)/i;
const PREFIX_AFTER = /^["'`]?\s*(?:prefix|접두|前缀|接頭辞|プレフィックス)/i;
const GONE_AFTER = /^["'`]?\s+(?:is\s+|was\s+)?(?:left|remains?|remaining|survives?)\b/i;

/** Where a path that starts at `start` ends: at a space, a quote, a bracket or a count's `=`. */
function pathEnd(text: string, start: number): number {
  PATH_REST.lastIndex = start;
  PATH_REST.test(text);
  return PATH_REST.lastIndex;
}

const PATH_REST = /[^\s`'"()[\]=,;]*/y;

/**
 * True when the home path at start..end (its user's folder ending at folderEnd) is what a leak
 * check searches for, not an address to use.
 */
function isSearchedFor(text: string, start: number, folderEnd: number, end: number): boolean {
  // The words just before on its line are enough, and a bound keeps a line of thousands of paths linear.
  const window = text.slice(Math.max(0, start - 120), start);
  const before = window.slice(window.lastIndexOf('\n') + 1);
  const after = text.slice(end, end + 40);
  const bareFolder = end - folderEnd <= 1;
  return (
    SEARCH_COMMAND_BEFORE.test(before) ||
    SED_PATTERN_BEFORE.test(before) ||
    (NONE_BEFORE.test(before) && GONE_AFTER.test(after)) ||
    (bareFolder && COUNT_AFTER.test(after)) ||
    PREFIX_AFTER.test(after)
  );
}

/**
 * Where each paragraph after the first starts: after a blank line, or at a new list item (lines
 * ended by LF, CRLF or CR alike).
 */
function paragraphBreaks(text: string): number[] {
  return [...text.matchAll(PARAGRAPH_BREAK)].map((m) => m.index! + m[1]!.length);
}

const PARAGRAPH_BREAK = /(\r\n|\n|\r(?!\n))[ \t]*(?:\r?\n|\r|[-*+][ \t]|\d+[.)][ \t])/g;

/** Which paragraph an offset is in: how many breaks come at or before it. */
function paragraphAt(breaks: number[], offset: number): number {
  let lo = 0;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (breaks[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
