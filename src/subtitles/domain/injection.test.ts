import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_TAG } from './client-script';
import {
  computeInjection,
  describeInjection,
  type IndexFile,
  injectIntoFile,
  injectionModeOf,
  normalizeInjection,
  probeServedHtml,
  readIndexFile,
} from './injection';

const PAGE = '<!DOCTYPE html>\n<html>\n<head>\n<title>Media</title>\n</head>\n<body></body>\n</html>\n';
const INJECTED = PAGE.replace('</head>', `${SCRIPT_TAG}\n</head>`);
const WEB = '/web/index.html';

describe('direct injection', () => {
  it('puts the tag right before </head>', () => {
    expect(computeInjection(PAGE)).toEqual({ outcome: 'injected', html: INJECTED });
  });

  it('is idempotent: a page with the tag (in any letter case) is left alone', () => {
    expect(computeInjection(INJECTED)).toEqual({ outcome: 'already-present' });
    expect(computeInjection(INJECTED.toUpperCase())).toEqual({ outcome: 'already-present' });
  });

  it('matches </HEAD> in any case and only the first one', () => {
    const page = '<html><HEAD></HEAD><template></head></template></html>';
    expect(computeInjection(page)).toEqual({
      outcome: 'injected',
      html: `<html><HEAD>${SCRIPT_TAG}\n</head><template></head></template></html>`,
    });
  });

  it('reports a page without </head>, and an empty one', () => {
    expect(computeInjection('<html><body></body></html>')).toEqual({ outcome: 'no-head-tag' });
    expect(computeInjection('')).toEqual({ outcome: 'no-head-tag' });
  });

  describe('on disk', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'subtitles-inject-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('writes the file once, then reports it already there', () => {
      const file = path.join(dir, 'index.html');
      writeFileSync(file, PAGE);
      expect(injectIntoFile(file)).toEqual({ outcome: 'injected' });
      expect(readFileSync(file, 'utf8')).toBe(INJECTED);
      expect(injectIntoFile(file)).toEqual({ outcome: 'already-present' });
      expect(readFileSync(file, 'utf8')).toBe(INJECTED);
    });

    it('reports a missing file and a file without </head>, changing nothing', () => {
      expect(injectIntoFile(path.join(dir, 'missing.html'))).toEqual({ outcome: 'index-missing' });
      const file = path.join(dir, 'headless.html');
      writeFileSync(file, '<html><body></body></html>');
      expect(injectIntoFile(file)).toEqual({ outcome: 'no-head-tag' });
      expect(readFileSync(file, 'utf8')).toBe('<html><body></body></html>');
    });

    it('reports a path it cannot read as failed (a folder in place of the file)', () => {
      expect(injectIntoFile(dir).outcome).toBe('failed');
    });

    it('reads the file, and says when it is missing', () => {
      const file = path.join(dir, 'read.html');
      writeFileSync(file, INJECTED);
      chmodSync(file, 0o644);
      expect(readIndexFile(file)).toEqual({ path: file, exists: true, html: INJECTED, writable: true });
      expect(readIndexFile(path.join(dir, 'nope.html'))).toMatchObject({ exists: false, writable: false });
    });
  });
});

describe('serve-time transformation', () => {
  it('adds one canonical tag, and removes stray copies of it', () => {
    expect(normalizeInjection(PAGE)).toBe(INJECTED);
    expect(normalizeInjection(INJECTED)).toBe(INJECTED);
    const doubled = PAGE.replace(
      '<title>',
      '<script defer src="/web/configurationpage?name=subtitles.js"></script>\n<title>',
    );
    expect(normalizeInjection(doubled)).toBe(INJECTED);
  });

  it('leaves a page without </head> as it is', () => {
    expect(normalizeInjection('<p>hi</p>')).toBe('<p>hi</p>');
  });
});

describe('Mode', () => {
  it.each([
    [true, true, 'direct+file-transformation'],
    [true, false, 'direct'],
    [false, true, 'file-transformation'],
    [false, false, 'none'],
  ] as const)('tag on disk %s, transform %s → %s', (present, transform, mode) => {
    expect(injectionModeOf(present, transform)).toBe(mode);
  });
});

