// `npm run bench -- subtitles web`: the subtitles web page's budgets in headless Chromium (web/bench.ts).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Loaded by address: the page code is type-checked with the browser's types by web/tsconfig.json.
const { benchPage } = await import(
  pathToFileURL(path.resolve(import.meta.dirname, '../../web/bench.ts')).href
);
await benchPage('subtitles');
