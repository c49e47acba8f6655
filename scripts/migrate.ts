// `npm run migrate -- <service>`: runs that service's numbered migrations (scripts/migrate/<service>.ts).
import { dispatch } from './dispatch';

await dispatch('migrate');
