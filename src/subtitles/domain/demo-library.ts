/**
 * A ready-to-try library for the subtitles host: a web client start page to inject the client script into,
 * and a few generated clips (ffmpeg) in the media folder. `npm start`'s first run and `npm run demo --
 * subtitles` both install it, so the settings page finds its web client and library either way.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { indexPath } from './injection';

/**
 * The web client's start page: what the host serves at `/web/index.html` in place of the media server's own
 * web client (which the client script is injected into), linking what a visitor comes for: the plugin's
 * settings page and the host's API. Links are relative, so they work under a base path.
 */
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Media Server</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
  nav ul { list-style: none; padding: 0; }
  nav li { margin: 0.5rem 0; }
  a { font-weight: 600; }
  small { opacity: 0.75; }
</style>
</head>
<body>
<h1>Media Server</h1>
<p>A small media-server host with the Subtitles plugin loaded. The plugin adds a Generate Subtitles button
to this page, and keeps its settings, diagnostics and work queue on its settings page.</p>
<nav aria-label="Dashboard">
<h2>Dashboard</h2>
<ul>
<li><a href="configurationpage?name=subtitles.html">Plugins → Subtitles: settings, diagnostics and queue</a></li>
<li><a href="../System/Info/Public">Server information</a> <small>(public, JSON)</small></li>
</ul>
</nav>
<p><small>With the media server's own web client installed here instead, the same settings page opens
from Dashboard → Plugins → Subtitles.</small></p>
</body>
</html>
`;

export const DEMO_CLIPS = [
  ['Movies/Big Buck Bunny (2008)/Big Buck Bunny (2008).mkv', 440],
  ['Shows/Night Walk/Season 1/Night Walk - S01E01.mkv', 523],
  ['Shows/Night Walk/Season 1/Night Walk - S01E02.mkv', 659],
  ['Podcasts/Interview.mp3', 330],
] as const;

/** A three-second clip: a tone, and for a video a black picture. */
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
    { stdio: 'ignore' },
  );
}

export interface DemoLibrary {
  /** The web client's start page. */
  index: string;
  /** Clips in the media folder (none without ffmpeg). */
  clips: number;
  /** Whether ffmpeg was found to make them. */
  ffmpeg: boolean;
}

/** Writes what is missing of the demo library; what is there is left alone. */
export function installDemoLibrary(folders: { webDir: string; mediaDir: string }): DemoLibrary {
  mkdirSync(folders.webDir, { recursive: true });
  const index = indexPath(folders.webDir);
  if (!existsSync(index)) writeFileSync(index, PAGE);
  mkdirSync(folders.mediaDir, { recursive: true });
  const ffmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
  let clips = 0;
  for (const [name, frequency] of DEMO_CLIPS) {
    const file = path.join(folders.mediaDir, name);
    if (!existsSync(file) && ffmpeg) clip(file, frequency);
    if (existsSync(file)) clips++;
  }
  return { index, clips, ffmpeg };
}
