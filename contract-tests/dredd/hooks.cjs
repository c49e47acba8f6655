// Dredd loads hooks with require(), so this file is CommonJS.
const hooks = require('hooks');

// Credentials for the live server under test: a JSON object of header name → value, e.g.
// {"Authorization": "MediaServer Token=\"<key>\""} or {"Cookie": "viewer_auth=<session>"}.
const extraHeaders = process.env.DREDD_HEADERS ? JSON.parse(process.env.DREDD_HEADERS) : {};

hooks.beforeEach((transaction, done) => {
  Object.assign(transaction.request.headers, extraHeaders);
  done();
});

// Dredd compares Content-Type literally, so `application/json; charset=utf-8` fails against a documented
// `application/json` although it is the same media type (a known Dredd false result). Compare media types.
hooks.beforeEachValidation((transaction, done) => {
  const real = transaction.real?.headers;
  const expected = transaction.expected?.headers;
  if (real && expected && real['content-type'] && expected['Content-Type']) {
    const mediaType = real['content-type'].split(';')[0].trim();
    if (mediaType === expected['Content-Type'].split(';')[0].trim()) {
      real['content-type'] = expected['Content-Type'];
    }
  }
  done();
});
