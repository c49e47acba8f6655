// `npm run typecheck`: tsc over the server code and over the pages (web/tsconfig.json, the DOM's types),
// the two side by side, each keeping its incremental state under node_modules/.cache/tsc (a check after a
// small change reads only what changed). Exits non-zero when either finds an error.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = [
  ['tsconfig.json', 'server'],
  ['web/tsconfig.json', 'web'],
];
const codes = await Promise.all(
  projects.map(
    ([project, name]) =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [
            tsc,
            '--noEmit',
            '-p',
            project,
            '--incremental',
            '--tsBuildInfoFile',
            `node_modules/.cache/tsc/${name}.tsbuildinfo`,
          ],
          { stdio: 'inherit' },
        );
        child.on('exit', (code) => resolve(code ?? 1));
      }),
  ),
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
