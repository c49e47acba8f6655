// `npm run demo -- fuel`: loads the demo dataset (stations, prices and EV chargers across Spain and Portugal)
// into the store the server uses (DATABASE_URL, or <DATA_DIR>/fuel.db). Running it again refreshes it.
import { ConfigError } from '../../src/common/env';
import { loadFuelConfig } from '../../src/fuel/config';
import { demoDataset, seedDemo } from '../../src/fuel/demo/dataset';
import { describeLocation, openFuelStore } from '../../src/fuel/store/open';

try {
  const { database, port } = loadFuelConfig(process.env);
  const store = await openFuelStore(database);
  try {
    const written = await seedDemo(store, demoDataset(new Date()));
    const stats = await store.stats();
    console.log(
      `fuel demo: ${written.stations} stations and ${written.prices} prices written to ${describeLocation(database)}`,
    );
    for (const c of stats.countries) console.log(`  ${c.code}: ${c.stations} stations, ${c.prices} prices`);
    console.log(`Start the server with \`npm run fuel -- serve\` and try:
  curl 'http://127.0.0.1:${port}/api/stations?bbox=-3.80,40.35,-3.60,40.50&fuel=B7'
  curl 'http://127.0.0.1:${port}/api/stations/nearest?lat=38.7223&lon=-9.1393&radius_km=5&fuel=E5'
  curl 'http://127.0.0.1:${port}/api/stations?bbox=-10,36,4,44&fuel=EV'`);
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? `fuel: ${error.message}` : error);
  process.exit(1);
}
