import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../generated/fuel/commands';
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
