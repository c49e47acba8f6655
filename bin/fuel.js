#!/usr/bin/env node
// The fuel command line as a package bin (see run.js for source or compiled).
import { run } from './run.js';

await run('src/fuel/cli.ts', 'fuel-cli');
