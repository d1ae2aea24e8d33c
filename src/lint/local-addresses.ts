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

const HOME_RE = /(?<![\w.$~-])(?:\/Users\/|\/home\/|[A-Za-z]:[\\/](?:Users|Documents and Settings)[\\/])([^\s/\\`'"<>)(\]\[{}*$%]{1,64})(?=[\\/]|[\s`'")\],;:.]|$)/g;

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
  for (const m of text.matchAll(HOME_RE)) {
    const name = m[1]!;
    if (NOT_A_PERSON.test(name) || /^[<{[]|[<>{}]/.test(name) || /^\.+$/.test(name)) continue;
    out.push({ start: m.index!, end: m.index! + m[0].length, kind: 'home-path', value: m[0] });
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
