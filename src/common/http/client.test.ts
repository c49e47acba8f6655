import { describe, expect, it } from 'vitest';
import { clientIp } from './client';

const request = (headers: Record<string, string>, peer = '::ffff:192.0.2.9') => ({
  headers,
  socket: { remoteAddress: peer },
});

describe('clientIp', () => {
  it('behind a trusted proxy: the first X-Forwarded-For entry, then X-Real-IP', () => {
    const trusted = { trustProxyHeaders: true };
    expect(
      clientIp(
        request({ 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1', 'x-real-ip': '1.1.1.1' }) as never,
        trusted,
      ),
    ).toBe('203.0.113.7');
    expect(clientIp(request({ 'x-forwarded-for': '', 'x-real-ip': '198.51.100.2' }) as never, trusted)).toBe(
      '198.51.100.2',
    );
  });

  it('without a header: the socket peer, or the shared bucket when asked', () => {
    expect(clientIp(request({}) as never, { trustProxyHeaders: true })).toBe('192.0.2.9');
    expect(clientIp(request({}) as never, { trustProxyHeaders: true, withoutHeader: 'shared' })).toBe(
      'unknown',
    );
  });

  it('ignores the headers unless the proxy is trusted', () => {
    expect(
      clientIp(request({ 'x-forwarded-for': '203.0.113.7' }) as never, { trustProxyHeaders: false }),
    ).toBe('192.0.2.9');
  });
});
