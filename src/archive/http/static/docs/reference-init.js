// The read-only reference: the same renderer with every try-it-out form switched off.
(() => {
  const url = document.currentScript.dataset.specUrl;
  window.SwaggerUIBundle({ url, dom_id: '#api-docs', deepLinking: true, supportedSubmitMethods: [] });
})();
