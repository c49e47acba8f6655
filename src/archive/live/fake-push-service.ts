/**
 * For tests: a push service on 127.0.0.1 that does what a real one checks. It verifies the VAPID
 * `Authorization: vapid t=<JWT>, k=<key>` header (ES256 signature, audience, expiry, subject), decrypts the
 * aes128gcm body (RFC 8188/8291) with the browser side's keys, and answers with the status a test scripts.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';

const b64u = (buf: Buffer) => buf.toString('base64url');

/** A browser's push subscription keys: the P-256 key pair and the auth secret. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) }, auth };
}

export interface Received {
  path: string;
  payload: unknown;
  ttl: string | undefined;
  /** Problems with the VAPID header or the encryption; empty when all checks passed. */
  problems: string[];
}

function checkVapid(header: string | undefined, origin: string, now: number): string[] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return [`no vapid authorization header: ${header}`];
  const [, jwt = '', key = ''] = match;
  const [head = '', body = '', sig = ''] = jwt.split('.');
  const problems: string[] = [];
  const header0 = JSON.parse(Buffer.from(head, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (header0.alg !== 'ES256') problems.push(`alg ${header0.alg}`);
  if (claims.aud !== origin) problems.push(`aud ${claims.aud} != ${origin}`);
  if (!(claims.exp > now / 1000 && claims.exp <= now / 1000 + 24 * 3600)) problems.push(`exp ${claims.exp}`);
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    problems.push(`sub ${claims.sub}`);
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(sig, 'base64url'),
  );
  if (!ok) problems.push('JWT signature does not verify');
  return problems;
}

/** Decrypts an aes128gcm Web Push body for the browser holding `ecdh` and `auth`. */
export function decrypt(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('bad padding delimiter');
  return padded.subarray(0, end);
}

export interface FakePushService {
  url: string;
  received: Received[];
  /** Statuses to answer, per path, in turn (then 201). */
  script: Map<string, number[]>;
  /** Resolves when `n` notifications have arrived in total. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startFakePushService(
  browsers: Map<string, ReturnType<typeof browserKeys>>,
): Promise<FakePushService> {
  const received: Received[] = [];
  const script = new Map<string, number[]>();
  const waiters: { n: number; resolve: (r: Received[]) => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const origin = `http://${req.headers.host}`;
      const problems = checkVapid(req.headers.authorization, origin, Date.now());
      if (req.headers['content-encoding'] !== 'aes128gcm') problems.push('content-encoding');
      let payload: unknown = null;
      const browser = browsers.get(path);
      try {
        if (!browser) throw new Error(`unknown subscription ${path}`);
        payload = JSON.parse(decrypt(Buffer.concat(chunks), browser.ecdh, browser.auth).toString());
      } catch (error) {
        problems.push(`decrypt: ${(error as Error).message}`);
      }
      received.push({ path, payload, ttl: req.headers.ttl as string | undefined, problems });
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received);
        }
      }
      const status = script.get(path)?.shift() ?? 201;
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script,
    waitFor: (n) =>
      received.length >= n
        ? Promise.resolve(received)
        : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
