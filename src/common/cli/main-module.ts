import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at `moduleUrl` is the script Node was started with. Compared as real paths: Node
 * loads a module from its real path, so a script started through a symbolic link (a checkout behind a
 * link, a folder of links to one) has `import.meta.url` and `process.argv[1]` spelled differently.
 */
export function isMainModule(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (!argv1) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
