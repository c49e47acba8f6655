/**
 * Getting the client script into the web client: written into index.html (direct), added to the page
 * as it is served (file transformation), and the diagnosis of both.
 */
import { accessSync, constants, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { components } from '../../../generated/subtitles/types';
import type { InjectionMode } from '../config';
import { CLIENT_SCRIPT_NAME, SCRIPT_TAG } from './client-script';

export type InjectionStatus = components['schemas']['InjectionStatus'];
export type Served = InjectionStatus['ServedHtmlVerified'];

const HEAD_END = /<\/head>/i;

/**
 * The page without any `<script ...subtitles.js...></script>` (and the blanks after it), in one pass: a
 * pattern for it (`<script[^>]*name[^>]*>`) costs time growing with the cube of the page on a page of
 * unclosed tags.
 */
function withoutClientScripts(html: string): string {
  const lower = html.toLowerCase();
  const name = CLIENT_SCRIPT_NAME.toLowerCase();
  let out = '';
  let copied = 0;
  for (let at = lower.indexOf('<script'); at >= 0; at = lower.indexOf('<script', at + 1)) {
    const tagEnd = lower.indexOf('>', at);
    if (tagEnd < 0) break;
    if (!lower.slice(at, tagEnd).includes(name)) continue;
    const close = skipBlanks(lower, tagEnd + 1);
    if (!lower.startsWith('</script>', close)) continue;
    out += html.slice(copied, at);
    copied = skipBlanks(lower, close + '</script>'.length);
    at = copied - 1;
  }
  return out + html.slice(copied);
}

function skipBlanks(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at] as string)) at++;
  return at;
}

export const hasScriptTag = (html: string) => html.toLowerCase().includes(SCRIPT_TAG.toLowerCase());

export type Injection =
  | { outcome: 'already-present' }
  | { outcome: 'no-head-tag' }
  | { outcome: 'injected'; html: string };

/** Inserts the tag before the first `</head>`, unless it is there already. */
export function computeInjection(html: string): Injection {
  if (hasScriptTag(html)) return { outcome: 'already-present' };
  if (!HEAD_END.test(html)) return { outcome: 'no-head-tag' };
  return { outcome: 'injected', html: html.replace(HEAD_END, `${SCRIPT_TAG}\n</head>`) };
}

/** The served-page transform: any copy of the plugin's tag removed, one canonical tag before `</head>`. */
export function normalizeInjection(html: string): string {
  const stripped = withoutClientScripts(html);
  return HEAD_END.test(stripped) ? stripped.replace(HEAD_END, `${SCRIPT_TAG}\n</head>`) : stripped;
}

export const indexPath = (webDir: string) => path.join(webDir, 'index.html');
export const usesDirect = (mode: InjectionMode) => mode === 'direct' || mode === 'direct+file-transformation';
export const usesTransform = (mode: InjectionMode) =>
  mode === 'file-transformation' || mode === 'direct+file-transformation';

export type DirectOutcome = 'injected' | 'already-present' | 'no-head-tag' | 'index-missing' | 'failed';

/** Direct mode, run at start: writes the tag into index.html (temp file + rename); idempotent. */
export function injectIntoFile(file: string): { outcome: DirectOutcome; error?: string } {
  let html: string;
  try {
    html = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { outcome: 'index-missing' };
    return { outcome: 'failed', error: (error as Error).message };
  }
  const injection = computeInjection(html);
  if (injection.outcome !== 'injected') return { outcome: injection.outcome };
  try {
    const temp = `${file}.subtitles-${process.pid}.tmp`;
    writeFileSync(temp, injection.html);
    renameSync(temp, file);
    return { outcome: 'injected' };
  } catch (error) {
    return { outcome: 'failed', error: (error as Error).message };
  }
}

export interface IndexFile {
  path: string;
  exists: boolean;
  html: string;
  writable: boolean;
}

export function readIndexFile(file: string): IndexFile {
  let html: string;
  try {
    html = readFileSync(file, 'utf8');
  } catch {
    return { path: file, exists: false, html: '', writable: false };
  }
  let writable = true;
  try {
    accessSync(file, constants.W_OK);
  } catch {
    writable = false;
  }
  return { path: file, exists: true, html, writable };
}

export function injectionModeOf(scriptTagPresent: boolean, transform: boolean): InjectionStatus['Mode'] {
  if (scriptTagPresent && transform) return 'direct+file-transformation';
  if (scriptTagPresent) return 'direct';
  if (transform) return 'file-transformation';
  return 'none';
}

const TRANSFORM_HINT =
  'set SUBTITLES_INJECTION=file-transformation to add it to the page as it is served instead';

/** The verdict, with a message that says what is wrong and what to do, in that order. */
export function describeInjection(
  index: IndexFile,
  transform: boolean,
  served: Served,
  webPath: string,
): InjectionStatus {
  const present = index.exists && hasScriptTag(index.html);
  const base = {
    Mode: injectionModeOf(present, transform),
    ScriptTagPresent: present,
    ServedHtmlVerified: served,
  };
  const verdict = (Level: InjectionStatus['Level'], Message: string): InjectionStatus => ({
    Level,
    Message,
    ...base,
  });
  if (!index.exists) {
    return verdict(
      'error',
      `The web client's index.html was not found at ${index.path}. Set SUBTITLES_WEB_DIR to the web client's folder (the one that holds index.html) and restart the server.`,
    );
  }
  if (!present && !HEAD_END.test(index.html)) {
    return verdict(
      'error',
      `${index.path} has no </head> tag, so the client script cannot be inserted. Restore the web client's original index.html (reinstall or update the web client) and restart the server.`,
    );
  }
  if (!present && !transform) {
    if (!index.writable) {
      return verdict(
        'error',
        `The client script is not in ${index.path} and the server cannot write that file. Give the server's user write access to it (for example: sudo chown <server user> ${index.path} && sudo chmod 644 ${index.path}) and restart the server, or ${TRANSFORM_HINT}.`,
      );
    }
    return verdict(
      'warning',
      `The client script is not in ${index.path}, so the Generate Subtitles button is missing (an update of the web client may have replaced the file). Restart the server to insert it again, or ${TRANSFORM_HINT}.`,
    );
  }
  if (served === 'no') {
    return verdict(
      'warning',
      `The client script is in place, but the page served at ${webPath} does not contain it: a proxy or cache in front of the server may serve an old copy. Clear that cache and reload the web client.`,
    );
  }
  const where = present
    ? `The client script is in ${index.path}`
    : `The client script is added to ${webPath} as it is served (${index.path} itself is left unchanged)`;
  const check =
    served === 'yes'
      ? ' and the served page contains it. Nothing to do.'
      : `. The served page could not be checked (fetching ${webPath} failed); open the web client and look for the Generate Subtitles button.`;
  return verdict('ok', `${where}${check}`);
}

/** Fetches the server's own start page (3 s, 5 MB at most) and looks for the tag. */
export async function probeServedHtml(url: string | undefined, timeoutMs = 3000): Promise<Served> {
  if (!url) return 'unknown';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    const length = Number(res.headers.get('content-length') ?? '0');
    if (!res.ok || length > 5_000_000) {
      await res.body?.cancel();
      return 'unknown';
    }
    const html = await res.text();
    if (html.length > 5_000_000) return 'unknown';
    return hasScriptTag(html) ? 'yes' : 'no';
  } catch {
    return 'unknown';
  }
}
