/**
 * The client script the plugin injects into the web client: a "Generate Subtitles" button that queues
 * a media file through the plugin's own route. Its text is the documented example of
 * `GET /web/configurationpage` for the default route segment and no base path.
 */
export const CLIENT_SCRIPT_NAME = 'subtitles.js';

/** The tag written before `</head>`; `src` is relative to `/web/`, where the web client is served. */
export const SCRIPT_TAG = `<script src="configurationpage?name=${CLIENT_SCRIPT_NAME}"></script>`;

export function clientScript(basePath: string, plugin: string): string {
  const route = JSON.stringify(`${basePath}/Plugins/${encodeURIComponent(plugin)}/Queue/Items`);
  return `// Adds a Generate Subtitles button to the web client.
(function () {
  'use strict';
  var route = ${route};
  function generate() {
    var path = window.prompt('Media file, relative to the media folder:');
    if (!path) return;
    var language = window.prompt('Language (ISO 639 code):', 'en');
    if (!language) return;
    var token = window.sessionStorage.getItem('subtitles.token') || window.prompt('Administrator API key:');
    if (!token) return;
    window.sessionStorage.setItem('subtitles.token', token);
    fetch(route, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'MediaServer Token="' + token + '"' },
      body: JSON.stringify({ path: path, language: language })
    }).then(function (res) {
      window.alert(res.status === 202 ? 'Queued for subtitles.' : 'Not queued (HTTP ' + res.status + ').');
    });
  }
  function mount() {
    if (document.getElementById('subtitles-generate')) return;
    var button = document.createElement('button');
    button.id = 'subtitles-generate';
    button.type = 'button';
    button.textContent = 'Generate Subtitles';
    button.addEventListener('click', generate);
    document.body.appendChild(button);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
  else mount();
})();
`;
}
