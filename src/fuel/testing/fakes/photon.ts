/** A stand-in for the Photon geocoder (`/api?q=…`), answering GeoJSON features. */
import { type FailureMode, garbage, json, type Running, serve } from './serve';

export interface PhotonFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: unknown };
  properties: Record<string, unknown>;
}

export interface FakePhoton extends Running {
  mode: FailureMode;
  /** Answer to every query (Photon ranks; the fake does not). */
  features: PhotonFeature[];
  readonly requests: URL[];
  reset(): void;
}

const place = (
  name: string | undefined,
  coordinates: unknown,
  extra: Record<string, unknown> = {},
): PhotonFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates },
  properties: {
    osm_id: 26_808_432,
    osm_type: 'N',
    osm_key: 'place',
    osm_value: 'square',
    ...(name === undefined ? {} : { name }),
    ...extra,
  },
});

/** A realistic answer for "Puerta del Sol": good places, one without a name, two without valid coordinates. */
export const SAMPLE_PHOTON_FEATURES: PhotonFeature[] = [
  place('Puerta del Sol', [-3.7035, 40.4169], {
    city: 'Madrid',
    state: 'Comunidad de Madrid',
    country: 'España',
    countrycode: 'ES',
  }),
  place('Sol', [-3.7033, 40.4167], { city: 'Madrid', state: 'Comunidad de Madrid', country: 'España' }),
  place('Broken', [-3.7, 'x']),
  place(undefined, [-4.0236, 39.8606], { city: 'Toledo', state: 'Castilla-La Mancha', country: 'España' }),
  place('Off the globe', [-3.7, 140]),
  place('Puerta del Sol', [-0.3763, 39.4699], { city: 'València', country: 'España' }),
  place('Sol de Mayo', [-58.38, -34.6], { country: 'Argentina' }),
  place('Calle del Sol', [-5.98, 37.39], { city: 'Sevilla', country: 'España' }),
];

export async function startFakePhoton(): Promise<FakePhoton> {
  const requests: URL[] = [];
  const fake = {
    mode: 'ok',
    features: SAMPLE_PHOTON_FEATURES,
    requests,
    reset() {
      fake.mode = 'ok';
      fake.features = SAMPLE_PHOTON_FEATURES;
      requests.length = 0;
    },
  } as FakePhoton;
  const running = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://photon');
    requests.push(url);
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') return json(res, 500, { message: 'internal error' });
    if (fake.mode === 'garbage') return garbage(res);
    if (url.pathname !== '/api' || !url.searchParams.get('q')) {
      return json(res, 400, { message: "missing search term 'q': /?q=berlin" });
    }
    json(res, 200, { type: 'FeatureCollection', features: fake.features });
  });
  return Object.assign(fake, { url: running.url, close: running.close });
}
