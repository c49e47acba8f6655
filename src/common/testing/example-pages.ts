/**
 * A web page "build" made from a service's document: `index.html` is the example of `getWebPage` and the
 * one file under `static/` is the example of `getWebAsset` under the example's name. The contract suites
 * and Dredd serve it, so the examples are what the live server answers, whatever `web/dist` holds (the
 * real build has hashed names no example can know, and is made by other suites running beside them). The
 * icon is the one the build makes.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { faviconIco } from '../../../scripts/web/favicon';
import { loadBundledDocument } from '../documents';

export interface ExamplePages {
  /** Pass as the app's `webDist`. */
  distRoot: string;
  page: string;
  asset: { file: string; body: string };
  remove(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
type Doc = any;

export async function writeExamplePages(service: 'archive' | 'fuel'): Promise<ExamplePages> {
  const doc: Doc = loadBundledDocument(service);
  const page: string = doc.paths['/'].get.responses['200'].content['text/html'].example;
  const assetOperation = doc.paths['/static/{file}'].get;
  const file: string = assetOperation.parameters.find((p: Doc) => p.name === 'file').example;
  const body: string = assetOperation.responses['200'].content['text/javascript'].example;
  const distRoot = await mkdtemp(path.join(tmpdir(), `${service}-example-pages-`));
  await mkdir(path.join(distRoot, service, 'static'), { recursive: true });
  await writeFile(path.join(distRoot, service, 'index.html'), page);
  await writeFile(path.join(distRoot, service, 'static', file), body);
  await writeFile(path.join(distRoot, service, 'favicon.ico'), await faviconIco(service));
  return {
    distRoot,
    page,
    asset: { file, body },
    remove: () => rm(distRoot, { recursive: true, force: true }),
  };
}

/** A page "build" holding only the service's icon (the subtitles host's pages are no examples of its document). */
export async function writeExampleIcon(
  service: 'subtitles',
): Promise<{ distRoot: string; remove(): Promise<void> }> {
  const distRoot = await mkdtemp(path.join(tmpdir(), `${service}-example-icon-`));
  await mkdir(path.join(distRoot, service), { recursive: true });
  await writeFile(path.join(distRoot, service, 'favicon.ico'), await faviconIco(service));
  return { distRoot, remove: () => rm(distRoot, { recursive: true, force: true }) };
}
