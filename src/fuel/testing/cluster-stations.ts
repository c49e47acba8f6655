/** Stations in units as the cluster builders take them, for the model's tests. */
import { seededRandom } from '../../common/seeded-random';
import type { ClusterStations } from '../model/cluster-pyramid';
import { worldUnits } from '../model/tiles';

/** A dense town (a third of them), the rest over a country, a few at one place; some without a price. */
export function clusterStations(count: number, seed: number): ClusterStations {
  const next = seededRandom(seed);
  const stations: ClusterStations = {
    ux: new Uint32Array(count),
    uy: new Uint32Array(count),
    price: new Float64Array(count),
    currency: new Int32Array(count),
    currencies: ['EUR', 'CHF'],
  };
  for (let s = 0; s < count; s++) {
    // A dense town (a third), the rest over a country; a few at one place; some without a price.
    const [lon, lat] =
      s % 3 === 0
        ? [-3.7 + next() * 0.05, 40.4 + next() * 0.05]
        : s % 50 === 1
          ? [2, 41]
          : [-9 + next() * 12, 36 + next() * 7];
    [stations.ux[s], stations.uy[s]] = worldUnits(lon, lat);
    const priced = s % 11 !== 5;
    // Few distinct prices, so ties and even counts are common.
    stations.price[s] = priced ? 1.3 + Math.floor(next() * 40) / 100 : Number.NaN;
    stations.currency[s] = priced ? (s % 97 === 0 ? 1 : 0) : -1;
  }
  return stations;
}
