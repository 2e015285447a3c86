/**
 * What a key's restrictions are checked against (document 1, "API keys" and "Secured API keys"): the index name
 * patterns of a key (`indexes`, `restrictIndices`), the referers it may be used from (`referers`) and the
 * networks a secured key may be used from (`restrictSources`).
 *
 * Patterns here have one wildcard, `*` (any characters, `/` included), and are compared without case: the
 * hosted API's rule. picomatch (a dependency, used for the Crawler's path globs) is not used for them: its glob
 * syntax gives `?`, `[…]`, `{a,b}`, `!` and extglobs a meaning, so a key restricted to the index `a?b` would
 * also open `axb` — a restriction would widen. Matching the literal parts in order is all `*` needs.
 */
import { BlockList, isIP } from 'node:net';
import type { KeyInfo } from './types.js';

/**
 * Whether `text` matches `pattern`, where `*` stands for any characters (none included) and every other
 * character for itself, without case.
 *
 * @example
 * wildcardMatch('dev_*', 'DEV_products') // true
 * wildcardMatch('https://*.example.com/*', 'https://www.example.com/a/b') // true
 * wildcardMatch('a?b', 'axb') // false: `?` is a character like any other
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const subject = text.toLowerCase();
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (parts.length === 1) return subject === first;
  if (!subject.startsWith(first) || subject.length < first.length + last.length) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = subject.indexOf(middle, at);
    if (found < 0) return false;
    at = found + middle.length;
  }
  return subject.length - last.length >= at && subject.endsWith(last);
}

/**
 * True when `indexName` is allowed by the key's index patterns (undefined = every index).
 *
 * @example
 * indexAllowed({ indexes: ['dev_*'] }, 'dev_products') // true
 */
export function indexAllowed(key: Pick<KeyInfo, 'indexes' | 'parentIndexes'>, indexName: string): boolean {
  const matches = (patterns: string[] | undefined) =>
    !patterns ||
    patterns.some((pattern) => (pattern.includes('*') ? wildcardMatch(pattern, indexName) : pattern === indexName));
  return matches(key.indexes) && matches(key.parentIndexes);
}

/**
 * Whether a call from `referer` (`Referer`, else `Origin`) may use a key restricted to `patterns` (none: any).
 * A pattern is compared with the whole referer, the referer without its scheme, and its host.
 *
 * @example
 * refererAllowed(['*.partner.example'], 'https://www.partner.example/') // true
 */
export function refererAllowed(patterns: string[], referer: string | undefined): boolean {
  if (patterns.length === 0) return true;
  if (!referer) return false;
  let host = '';
  let withoutScheme = referer;
  try {
    const url = new URL(referer);
    host = url.host;
    withoutScheme = referer.slice(url.protocol.length + 2);
  } catch {
    // not a URL: compare the raw value
  }
  return patterns.some(
    (pattern) =>
      wildcardMatch(pattern, referer) ||
      wildcardMatch(pattern, withoutScheme) ||
      (host !== '' && wildcardMatch(pattern, host)),
  );
}

/**
 * The networks of `restrictSources`: addresses and CIDR networks, IPv4 or IPv6, separated by `;` or `,`
 * (`192.168.1.0/24;10.0.0.1;2001:db8::/32`). An entry that is not an address or a network allows nothing.
 *
 * @example
 * sourceNetworks('10.0.0.0/8;2001:db8::/32').check('2001:db8::1', 'ipv6') // true
 */
export function sourceNetworks(networks: string): BlockList {
  const list = new BlockList();
  for (const network of networks.split(/[;,]/)) {
    const entry = network.trim();
    if (!entry) continue;
    const slash = entry.indexOf('/');
    const base = slash < 0 ? entry : entry.slice(0, slash);
    const version = isIP(base);
    if (version === 0) continue;
    const type = version === 4 ? 'ipv4' : 'ipv6';
    if (slash < 0) {
      list.addAddress(base, type);
      continue;
    }
    const bitsText = entry.slice(slash + 1);
    const bits = Number(bitsText);
    if (!/^\d{1,3}$/.test(bitsText) || bits > (version === 4 ? 32 : 128)) continue;
    list.addSubnet(base, bits, type);
  }
  return list;
}

/**
 * Whether a call from `ip` may use a secured key restricted to `networks`. An IPv4 address the socket reports
 * in its IPv6 form (`::ffff:10.0.0.7`) is its IPv4 address; the IPv6 loopback (`::1`) is also the IPv4
 * loopback (the same machine, whichever family the connection used).
 *
 * @example
 * sourceAllowed('127.0.0.0/8', '::1') // true
 * sourceAllowed('2001:db8::/32', '2001:db8:0:1::5') // true
 */
export function sourceAllowed(networks: string, ip: string | undefined): boolean {
  if (!ip) return false;
  const list = sourceNetworks(networks);
  const address = ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const version = isIP(address);
  if (version === 0) return false;
  if (list.check(address, version === 4 ? 'ipv4' : 'ipv6')) return true;
  return address === '::1' && list.check('127.0.0.1', 'ipv4');
}
