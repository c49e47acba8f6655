// `npm run bench -- <service> [options]`: scripts/bench/<service>.ts; figures are kept in scripts/bench/README.md.
import { dispatch } from '../dispatch';

await dispatch('bench');
