#!/usr/bin/env node
// The archive command line as a package bin: TypeScript runs through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/archive/cli.ts');
