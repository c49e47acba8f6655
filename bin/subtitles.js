#!/usr/bin/env node
// The subtitles command line as a package bin (see run.js for source or compiled).
import { run } from './run.js';

await run('src/subtitles/cli.ts', 'subtitles-cli');
