import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../generated/fuel/commands';
import { parseCall, runApiCli, UsageError } from './api-cli';
import { type RunningMock, startPrism } from './prism';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const nearest = commands.listNearestStations;
if (!nearest) throw new Error('the fuel document lost listNearestStations');

describe('parseCall', () => {
  it('types parameters from the document and places them by location', () => {
    const call = parseCall('listNearestStations', nearest, [
      '--lat',
      '40.4',
      '--lon=-3.7',
      '--radius_km',
      '5',
      '--fuel',
      'E5',
      '--limit',
      '3',
    ]);
    expect(call.params.query).toEqual({ lat: 40.4, lon: -3.7, radius_km: 5, fuel: 'E5', limit: 3 });
  });

  it('rejects unknown, missing, mistyped and out-of-enum parameters', () => {
    const base = ['--lat', '40', '--lon', '-3', '--radius_km', '5', '--fuel', 'B7'];
    expect(() => parseCall('listNearestStations', nearest, [...base, '--colour', 'red'])).toThrow(
      /no parameter --colour/,
    );
    expect(() => parseCall('listNearestStations', nearest, base.slice(2))).toThrow(/needs --lat/);
    expect(() => parseCall('listNearestStations', nearest, [...base, '--limit', '2.5'])).toThrow(
      /whole number/,
    );
    expect(() => parseCall('listNearestStations', nearest, ['--fuel', 'DIESEL'])).toThrow(UsageError);
  });

  it('requires the body an operation needs', () => {
    const route = commands.planRoute;
    if (!route) throw new Error('missing planRoute');
    expect(() => parseCall('planRoute', route, [])).toThrow(/needs --body/);
    expect(parseCall('planRoute', route, ['--body', '{"origin":[1,2]}']).body).toEqual({ origin: [1, 2] });
    expect(() => parseCall('planRoute', route, ['--body', '{oops'])).toThrow(/must be JSON/);
  });
});

describe('npm run api against a mock', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startPrism('fuel');
  }, 60_000);
  afterAll(() => mock.stop());

  it('calls the operation through the typed client and prints the JSON answer', async () => {
    const out = sink();
    const err = sink();
    const code = await runApiCli(['fuel', 'getConfig', '--base-url', mock.url], out.stream, err.stream);
    expect(code).toBe(0);
    expect(err.text()).toMatch(/^200/);
    expect(JSON.parse(out.text())).toHaveProperty('defaultCountry');
  });

  it('exits 2 with usage for an unknown operation', async () => {
    const err = sink();
    expect(await runApiCli(['fuel', 'listPlanets'], sink().stream, err.stream)).toBe(2);
    expect(err.text()).toMatch(/no operation "listPlanets"/);
  });
});

describe('npm run api on an error answer', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'database unreachable' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('prints the status and the error body, and exits 1', async () => {
    const out = sink();
    const err = sink();
    const code = await runApiCli(['fuel', 'getConfig', '--base-url', url], out.stream, err.stream);
    expect(code).toBe(1);
    expect(err.text()).toMatch(/^503 Service Unavailable/);
    expect(err.text()).not.toMatch(/Body is unusable/);
    expect(JSON.parse(out.text())).toEqual({ error: 'database unreachable' });
  });
});

describe('npm run api without --base-url', () => {
  it('finds each service on the port its own variable sets, and names that variable when it is wrong', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'here' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      for (const [service, env] of [
        ['fuel', { FUEL_PORT: port }],
        ['fuel', { PORT: port }],
        ['archive', { VIEWER_PORT: port }],
        ['archive', { ARCHIVE_VIEWER_PORT: port }],
        ['subtitles', { SUBTITLES_PORT: port }],
      ] as const) {
        const out = sink();
        const operation =
          service === 'fuel' ? 'getConfig' : service === 'archive' ? 'checkAuth' : 'getPublicSystemInfo';
        await runApiCli([service, operation], out.stream, sink().stream, env);
        expect(JSON.parse(out.text()), `${service} ${JSON.stringify(env)}`).toEqual({ error: 'here' });
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const err = sink();
    expect(await runApiCli(['fuel', 'getConfig'], sink().stream, err.stream, { FUEL_PORT: 'eighty' })).toBe(
      2,
    );
    expect(err.text()).toMatch(/^FUEL_PORT must be a whole number from 0 to 65535, not "eighty"/);
  });
});
