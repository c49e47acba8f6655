import { describe, expect, it } from 'vitest';
import { findToken, parseAuthorization } from './credentials';

const sources = (headers: Record<string, string>, apiKeyQuery?: string) => ({
  header: (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1],
  apiKeyQuery,
});

describe('the Authorization header', () => {
  it.each([
    ['MediaServer Token="abc123"', 'abc123'],
    ['MediaServer Token=abc123', 'abc123'],
    ['mediaserver Token="abc123"', 'abc123'],
    ['MEDIASERVER Token=abc123', 'abc123'],
    ['MediaBrowser Token="abc123"', 'abc123'],
    [
      'MediaServer Client="Web", Device="Firefox", DeviceId="d1", Version="10.11.0", Token="abc123"',
      'abc123',
    ],
    ['MediaServer Token="a%2Bb"', 'a+b'],
    ['MediaServer  Token="abc123" ', 'abc123'],
  ])('%s carries the token', (header, token) => {
    expect(parseAuthorization(header)?.Token).toBe(token);
  });

  it.each([
    ['Bearer abc123'],
    ['Basic YWxhZGRpbjpvcGVu'],
    ['Emby Token="abc123"'],
    ['MediaServer token="abc123"'],
    ['MediaServer'],
    ['Token="abc123"'],
  ])('%s carries no token', (header) => {
    expect(parseAuthorization(header)?.Token).toBeUndefined();
  });

  it('keeps commas inside quotes and reads the other parameters', () => {
    expect(parseAuthorization('MediaServer Client="A, B", Token=t')).toEqual({ Client: 'A, B', Token: 't' });
  });
});

describe('where the token is read', () => {
  it('takes the Authorization header first', () => {
    expect(
      findToken(sources({ Authorization: 'MediaServer Token=h', 'X-Media-Token': 'x' }, 'q'), true),
    ).toBe('h');
  });

  it('reads X-Media-Token, then X-Emby-Token, only while legacy authorization is on', () => {
    expect(findToken(sources({ 'X-Media-Token': 'x' }), true)).toBe('x');
    expect(findToken(sources({ 'X-Emby-Token': 'e' }), true)).toBe('e');
    expect(findToken(sources({ 'X-Media-Token': 'x', 'X-Emby-Token': 'e' }), true)).toBe('x');
    expect(findToken(sources({ 'X-Media-Token': 'x' }), false)).toBeUndefined();
    expect(findToken(sources({ 'X-Emby-Token': 'e' }), false)).toBeUndefined();
  });

  it('reads the ApiKey query parameter whatever the legacy setting', () => {
    expect(findToken(sources({}, 'q'), false)).toBe('q');
    expect(findToken(sources({}, 'q'), true)).toBe('q');
  });

  it('falls through a media-server header without a token (a sign-in header)', () => {
    expect(findToken(sources({ Authorization: 'MediaServer Client="Web"' }, 'q'), false)).toBe('q');
  });

  it('finds nothing in an empty request', () => {
    expect(findToken(sources({}), true)).toBeUndefined();
    expect(findToken(sources({ Authorization: 'MediaServer Token=""' }, ''), true)).toBeUndefined();
  });
});

describe('the legacy forms (only while legacy authorization is on)', () => {
  it('accepts the Emby scheme word in Authorization only with legacy authorization', () => {
    expect(parseAuthorization('Emby Token="abc"', true)?.Token).toBe('abc');
    expect(parseAuthorization('emby Token="abc"', true)?.Token).toBe('abc');
    expect(parseAuthorization('Emby Token="abc"', false)).toBeUndefined();
    expect(findToken(sources({ Authorization: 'Emby Token="e"' }), true)).toBe('e');
    expect(findToken(sources({ Authorization: 'Emby Token="e"' }), false)).toBeUndefined();
  });

  it('reads X-Emby-Authorization only when Authorization is empty, and only with legacy authorization', () => {
    const legacy = { 'X-Emby-Authorization': 'MediaBrowser Client="Web", Token="l"' };
    expect(findToken(sources(legacy), true)).toBe('l');
    expect(findToken(sources(legacy), false)).toBeUndefined();
    expect(findToken(sources({ ...legacy, Authorization: '' }), true)).toBe('l');
    expect(findToken(sources({ ...legacy, Authorization: 'MediaServer Token="a"' }), true)).toBe('a');
    // A non-empty Authorization header of another scheme is still the Authorization header: not read.
    expect(findToken(sources({ ...legacy, Authorization: 'Bearer zzz' }), true)).toBeUndefined();
    expect(findToken(sources({ 'X-Emby-Authorization': 'Emby Token="e"' }), true)).toBe('e');
  });

  it('reads X-MediaBrowser-Token last of the token headers, only with legacy authorization', () => {
    expect(findToken(sources({ 'X-MediaBrowser-Token': 'm' }), true)).toBe('m');
    expect(findToken(sources({ 'X-MediaBrowser-Token': 'm', 'X-Emby-Token': 'e' }), true)).toBe('e');
    expect(findToken(sources({ 'X-MediaBrowser-Token': 'm' }), false)).toBeUndefined();
  });

  it('prefers any header over the query key, and treats an empty query key as absent', () => {
    expect(findToken(sources({ 'X-MediaBrowser-Token': 'm' }, 'q'), true)).toBe('m');
    expect(findToken(sources({ Authorization: 'MediaServer Token="h"' }, ''), false)).toBe('h');
    expect(findToken(sources({}, ''), false)).toBeUndefined();
  });
});
