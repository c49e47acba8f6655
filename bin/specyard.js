#!/usr/bin/env node
// The container image's one entry point: `specyard <service> <command> [args]` runs that service's command
// line (`archive serve`, `archive schedule`, `fuel scrape --country=ES`, `subtitles serve`), `specyard all`
// runs the three servers in one process, and `specyard healthcheck` checks whichever of them this container
// runs (it reads the container's main command from /proc/1/cmdline).
import { run } from './run.js';

const ENTRIES = {
  archive: ['src/archive/cli.ts', 'archive-cli'],
  fuel: ['src/fuel/cli.ts', 'fuel-cli'],
  subtitles: ['src/subtitles/cli.ts', 'subtitles-cli'],
  all: ['src/main.ts', 'main'],
  healthcheck: ['src/healthcheck.ts', 'healthcheck'],
};

const [name, ...args] = process.argv.slice(2);
const entry = ENTRIES[name ?? ''];
if (!entry) {
  console.error(`usage: specyard <${Object.keys(ENTRIES).join('|')}> [command] [options]`);
  process.exit(2);
}
process.argv = [process.argv[0], process.argv[1], ...args];
await run(...entry);
