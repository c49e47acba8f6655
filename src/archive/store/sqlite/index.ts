/** The archive store on SQLite: its driver (driver.ts) and what its queries write differently (capabilities.ts). */
export { SQLITE_CAPABILITIES } from './capabilities';
export { SqliteDriver, type SqliteOptions } from './driver';
