/**
 * The built web page of a service (`web/dist/<service>/`, made by `npm run build:web` or `npm start`):
 * `GET {base}/` answers its `index.html`, `{base}/static/*` its files, and any `rootFiles` (the archive's
 * service worker) sit beside the page. Each answer carries the service's same-origin Content-Security-Policy.
 * `meta` values are written into the page's `<meta name=…>` tags at serve time (settings a page needs
 * before its first request, without an inline script). While the page is not built, `/` says so (503).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, Router } from 'express';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = path.resolve(here, '../../../web/dist');

export interface WebPageOptions {
  service: 'archive' | 'fuel' | 'subtitles';
  /** The policy sent with the page and its files. */
  contentSecurityPolicy: string;
  /** A path prefix the page is served under ('' or '/prefix'). */
  basePath?: string;
  /** Files of the build's root served at `{base}/<name>`. */
  rootFiles?: string[];
  meta?: Record<string, string>;
  /** Where the built pages are (tests of this module only). */
  distRoot?: string;
}

/** The strict policy of the fuel and subtitles pages: everything from the page's own origin. */
export function sameOriginPolicy(extra: { connect?: string[]; img?: string[] } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ['img-src', "'self'", 'data:', 'blob:', ...(extra.img ?? [])].join(' '),
    ['connect-src', "'self'", ...(extra.connect ?? [])].join(' '),
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function withMeta(html: string, meta: Record<string, string>): string {
  let out = html;
  for (const [name, value] of Object.entries(meta)) {
    const tag = `<meta name="${name}" content="${escapeAttribute(value)}">`;
    const existing = new RegExp(`<meta name="${name}"[^>]*>`);
    out = existing.test(out) ? out.replace(existing, tag) : out.replace('</head>', `${tag}\n</head>`);
  }
  return out;
}

export function webPage(options: WebPageOptions): RequestHandler {
  const dist = path.join(options.distRoot ?? WEB_DIST, options.service);
  const base = options.basePath ?? '';
  const policy: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', options.contentSecurityPolicy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
  // Read at each request (a few hundred bytes), so a rebuilt page is picked up without a restart.
  const page = (): string | undefined => {
    const file = path.join(dist, 'index.html');
    return existsSync(file) ? withMeta(readFileSync(file, 'utf8'), options.meta ?? {}) : undefined;
  };
  const router = Router({ caseSensitive: true, strict: true });
  router.get(`${base}/`, policy, (_req, res) => {
    const html = page();
    if (html === undefined) {
      res
        .status(503)
        .type('text/plain')
        .send(`The ${options.service} web page is not built yet: run \`npm run build:web\`.\n`);
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  router.use(
    `${base}/static`,
    policy,
    express.static(path.join(dist, 'static'), { immutable: true, maxAge: '365d', index: false }),
  );
  for (const name of options.rootFiles ?? []) {
    router.get(`${base}/${name}`, policy, (_req, res, next) => {
      const file = path.join(dist, name);
      if (!existsSync(file)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(file);
    });
  }
  return router;
}

/** A file of a built page (`relative` inside `web/dist/<service>/`), or undefined while it is not built. */
export function builtFile(service: WebPageOptions['service'], relative: string): string | undefined {
  const file = path.join(WEB_DIST, service, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
