/**
 * The request target as HTTP/1.1 defines it (RFC 9112 section 3.2), read once by the front door of every
 * service before anything matches it to an operation:
 *
 * - origin form (`/path?query`): taken as it is;
 * - absolute form (`http://host:port/path?query`): a server must accept it; its path and query are the
 *   request's, and its authority is the request's host (the `Host` header is then ignored, section 3.2.2);
 * - asterisk form (`*`) and authority form (`host:port`, for CONNECT): no operation of ours takes them.
 *
 * A character that cannot stand in a request target (a `#`, a blank, a control, a backslash, a byte
 * outside ASCII, a `%` not followed by two hexadecimal digits in the path) makes the target unreadable:
 * the front door answers 400 and nothing behind it runs. The query is read as browsers send it: the
 * characters a browser leaves unescaped there (`[ ] { } | ^ \``, RFC 3986 would want them escaped) are
 * taken, since the query parser reads them as any other.
 */

export type RequestTarget =
  | { ok: true; pathname: string; query: string; authority?: string }
  | { ok: false; reason: string };

const PATH_CHAR = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
const QUERY_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%[\]{}|^`]*$/;
/** RFC 3986 host (a name, an IPv4 address, or an IP literal in brackets) and an optional port; no user. */
const AUTHORITY =
  /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+(?::[0-9]*)?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]*)?$/;
const ABSOLUTE = /^https?:\/\//i;

const refuse = (reason: string): RequestTarget => ({ ok: false, reason });

export function readRequestTarget(target: string): RequestTarget {
  let rest = target;
  let authority: string | undefined;
  if (ABSOLUTE.test(target)) {
    const start = target.indexOf('//') + 2;
    let end = start;
    while (end < target.length && target[end] !== '/' && target[end] !== '?') end++;
    authority = target.slice(start, end);
    if (!AUTHORITY.test(authority)) return refuse('the request target names no valid host');
    rest = target.slice(end);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  } else if (target === '*') {
    return refuse('the asterisk form is not a target of this server');
  } else if (!target.startsWith('/')) {
    return refuse('the request target is neither a path nor an absolute http address');
  }
  const at = rest.indexOf('?');
  const pathname = at < 0 ? rest : rest.slice(0, at);
  const query = at < 0 ? '' : rest.slice(at);
  if (!PATH_CHAR.test(pathname)) return refuse('the request path holds a character a path cannot hold');
  if (!QUERY_CHAR.test(query.slice(1))) return refuse('the query holds a character a query cannot hold');
  return authority === undefined ? { ok: true, pathname, query } : { ok: true, pathname, query, authority };
}
