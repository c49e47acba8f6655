/**
 * Addresses on the public internet, for outgoing requests to URLs that users chose (Web Push endpoints):
 * a name is resolved and its address checked at the moment of connecting, and the connection goes to
 * exactly the address checked, so a name that resolves to loopback or a private network (`localtest.me`,
 * `127.0.0.1.nip.io`, a rebinding DNS server) or an IPv6 form of one is refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local, deprecated but still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
function embeddedIpv4(ip: string): string | null {
  const match = /^::(?:ffff:)?(?:([0-9.]+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!match) return null;
  if (match[1]) return isIP(match[1]) === 4 ? match[1] : null;
  const high = Number.parseInt(match[2] ?? '0', 16);
  const low = Number.parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return !NOT_PUBLIC.check(v4, 'ipv4');
    return !NOT_PUBLIC.check(ip, 'ipv6');
  }
  return !NOT_PUBLIC.check(ip, 'ipv4');
}

export class NotPublicAddressError extends Error {
  readonly code = 'ENOTPUBLIC';
}

/** How names are resolved: `dns.lookup` with `all: true` (tests give a resolver of their own). */
export type Resolver = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for `http.request` / `net.connect` that resolves with `resolve` and refuses the name when any
 * address it has is not public.
 */
export function publicOnly(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(
      hostname,
      { all: true, ...(options.family ? { family: Number(options.family) } : {}) },
      (error, addresses) => {
        if (error) return callback(error, '', 0);
        if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
          return callback(
            new NotPublicAddressError(`${hostname} does not resolve to a public address`),
            '',
            0,
          );
        }
        if (options.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0] as LookupAddress;
        callback(null, first.address, first.family);
      },
    );
  };
}
