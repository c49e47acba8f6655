/** `http://host/base///` → `http://host/base`: a loop, where `/\/+$/` would cost time growing with the square of a run of slashes. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}
