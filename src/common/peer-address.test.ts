import { describe, expect, it } from 'vitest';
import { isLoopbackPeer, isPrivatePeer } from './peer-address';

describe('socket peers', () => {
  it.each([
    ['127.0.0.1', true, true],
    ['127.255.0.9', true, true],
    ['::1', true, true],
    ['::ffff:127.0.0.1', true, true],
    ['10.1.2.3', false, true],
    ['::ffff:10.1.2.3', false, true],
    ['172.16.0.1', false, true],
    ['172.31.255.255', false, true],
    ['172.32.0.1', false, false],
    ['192.168.1.1', false, true],
    ['169.254.1.1', false, true],
    ['fd00::1', false, true],
    ['FE80::1', false, true],
    ['fec0::1', false, false],
    ['8.8.8.8', false, false],
    ['::ffff:8.8.8.8', false, false],
    ['2001:db8::1', false, false],
    ['', false, false],
    ['localhost', false, false],
    [undefined, false, false],
  ])('%s: loopback %s, private %s', (peer, loopback, private_) => {
    expect(isLoopbackPeer(peer)).toBe(loopback);
    expect(isPrivatePeer(peer)).toBe(private_);
  });
});
