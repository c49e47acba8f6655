/** The archive store on PostgreSQL: its driver (driver.ts) and what its queries write differently (capabilities.ts). */
export { POSTGRES_CAPABILITIES } from './capabilities';
export { PostgresDriver, type PostgresOptions } from './driver';
