// Dredd loads hooks with require(), so this file is CommonJS.
const fs = require('node:fs');
const hooks = require('hooks');

// Credentials for the live server under test: a JSON object of header name → value, e.g.
// {"Authorization": "MediaServer Token=\"<key>\""} or {"Cookie": "viewer_auth=<session>"}.
const credentials = process.env.DREDD_HEADERS ? JSON.parse(process.env.DREDD_HEADERS) : {};

const documents = new Map();
function operationOf(transaction) {
  const file = transaction.origin.filename;
  if (!documents.has(file)) documents.set(file, JSON.parse(fs.readFileSync(file, 'utf8')));
  const doc = documents.get(file);
  const operation = doc.paths[transaction.origin.resourceName]?.[transaction.request.method.toLowerCase()];
  return { doc, operation };
}

const isSuccess = (status) => status >= 200 && status < 300;

// Operations whose example request gets a success other than the first documented one: the archive's
// transcript examples ask for an item with no open request, a new one (201); asking again answers the
// open one (200), which the transcription tests check.
const EXAMPLE_SUCCESS = { requestMediaTranscript: 201, requestStoredMediaTranscript: 201 };

hooks.beforeEach((transaction, done) => {
  const status = Number(transaction.expected.statusCode);
  const { doc, operation } = operationOf(transaction);
  const successes = Object.keys(operation.responses).map(Number).filter(isSuccess).sort();
  const security = operation.security ?? doc.security ?? [];
  // An operation marked `x-access: public` needs no credential, whatever header its security names
  // (the subtitles sign-in documents the client's own Authorization header that way).
  const needsCredentials =
    operation['x-access'] !== 'public' &&
    security.length > 0 &&
    security.every((req) => Object.keys(req).length > 0);
  // One transaction per documented media type, but one example request: only the first media type's
  // answer can be produced from it (the plugin pages: the script is the example, the settings page and its
  // files are other `name`s, checked by the contract suite and the page's browser tests).
  const mediaTypes = Object.keys(operation.responses[String(status)]?.content ?? {});
  const expectedType = transaction.expected.headers?.['Content-Type']?.split(';')[0].trim();
  const otherMediaType =
    mediaTypes.length > 1 && expectedType !== undefined && expectedType !== mediaTypes[0];
  const exampleSuccess = EXAMPLE_SUCCESS[operation.operationId] ?? successes[0];
  if (status === exampleSuccess && !otherMediaType) {
    Object.assign(transaction.request.headers, credentials);
  } else if (status === 401 && needsCredentials) {
    // The documented 401 is what the same request gets without credentials: send none.
  } else {
    // Dredd's OpenAPI 3 adapter makes one transaction per documented status but can only send the one
    // example request, so an alternative success (201 beside 200) or a 400/403/404/409/5xx cannot be
    // produced from it. The contract suites in contract-tests/<service>/ send the requests that provoke
    // those statuses and check the answers against the document.
    transaction.skip = true;
  }
  done();
});

// Dredd compares Content-Type literally, so `application/json; charset=utf-8` fails against a documented
// `application/json` although it is the same media type (a known Dredd false result). Compare media types.
hooks.beforeEachValidation((transaction, done) => {
  const real = transaction.real?.headers;
  const expected = transaction.expected?.headers;
  if (real?.['content-type'] && expected?.['Content-Type']) {
    const mediaType = real['content-type'].split(';')[0].trim();
    if (mediaType === expected['Content-Type'].split(';')[0].trim()) {
      real['content-type'] = expected['Content-Type'];
    }
  }
  done();
});

// A documented `*/*` response (a media file served with its own type) matches any Content-Type, which
// Dredd does not know: it lists the documented types as the only allowed values.
hooks.beforeEachValidation((transaction, done) => {
  const real = transaction.real?.headers;
  const expected = transaction.expected?.headers;
  if (!real?.['content-type'] || !expected?.['Content-Type'] || !transaction.origin) return done();
  const { doc, operation } = operationOf(transaction);
  const response = resolve(doc, operation?.responses?.[transaction.expected.statusCode]);
  if (response?.content?.['*/*']) real['content-type'] = expected['Content-Type'];
  done();
});

// Dredd (gavel) checks a JSON body against a schema it infers from the example, matching list items by
// position, so the export's n-th message must have media exactly when the example's n-th does (a known
// Dredd false result). The export's own shape is checked with ajv by the contract suites; here the
// example's lists keep their first item only.
hooks.beforeEachValidation((transaction, done) => {
  if (!transaction.origin || transaction.expected?.statusCode !== '200') return done();
  const { operation } = operationOf(transaction);
  if (operation?.operationId !== 'exportChat' || !transaction.expected.body) return done();
  const example = JSON.parse(transaction.expected.body);
  for (const key of ['messages', 'message_versions']) example[key] = example[key].slice(0, 1);
  transaction.expected.body = JSON.stringify(example);
  done();
});

