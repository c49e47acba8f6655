#!/usr/bin/env node
// The archive command line as a package bin (see run.js for source or compiled).
import { run } from './run.js';

await run('src/archive/cli.ts', 'archive-cli');
