// `npm run bench -- subtitles load [--duration 30] [--connections 50] [--soak 600]`: see scripts/bench/load.ts.
import { runLoad } from './load';

await runLoad('subtitles');