function resolve(doc, node) {
  let current = node;
  while (current?.$ref) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at, part) => at?.[part], doc);
  }
  return current;
}

// Dredd's OpenAPI 3 adapter expects every documented response header, ignoring that a header object is
// optional unless it says `required: true` (a known Dredd defect). A header the document leaves optional,
// such as fuel's X-Result-Truncated (sent only when a box is cut), is expected only when the server sent it.
hooks.beforeEachValidation((transaction, done) => {
  const expected = transaction.expected?.headers;
  const real = transaction.real?.headers ?? {};
  if (!expected) return done();
  const { doc, operation } = operationOf(transaction);
  const response = resolve(doc, operation?.responses?.[transaction.expected.statusCode]);
  for (const [name, header] of Object.entries(response?.headers ?? {})) {
    if (resolve(doc, header)?.required) continue;
    const key = Object.keys(expected).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key && real[name.toLowerCase()] === undefined) delete expected[key];
  }
  done();
});

// ---- archive
const isArchive = (transaction) => /[\\/]archive[\\/]openapi\.json$/.test(transaction.origin.filename);

// Routes whose success example the live viewer cannot produce (DREDD_TARGET=live only; the mocks still
// check them). Each answers its documented error, checked by the contract suites.
const ARCHIVE_LIVE_SKIPS = {
  // Share tokens are minted by the server and stored hashed: no token can equal the example plaintext.
  loginWithToken: 'the example token cannot exist',
};

// The transcription callback is signed as the transcription server signs it, dated now, with the live
// viewer's secret (DREDD_WEBHOOK_SECRET); its documented 401 is the same request unsigned.
hooks.beforeEach((transaction, done) => {
  if (!isArchive(transaction) || !process.env.DREDD_WEBHOOK_SECRET) return done();
  const { operation } = operationOf(transaction);
  if (operation.operationId !== 'receiveTranscriptionCallback' || transaction.skip) return done();
  const headers = transaction.request.headers;
  const at = new Date();
  headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
  if (transaction.expected.statusCode !== '401') {
    const { Webhook } = require('standardwebhooks');
    const signer = new Webhook(process.env.DREDD_WEBHOOK_SECRET);
    headers['webhook-signature'] = signer.sign(headers['webhook-id'], at, transaction.request.body);
  }
  done();
});

hooks.beforeEach((transaction, done) => {
  if (!isArchive(transaction)) return done();
  const { operation } = operationOf(transaction);
  if (process.env.DREDD_TARGET === 'live' && ARCHIVE_LIVE_SKIPS[operation.operationId]) {
    transaction.skip = true;
  }
  if (operation.operationId === 'logout') {
    // Logging out with the run's session would end it for every later transaction: log out without it.
    for (const name of Object.keys(transaction.request.headers)) {
      if (name.toLowerCase() === 'cookie') delete transaction.request.headers[name];
    }
  }
  // Dredd sends the optional X-Viewer-Only example (`true`), which turns a master request into a viewer
  // one (the documented 403): requests go without it, as a master's browser sends them.
  for (const name of Object.keys(transaction.request.headers)) {
    if (name.toLowerCase() === 'x-viewer-only') delete transaction.request.headers[name];
  }
  if (operation.operationId === 'getMessageByDate') {
    // The path's example chat is not a forum, so the optional topic_id example finds no message (the
    // documented 404): the example request jumps to the date in the whole chat.
    transaction.fullPath = transaction.fullPath.replace(/([?&])topic_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
    transaction.request.uri = transaction.fullPath;
  }
  if (operation.operationId === 'listChatMedia') {
    // As for the messages: `before_id` and `after_id` together are a documented 400, so the example
    // request pages with `before_id` alone.
    transaction.fullPath = transaction.fullPath.replace(/([?&])after_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
    transaction.request.uri = transaction.fullPath;
  }
  if (operation.operationId === 'listMessages') {
    // Dredd sends every optional parameter's example at once; `after_id` excludes the `before_` cursor
    // (a documented 400), so the example request pages by the before cursor alone.
    transaction.fullPath = transaction.fullPath.replace(/([?&])after_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
    transaction.request.uri = transaction.fullPath;
  }
  done();
});

// ---- subtitles
const isSubtitles = (transaction) => /[\\/]subtitles[\\/]openapi\.json$/.test(transaction.origin.filename);

// Dredd sends the admin API key, which is no user (and signing in instead would end the session at the
// logout example). Each of these answers its documented error to a key, checked by the live contract
// suite; web-client.test.ts walks the signed-in path where they answer 200.
const SUBTITLES_LIVE_SKIPS = {
  getCurrentUser: 'an API key has no user of its own (400)',
  getUserById: 'the example invents a user id (404)',
};

hooks.beforeEach((transaction, done) => {
  if (!isSubtitles(transaction)) return done();
  const { operation } = operationOf(transaction);
  if (process.env.DREDD_TARGET === 'live' && SUBTITLES_LIVE_SKIPS[operation.operationId]) {
    transaction.skip = true;
  }
  done();
});
