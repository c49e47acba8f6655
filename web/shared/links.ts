/**
 * The one door from data to a link: text from an export or the platform (entity URLs, bare links, link
 * previews, bot buttons) becomes an `href` only through `safeHref`. Only the schemes a chat app opens
 * pass; anything else (`javascript:`, `data:`, `vbscript:`, `file:`, in any case or with blanks and
 * control characters around or inside the scheme) is shown as text.
 */
const ALLOWED = new Set(['http:', 'https:', 'tg:', 'mailto:']);

/** The link to put in `href`, or null when the value must stay text. Parsed as the browser would parse it. */
export function safeHref(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return ALLOWED.has(url.protocol) ? url.href : null;
}

/** A bare address from message text (`example.com/x`): https unless it names its scheme. */
export function safeBareHref(text: string): string | null {
  return safeHref(/^[a-z][a-z0-9+.-]*:/i.test(text.trim()) ? text.trim() : `https://${text.trim()}`);
}
