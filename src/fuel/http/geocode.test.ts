import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resettingPort } from '../../common/testing/ports';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

describe('GET /api/geocode', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterEach(() => {
    fuel.photon.reset();
  });
  afterAll(async () => {
    await fuel.close();
  });

  const search = (query: string) => fetch(`${fuel.url}/api/geocode?${query}`);

  it('returns at most 5 places, skipping bad coordinates and naming nameless places after the query', async () => {
    const res = await search('q=Puerta%20del%20Sol');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=600');
    expect(await readJson(res)).toEqual([
      {
        name: 'Puerta del Sol',
        city: 'Madrid',
        state: 'Comunidad de Madrid',
        country: 'España',
        coordinates: [-3.7035, 40.4169],
      },
      {
        name: 'Sol',
        city: 'Madrid',
        state: 'Comunidad de Madrid',
        country: 'España',
        coordinates: [-3.7033, 40.4167],
      },
      {
        name: 'Puerta del Sol',
        city: 'Toledo',
        state: 'Castilla-La Mancha',
        country: 'España',
        coordinates: [-4.0236, 39.8606],
      },
      {
        name: 'Puerta del Sol',
        city: 'València',
        state: null,
        country: 'España',
        coordinates: [-0.3763, 39.4699],
      },
      { name: 'Sol de Mayo', city: null, state: null, country: 'Argentina', coordinates: [-58.38, -34.6] },
    ]);
    const asked = fuel.photon.requests[0] as URL;
    expect(asked.pathname).toBe('/api');
    expect(Object.fromEntries(asked.searchParams)).toEqual({ q: 'Puerta del Sol', limit: '5' });
  });

  it('biases by location only when both lat and lon are given', async () => {
    await search('q=Sol&lat=40.4&lon=-3.7');
    await search('q=Sol&lat=40.4');
    await search('q=Sol&lon=-3.7');
    const [both, latOnly, lonOnly] = fuel.photon.requests as [URL, URL, URL];
    expect(both.searchParams.get('lat')).toBe('40.4');
    expect(both.searchParams.get('lon')).toBe('-3.7');
    for (const url of [latOnly, lonOnly]) {
      expect(url.searchParams.has('lat')).toBe(false);
      expect(url.searchParams.has('lon')).toBe(false);
    }
  });

  it.each(['error', 'garbage'] as const)('answers [] when the geocoder answers %s', async (mode) => {
    fuel.photon.mode = mode;
    const res = await search('q=Sol');
    expect(res.status).toBe(200);
    expect(await readJson(res)).toEqual([]);
  });

  it('answers [] when the geocoder sends JSON that is not a feature collection', async () => {
    fuel.photon.features = 'nothing' as never;
    expect(await readJson(await search('q=Sol'))).toEqual([]);
  });

  it('answers 502 Geocoding failed when the geocoder does not answer in time', async () => {
    fuel.photon.mode = 'hang';
    const res = await search('q=Sol');
    expect(res.status).toBe(502);
    expect(await readJson(res)).toEqual({ error: 'Geocoding failed' });
  });

  it.each([
    ['q=', '/query/q'],
    [`q=${'x'.repeat(201)}`, '/query/q'],
    ['lat=40', '/query/q'],
    ['q=Sol&lat=91&lon=0', '/query/lat'],
    ['q=Sol&lat=40&lon=-181', '/query/lon'],
  ])('rejects %s', async (query, path) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    const body = await readJson(res);
    expect(body.error).toBe('Invalid parameters');
    expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers a coordinate pair, latitude first, with that point and without asking the geocoder', async () => {
    for (const q of ['40.4168, -3.7038', '40.4168,-3.7038', ' 40.4168 -3.7038 ']) {
      expect(await readJson(await search(`q=${encodeURIComponent(q)}`))).toEqual([
        { name: q.trim(), city: null, state: null, country: null, coordinates: [-3.7038, 40.4168] },
      ]);
    }
    // Degrees-minutes-seconds, decimal minutes and hemisphere letters, as the upstream's page reads them.
    for (const q of [`40°25'00.5"N 3°42'13.7"W`, '40 25.0083, -3 42.2283', '40.4168N 3.7038W']) {
      const [place] = (await readJson(await search(`q=${encodeURIComponent(q)}`))) as {
        coordinates: [number, number];
      }[];
      expect(place?.coordinates.map((c) => c.toFixed(4))).toEqual(['-3.7038', '40.4168']);
    }
    expect(fuel.photon.requests).toHaveLength(0);
    // Out of range, it is an ordinary search.
    await search(`q=${encodeURIComponent('95.1, 10')}`);
    expect(fuel.photon.requests).toHaveLength(1);
  });

  it('accepts 200 characters', async () => {
    expect((await search(`q=${'x'.repeat(200)}`)).status).toBe(200);
  });
});

describe('GET /api/geocode without a geocoder or with one that refuses connections', () => {
  it('without a geocoder, finds places among the stations’ towns, then their addresses', async () => {
    const fuel = await startTestFuel({
      configure: (c) => ({ ...c, geocoder: { ...c.geocoder, url: undefined } }),
    });
    try {
      const res = await fetch(`${fuel.url}/api/geocode?q=madrid`);
      expect(res.status).toBe(200);
      const places = (await readJson(res)) as {
        name: string;
        country: string;
        coordinates: [number, number];
      }[];
      // Named as the stations' feed writes it (Spain's in capitals).
      expect(places[0]).toMatchObject({ name: 'MADRID', country: 'ES' });
      const [lon, lat] = places[0]?.coordinates ?? [0, 0];
      expect(Math.abs(lon + 3.7)).toBeLessThan(0.5);
      expect(Math.abs(lat - 40.4)).toBeLessThan(0.5);
      expect(await readJson(await fetch(`${fuel.url}/api/geocode?q=zzqx`))).toEqual([]);
      expect(fuel.photon.requests).toHaveLength(0);
    } finally {
      await fuel.close();
    }
  });

  it('answers 502 Geocoding failed when the connection fails', async () => {
    const upstream = await resettingPort();
    const fuel = await startTestFuel({
      configure: (c) => ({ ...c, geocoder: { ...c.geocoder, url: upstream.url } }),
    });
    try {
      const res = await fetch(`${fuel.url}/api/geocode?q=Sol`);
      expect(res.status).toBe(502);
      expect(await readJson(res)).toEqual({ error: 'Geocoding failed' });
    } finally {
      await fuel.close();
      await upstream.close();
    }
  });
});