describe('the diagnosis', () => {
  const file = (overrides: Partial<IndexFile> = {}): IndexFile => ({
    path: '/usr/share/media/web/index.html',
    exists: true,
    html: PAGE,
    writable: true,
    ...overrides,
  });

  it('error when index.html is missing, naming the setting to fix', () => {
    const status = describeInjection(file({ exists: false, html: '' }), false, 'unknown', WEB);
    expect(status).toMatchObject({
      Level: 'error',
      Mode: 'none',
      ScriptTagPresent: false,
      ServedHtmlVerified: 'unknown',
    });
    expect(status.Message).toContain('/usr/share/media/web/index.html');
    expect(status.Message).toContain('SUBTITLES_WEB_DIR');
  });

  it('error when index.html has no </head>', () => {
    const status = describeInjection(file({ html: '<html></html>' }), false, 'no', WEB);
    expect(status.Level).toBe('error');
    expect(status.Message).toContain('</head>');
  });

  it('error when the tag is missing and the file cannot be written, with the permission fix and the alternative', () => {
    const status = describeInjection(file({ writable: false }), false, 'no', WEB);
    expect(status.Level).toBe('error');
    expect(status.Message).toContain('chown');
    expect(status.Message).toContain('SUBTITLES_INJECTION=file-transformation');
  });

  it('warning when the tag is missing but can be written again', () => {
    const status = describeInjection(file(), false, 'no', WEB);
    expect(status).toMatchObject({ Level: 'warning', Mode: 'none', ScriptTagPresent: false });
    expect(status.Message).toContain('Restart the server');
  });

  it('ok when the tag is in the file and the served page has it', () => {
    const status = describeInjection(file({ html: INJECTED }), false, 'yes', WEB);
    expect(status).toMatchObject({
      Level: 'ok',
      Mode: 'direct',
      ScriptTagPresent: true,
      ServedHtmlVerified: 'yes',
    });
    expect(status.Message).toContain('Nothing to do');
  });

  it('ok when a serve-time transform adds it, the file left unchanged', () => {
    const status = describeInjection(file(), true, 'yes', WEB);
    expect(status).toMatchObject({ Level: 'ok', Mode: 'file-transformation', ScriptTagPresent: false });
    expect(status.Message).toContain('as it is served');
  });

  it('ok with both, and says when the served page could not be checked', () => {
    const status = describeInjection(file({ html: INJECTED }), true, 'unknown', WEB);
    expect(status).toMatchObject({ Level: 'ok', Mode: 'direct+file-transformation' });
    expect(status.Message).toContain('could not be checked');
  });

  it('warning when the served page lacks a tag that should be there (a cache in between)', () => {
    const status = describeInjection(file({ html: INJECTED }), false, 'no', WEB);
    expect(status.Level).toBe('warning');
    expect(status.Message).toContain('cache');
  });
});

describe('the served-page probe', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/with') res.end(INJECTED);
      else if (req.url === '/without') res.end(PAGE);
      else if (req.url === '/huge') {
        res.setHeader('content-length', '6000000');
        res.end();
      } else if (req.url === '/slow') setTimeout(() => res.end(INJECTED), 2000);
      else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('yes when the served page contains the tag, no when it does not', async () => {
    expect(await probeServedHtml(`${base}/with`)).toBe('yes');
    expect(await probeServedHtml(`${base}/without`)).toBe('no');
  });

  it('unknown on a non-2xx answer, a page over 5 MB, no answer in time, or nothing listening', async () => {
    expect(await probeServedHtml(`${base}/missing`)).toBe('unknown');
    expect(await probeServedHtml(`${base}/huge`)).toBe('unknown');
    expect(await probeServedHtml(`${base}/slow`, 200)).toBe('unknown');
    expect(await probeServedHtml('http://127.0.0.1:1/web/index.html')).toBe('unknown');
    expect(await probeServedHtml(undefined)).toBe('unknown');
  });
});
