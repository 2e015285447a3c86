/**
 * The hosts a client talks to and how long it waits for them, in a module of their own: the first-paint script
 * (src/prepaint) sends the page's first search to the same host as the client would, and gives up when the
 * client's first attempt would, without loading the client.
 */
import { list, need } from './errors.js';
import type { ClientOptions, HostDescriptor } from './types.js';

/** Default base timeouts, ms (the values of the hosted API's official clients). */
export const DEFAULT_TIMEOUTS = { connect: 2_000, read: 5_000, write: 30_000 };
/** Default domain of the computed hosts. */
export const DEFAULT_DOMAIN = 'service-search.net';
/** Default domain of the three fallback hosts. */
export const DEFAULT_FALLBACK_DOMAIN = 'service-search-net.com';
/** A host as a URL: `https://` unless a scheme is given, no trailing slash. */
export const hostUrl = (url: string) =>
  (/^[a-z][a-z\d+.-]*:\/\//i.test(url) ? url : `https://${url}`).replace(/\/+$/, '');

/**
 * The hosts of a client: explicit `hosts` when given, else `{appId}-dsn.{domain}` (reads),
 * `{appId}.{domain}` (writes) and `{appId}-{1,2,3}.{fallbackDomain}` in a shuffled order (both).
 *
 * @example
 * computeHosts({ appId: 'APP', apiKey: 'k' })[0] // { url: 'https://APP-dsn.service-search.net', accept: 'read' }
 */
export function computeHosts(options: ClientOptions, random = Math.random): Array<Required<HostDescriptor>> {
  const { appId, hosts, domain = DEFAULT_DOMAIN } = options;
  if (hosts) {
    return list(hosts, 'createClient: hosts').map((host) => {
      const { url, accept = 'readWrite' } = (typeof host === 'string' ? { url: host } : host) ?? {};
      return { url: hostUrl(need(url, 'createClient: host url')), accept };
    });
  }
  const fallbacks = [1, 2, 3].map((n) => ({
    url: `https://${appId}-${n}.${options.fallbackDomain ?? DEFAULT_FALLBACK_DOMAIN}`,
    accept: 'readWrite' as const,
  }));
  // Fisher–Yates, once per client: spreads the retry load over the fallback hosts ("shuffle the list at start").
  for (let i = 2; i; i--) {
    const j = Math.floor(random() * (i + 1));
    [fallbacks[i], fallbacks[j]] = [fallbacks[j]!, fallbacks[i]!];
  }
  return [
    { url: `https://${appId}-dsn.${domain}`, accept: 'read' },
    { url: `https://${appId}.${domain}`, accept: 'write' },
    ...fallbacks,
  ];
}
