/**
 * The slow tier's global set-up: each page built when anything it is made from changed since its last
 * build, once before the Chromium journeys (web/**\/*.browser.test.ts) open it. The pages' test driver
 * (web/testing/browser.ts) builds nothing: the pages import no tool.
 */

import { buildStale } from './build';
import { WEB_SERVICES } from './build-config';

export default async function setup(): Promise<void> {
  const built = await buildStale(WEB_SERVICES);
  if (built.length > 0)
    console.log(`built the ${built.join(', ')} page${built.length > 1 ? 's' : ''} for the tests`);
}
