/**
 * `npm run demo -- subtitles [--password <p>]`: a ready-to-try data folder for the subtitles host: a web
 * client page, a small library of generated clips (ffmpeg), an administrator `admin` and an API key.
 * Run `npm run subtitles -- serve` afterwards.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../../src/common/env';
import { loadConfig, processEnv } from '../../src/subtitles/config';
import { createApiKey, createUser } from '../../src/subtitles/domain/accounts';
import { randomHex32 } from '../../src/subtitles/domain/secrets';
import { databasePath, openSqliteStore } from '../../src/subtitles/store/sqlite';
import { DuplicateError } from '../../src/subtitles/store/store';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Media Server</title>
</head>
<body>
<h1>Media Server</h1>
<p>The Subtitles plugin adds a Generate Subtitles button to this page.</p>
</body>
</html>
`;

const CLIPS = [
  ['Movies/Big Buck Bunny (2008)/Big Buck Bunny (2008).mkv', 440],
  ['Shows/Night Walk/Season 1/Night Walk - S01E01.mkv', 523],
  ['Shows/Night Walk/Season 1/Night Walk - S01E02.mkv', 659],
  ['Podcasts/Interview.mp3', 330],
] as const;

function clip(file: string, frequency: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const video = file.endsWith('.mkv') ? ['-f', 'lavfi', '-i', 'color=c=black:s=64x36:r=1:d=3'] : [];
  execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...video,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${frequency}:duration=3`,
      '-shortest',
      file,
    ],
    { stdio: 'inherit' },
  );
}

try {
  const { values } = parseArgs({ options: { password: { type: 'string' } } });
  const config = loadConfig(processEnv());
  mkdirSync(config.webDir, { recursive: true });
  const index = path.join(config.webDir, 'index.html');
  if (!existsSync(index)) writeFileSync(index, PAGE);
  for (const [name, frequency] of CLIPS) {
    const file = path.join(config.mediaDir, name);
    if (!existsSync(file)) clip(file, frequency);
  }
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
  console.log(`web client:    ${index}`);
  console.log(`media folder:  ${config.mediaDir} (${CLIPS.length} clips)`);
  console.log('next:          npm run subtitles -- serve');
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `demo failed: ${(error as Error).message}`);
  process.exit(1);
}
