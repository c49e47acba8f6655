import { describe, expect, it } from 'vitest';
import { readRequestTarget } from './request-target';

describe('readRequestTarget (RFC 9112 section 3.2)', () => {
  it.each([
    ['/api/chats', '/api/chats', ''],
    ['/api/chats?limit=5&q=a%20b', '/api/chats', '?limit=5&q=a%20b'],
    ["/media/a;b=c/x@y:z/!$&'()*+,=~_.-", "/media/a;b=c/x@y:z/!$&'()*+,=~_.-", ''],
    ['/api/stations?bbox=[1,2]&f={x}|^`', '/api/stations', '?bbox=[1,2]&f={x}|^`'],
    ['/a?b=100%', '/a', '?b=100%'],
    ['/a??b', '/a', '??b'],
  ])('reads the origin form %s', (target, pathname, query) => {
    expect(readRequestTarget(target)).toEqual({ ok: true, pathname, query });
  });

  it.each([
    ['http://127.0.0.1:8000/api/chats?x=1', '127.0.0.1:8000', '/api/chats', '?x=1'],
    ['HTTPS://Example.org/a', 'Example.org', '/a', ''],
    ['http://[::1]:3000/api', '[::1]:3000', '/api', ''],
    ['http://localhost', 'localhost', '/', ''],
    ['http://localhost?q=1', 'localhost', '/', '?q=1'],
  ])('reads the absolute form %s as its authority, path and query', (target, authority, pathname, query) => {
    expect(readRequestTarget(target)).toEqual({ ok: true, pathname, query, authority });
  });

  it.each([
    ['a fragment', '/api/chats#x'],
    ['a fragment after the query', '/api/chats?a=1#x'],
    ['a backslash', '/api\\chats'],
    ['a backslash in the query', '/api/chats?a=\\'],
    ['a blank', '/api/ chats'],
    ['a tab', '/api/\tchats'],
    ['a control', '/api/\u0001'],
    ['DEL', '/api/\u007f'],
    ['a byte outside ASCII', '/api/\u00ff'],
    ['a quote', '/api/"x"'],
    ['angle brackets', '/api/<x>'],
    ['a bracket in the path', '/api/[x]'],
    ['a brace in the path', '/api/{x}'],
    ['a bad escape in the path', '/api/%G1'],
    ['a cut escape in the path', '/api/%4'],
    ['the asterisk form', '*'],
    ['the authority form', '127.0.0.1:8000'],
    ['a relative path', 'api/chats'],
    ['another scheme', 'ftp://host/api'],
    ['an absolute form with a user', 'http://user:pw@host/api'],
    ['an absolute form with no host', 'http:///api'],
    ['an absolute form with a bad port', 'http://host:80x/api'],
    ['an empty target', ''],
  ])('refuses %s', (_name, target) => {
    expect(readRequestTarget(target)).toMatchObject({ ok: false });
  });
});
