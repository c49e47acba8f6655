/**
 * The real subtitles server, started in-process for the live contract suite and the Dredd run: port 0,
 * a temporary data folder, the documented examples' media file, user and web client, the icon the page
 * build makes, and an admin key.
 */
import path from 'node:path';
import { writeExampleIcon } from '../../src/common/testing/example-pages';
import {
  type Fixture,
  makeFixture,
  makeMedia,
  seedAccounts,
  startServer,
  writeModel,
  writeStandInWhisper,
} from '../../src/subtitles/test-support';
import type { Target } from '../lib/target';

export interface LiveSubtitles {
  target: Target;
  fixture: Fixture;
  adminKey: string;
}

/** The path the `POST …/Queue/Items` example names, relative to the media folder. */
export const EXAMPLE_MEDIA = 'Movies/Big Buck Bunny (2008)/Big Buck Bunny (2008).mkv';

export async function startLiveSubtitles(env: Record<string, string> = {}): Promise<LiveSubtitles> {
  const fixture = makeFixture();
  makeMedia(path.join(fixture.mediaDir, EXAMPLE_MEDIA));
  const standIn = writeStandInWhisper(fixture.binDir);
  writeModel(fixture.dataDir);
  // The admin user has the password of the sign-in example; a `viewer` user is not an administrator.
  const { adminKey } = await seedAccounts(fixture.dataDir);
  const icon = await writeExampleIcon('subtitles');
  const server = await startServer(
    { ...fixture.env, SUBTITLES_WHISPER_BINARY: standIn.path, ...env },
    { webDist: icon.distRoot },
  );
  return {
    fixture,
    adminKey,
    target: {
      kind: 'live',
      url: server.url,
      stop: async () => {
        await server.close();
        fixture.remove();
        await icon.remove();
      },
    },
  };
}
