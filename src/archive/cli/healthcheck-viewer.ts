/** `healthcheck-viewer`: GET HEALTHCHECK_URL within 5 seconds; healthy on 200 with status ok. */

import { defineCommand, errorText } from '../../common/cli/command';
import { scopedEnv, stringVar } from '../../common/env';

export const DEFAULT_HEALTHCHECK_URL = 'http://127.0.0.1:8000/api/health';
const TIMEOUT_MS = 5000;

export const healthcheckViewer = defineCommand()({
  name: 'healthcheck-viewer',
  summary: 'exit 0 when HEALTHCHECK_URL answers 200 with status ok within 5 seconds, else 1',
  options: {},
  async run(ctx) {
    const env = scopedEnv(ctx.env, 'ARCHIVE_');
    // The seed's default address, on the port this viewer is told to listen on.
    const viewerPort = stringVar(env, 'VIEWER_PORT');
    const url = stringVar(
      env,
      'HEALTHCHECK_URL',
      viewerPort && /^\d{1,5}$/.test(viewerPort)
        ? DEFAULT_HEALTHCHECK_URL.replace(':8000/', `:${viewerPort}/`)
        : DEFAULT_HEALTHCHECK_URL,
    );
    try {
      const [address, init] = withoutCredentials(url);
      const response = await fetch(address, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const body = (await response.json().catch(() => null)) as { status?: unknown; reason?: unknown } | null;
      if (response.status === 200 && body?.status === 'ok') {
        ctx.io.out('Healthy: viewer answered status ok');
        return 0;
      }
      // The viewer's own reason when it gives one (no schema, no login mode, the database unreachable).
      const reason = typeof body?.reason === 'string' ? `: ${body.reason.slice(0, 300)}` : '';
      ctx.io.err(`Unhealthy: viewer answered HTTP ${response.status}${reason}`);
      return 1;
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
      // Said without the address's user, password or query, whatever the error's own words held.
      const why = timedOut
        ? 'no answer within 5 seconds'
        : errorText(error).replaceAll(url, shownAddress(url));
      ctx.io.err(
        `Unhealthy: ${why}${typeof cause === 'string' ? ` (${cause})` : ''} at ${shownAddress(url)}`,
      );
      return 1;
    }
  },
});

/** The address without what it may carry besides (a user and password, a query with a token). */
function shownAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'HEALTHCHECK_URL (not an address)';
  }
}

/**
 * The request for an address that may carry a user and password (which fetch refuses in a URL): the
 * address without them, and them as HTTP basic authorization.
 */
function withoutCredentials(url: string): [string, RequestInit] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url, {}];
  }
  if (!parsed.username && !parsed.password) return [url, {}];
  const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return [parsed.href, { headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}` } }];
}
