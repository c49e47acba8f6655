// Shared by the package bins: run a service entry point from its TypeScript source where tsx is installed
// (a development checkout), else from the compiled bundle under dist/server/ (a production install, such as
// the container image, which carries no TypeScript loader).
import { existsSync } from 'node:fs';

export async function run(source, compiled) {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    const bundle = new URL(`../dist/server/${compiled}.js`, import.meta.url);
    if (!existsSync(bundle)) {
      console.error(`dist/server/${compiled}.js is missing: run \`npm run build\` first`);
      process.exit(1);
    }
    await import(bundle.href);
    return;
  }
  register();
  await import(new URL(`../${source}`, import.meta.url).href);
}
