// `npm run demo -- <service> [options]`: loads a realistic demo dataset (scripts/demo/<service>.ts).
import { dispatch } from './dispatch';

await dispatch('demo');
