/**
 * The built web page of a service (`web/dist/<service>/`, made by `npm run build:web` or `npm start`), for
 * the handlers of the documented `GET /` and `GET /static/{file}`: the page's `index.html` with `meta`
 * values written into its `<meta name=…>` tags at serve time (settings a page needs before its first
 * request, without an inline script), and the files of its `static/` folder. While the page is not built,
 * `/` says so (503).
 */
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = path.resolve(here, '../../../web/dist');

export type WebService = 'archive' | 'fuel' | 'subtitles';

/** Where a service's page is: the build (`web/dist`) unless a test serves pages of its own. */
export interface BuiltPage {
  service: WebService;
  /** The folder holding `<service>/index.html` and `<service>/static/` (default `web/dist`). */
  distRoot?: string | undefined;
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
    const at = out.indexOf(`<meta name="${name}"`);
    const end = at < 0 ? -1 : out.indexOf('>', at);
    out = end >= 0 ? out.slice(0, at) + tag + out.slice(end + 1) : out.replace('</head>', `${tag}\n</head>`);
  }
  return out;
}

const folderOf = (page: BuiltPage) => path.join(page.distRoot ?? WEB_DIST, page.service);

/** A file of a built page (`relative` inside its folder), or undefined while it is not built. */
export function builtFile(page: BuiltPage, relative: string): string | undefined {
  const file = path.join(folderOf(page), relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * Answers `GET /`: the page (read at each request, a few hundred bytes, so a rebuilt page is picked up
 * without a restart) with `no-cache` and the page's policy, or 503 with a hint while it is not built.
 */
export function sendWebPage(
  res: Response,
  page: BuiltPage & { contentSecurityPolicy: string; meta?: Record<string, string> },
): void {
  res.setHeader('Content-Security-Policy', page.contentSecurityPolicy);
  const html = builtFile(page, 'index.html');
  if (html === undefined) {
    res
      .status(503)
      .type('text/plain')
      .send(`The ${page.service} web page is not built yet: run \`npm run build:web\`.\n`);
    return;
  }
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(withMeta(html, page.meta ?? {}));
}

/** A plain file name: no folder, not hidden. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Answers `GET /static/{file}` with a file of the build's `static/` folder, kept for a year (the build
 * names its files by their content). Resolves false, having sent nothing, when there is no such file.
 */
export async function sendWebAsset(
  res: Response,
  asset: BuiltPage & { file: string; contentSecurityPolicy: string },
): Promise<boolean> {
  if (!PLAIN_NAME.test(asset.file)) return false;
  const file = path.join(folderOf(asset), 'static', asset.file);
  const found = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found) return false;
  res.setHeader('Content-Security-Policy', asset.contentSecurityPolicy);
  await sendFile(res, file, { maxAge: '365d', immutable: true });
  return true;
}

/**
 * Answers `GET /favicon.ico` with the icon the page's build made, kept for a day. Resolves false, having
 * sent nothing, while the page is not built.
 */
export async function sendFavicon(res: Response, page: BuiltPage): Promise<boolean> {
  const file = path.join(folderOf(page), 'favicon.ico');
  const found = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found) return false;
  res.type('image/x-icon');
  await sendFile(res, file, { maxAge: '1d' });
  return true;
}

/** `res.sendFile` as a promise; a client that went away is not an error. */
export function sendFile(
  res: Response,
  file: string,
  options: { maxAge: string; immutable?: boolean },
): Promise<void> {
  return new Promise((resolve, reject) => {
    res.sendFile(file, options, (error) => {
      if (error && !res.headersSent) reject(error);
      else resolve();
    });
  });
}
