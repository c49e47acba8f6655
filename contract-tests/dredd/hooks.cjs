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

hooks.beforeEach((transaction, done) => {
  const status = Number(transaction.expected.statusCode);
  const { doc, operation } = operationOf(transaction);
  const successes = Object.keys(operation.responses).map(Number).filter(isSuccess).sort();
  const security = operation.security ?? doc.security ?? [];
  const needsCredentials = security.length > 0 && security.every((req) => Object.keys(req).length > 0);
  if (status === successes[0]) {
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
