/**
 * `specyard healthcheck [<service> <command>]`: the container image's HEALTHCHECK. Without arguments it
 * checks what the container runs, read from the main process's command line (/proc/1/cmdline).
 * Exit 0 healthy, 1 not.
 */
import { readFileSync } from 'node:fs';
import { healthy, targetOf } from './common/healthcheck';

function mainCommandLine(): string[] {
  try {
    return readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

const args = process.argv.slice(2);
const target = targetOf(args.length > 0 ? args : mainCommandLine());
if (!target) {
  console.error('healthcheck: no service given and none found in the container command');
  process.exit(1);
}
process.exit((await healthy(target)) ? 0 : 1);
