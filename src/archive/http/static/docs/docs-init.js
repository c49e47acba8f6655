// Renders the document named by this script's data-spec-url with Swagger UI (try-it-out sends the cookie).
(() => {
  const url = document.currentScript.dataset.specUrl;
  window.SwaggerUIBundle({ url, dom_id: '#api-docs', deepLinking: true, withCredentials: true });
})();
