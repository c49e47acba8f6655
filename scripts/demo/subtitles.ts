/**
 * `npm run demo -- subtitles [--password <p>]`: a ready-to-try data folder for the subtitles host: a web
 * client page, a small library of generated clips (ffmpeg), an administrator `admin` and an API key.
 * Run `npm run subtitles -- serve` afterwards.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../../src/common/env';
import { loadConfig, processEnv } from '../../src/subtitles/config';
import { createApiKey, createUser } from '../../src/subtitles/domain/accounts';
import { installDemoLibrary } from '../../src/subtitles/domain/demo-library';
import { randomHex32 } from '../../src/subtitles/domain/secrets';
import { databasePath, openSqliteStore } from '../../src/subtitles/store/sqlite';
import { DuplicateError } from '../../src/subtitles/store/store';

try {
  const { values } = parseArgs({ options: { password: { type: 'string' } } });
  const config = loadConfig(processEnv());
  const library = installDemoLibrary(config);
  const store = openSqliteStore(databasePath(config.dataDir));
  const password = values.password ?? randomHex32().slice(0, 16);
  try {
    await createUser(store, { name: 'admin', password, isAdmin: true });
    console.log(`administrator: admin / ${password}`);
  } catch (error) {
    if (!(error instanceof DuplicateError)) throw error;
    console.log('administrator: admin (already there, password unchanged)');
  }
  const { key } = await createApiKey(store, 'demo');
  await store.close();
  console.log(`API key:       ${key}`);
  console.log(`web client:    ${library.index}`);
  console.log(
    `media folder:  ${config.mediaDir} (${library.clips} clips${library.ffmpeg ? '' : '; install ffmpeg to generate them'})`,
  );
  console.log('next:          npm run subtitles -- serve');
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `demo failed: ${(error as Error).message}`);
  process.exit(1);
}
