import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import type { WebhookConfig } from '../config.js';

/**
 * Where an endpoint may never point unless the operator allows it (design §20.5): private,
 * loopback, link-local (the cloud metadata address 169.254.169.254 among them), carrier-grade NAT,
 * unspecified, multicast and reserved ranges, in IPv4 and IPv6.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`), as its IPv4 form. */
function unmapped(address: string): string {
  const m = /^::ffff:([0-9.]+)$/i.exec(address);
  return m?.[1] !== undefined && isIP(m[1]) === 4 ? m[1] : address;
}

/** True when the address is in a range an endpoint may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const a = unmapped(address);
  const family = isIP(a);
  if (family === 0) return true;
  return FORBIDDEN.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

/** The operator's list (`CORPDATA_WEBHOOK_ALLOW_HOSTS`): host names, addresses and CIDR ranges. */
export class AllowList {
  readonly #names = new Set<string>();
  readonly #ranges = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address);
      if (family === 0) this.#names.add(entry.toLowerCase());
      else if (prefix === undefined) this.#ranges.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.#ranges.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** True when the endpoint's host name, or the address it resolved to, is listed. */
  allows(host: string, address: string): boolean {
    if (this.#names.has(host.toLowerCase())) return true;
    const a = unmapped(address);
    const family = isIP(a);
    return family !== 0 && this.#ranges.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** Why a URL is refused as an endpoint, or undefined when its form is acceptable. */
export function urlProblem(raw: string, config: Pick<WebhookConfig, 'allowHttp'>): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'it must be an absolute URL.';
  }
  if (raw.length > 2000) return 'it must be at most 2000 characters.';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && config.allowHttp)) {
    return config.allowHttp ? 'it must be an https:// or http:// URL.' : 'it must be an https:// URL.';
  }
  if (url.username !== '' || url.password !== '') return 'it must not carry a user name or password.';
  if (url.hash !== '') return 'it must not carry a fragment.';
  return undefined;
}

/** The host of a URL as DNS and the allow-list see it (no IPv6 brackets). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** A refusal of the address an endpoint resolved to. */
export class ForbiddenAddressError extends Error {}

/**
 * Resolves a host and checks every address it gives (design §20.5): refused when any is forbidden
 * and not allowed, so a name resolving both to a public and to a private address is refused too.
 */
export async function resolveSafely(host: string, allow: AllowList): Promise<Array<{ address: string; family: number }>> {
  const literal = isIP(host);
  const addresses =
    literal !== 0
      ? [{ address: host, family: literal }]
      : await new Promise<Array<{ address: string; family: number }>>((resolve, reject) =>
          dnsLookup(host, { all: true }, (error, list) => (error ? reject(error) : resolve(list))),
        );
  for (const a of addresses) {
    if (isForbiddenAddress(a.address) && !allow.allows(host, a.address)) {
      throw new ForbiddenAddressError(`${host} resolves to ${a.address}, a private, loopback, link-local or reserved address`);
    }
  }
  return addresses;
}

/**
 * A `lookup` for the HTTP request that checks the address it connects to, at each delivery: what
 * was checked is what is connected to (no second resolution a rebinding DNS could answer otherwise).
 */
export function safeLookup(allow: AllowList): LookupFunction {
  return (hostname, options, callback) => {
    resolveSafely(hostname, allow).then(
      (list) => {
        const first = list[0];
        if (first === undefined) {
          callback(new Error(`${hostname} has no address`), '', 4);
          return;
        }
        if (typeof options === 'object' && options.all === true) {
          (callback as unknown as (e: null, l: typeof list) => void)(null, list);
          return;
        }
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}
