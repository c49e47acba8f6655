/**
 * What a connection's socket peer is (never a forwarded address): this machine, or a private network.
 * An IPv4-mapped IPv6 peer (`::ffff:10.0.0.7`, as a dual-stack socket reports IPv4 peers) counts as its
 * IPv4 address.
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** The peer as an address BlockList can check: the IPv4 inside an IPv4-mapped form, lower case. */
function peerAddress(peer: string | undefined): { ip: string; family: 'ipv4' | 'ipv6' } | null {
  const raw = (peer ?? '').toLowerCase();
  const ip = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
  const family = isIP(ip);
  return family === 0 ? null : { ip, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether the peer is this machine (127.0.0.0/8, ::1). */
export function isLoopbackPeer(peer: string | undefined): boolean {
  const address = peerAddress(peer);
  return address !== null && LOOPBACK.check(address.ip, address.family);
}

/** Whether the peer is this machine or on a private network (RFC 1918, link-local, unique local). */
export function isPrivatePeer(peer: string | undefined): boolean {
  const address = peerAddress(peer);
  return (
    address !== null &&
    (LOOPBACK.check(address.ip, address.family) || PRIVATE.check(address.ip, address.family))
  );
}
