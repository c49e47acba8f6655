/**
 * Inside the media server's web client the page shares its document with the client's Custom Elements
 * polyfill (webcomponents.js 0.7, release 10.11), which replaces `document.createElementNS` with one that
 * reads its third argument as a type-extension name: a string it lower-cases. The standard third argument,
 * which Preact passes, is an options object `{ is }`. Hand the polyfill the name it reads (`is`, or none),
 * so both the client's elements and this page's render. Standing alone, the native function is left as is.
 */
export function adaptHostDocument(doc: Document = document): void {
  const current = doc.createElementNS;
  if (/\[native code\]/.test(Function.prototype.toString.call(current))) return;
  doc.createElementNS = function (this: Document, namespace: string | null, tag: string, options?: unknown) {
    const is = typeof options === 'string' ? options : (options as { is?: unknown } | null | undefined)?.is;
    return typeof is === 'string'
      ? current.call(this, namespace, tag, is as never)
      : current.call(this, namespace, tag);
  } as Document['createElementNS'];
}
