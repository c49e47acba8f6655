/**
 * What the media server's official web client asks of the host on its way from sign-in to the plugin's
 * settings page, answered with what this host has (the routes of `GET /Users/...`, `/DisplayPreferences`,
 * `/System/Endpoint`, `/System/Info/Storage`, `/Items/Counts`, `/Plugins`, `/web/ConfigurationPages`).
 */
import { createHash } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { isLoopbackPeer, isPrivatePeer } from '../../common/peer-address';
import type { StoredUser, SubtitlesStore } from '../store/store';
import { findMediaFiles } from './media';

/** The plugin's id, as the media server writes a GUID (32 hex digits), in every answer that names it. */
export const PLUGIN_ID = '5c2b8e1f4a7d4c9eb6f0a3d2e1c4b7a8';
export const PLUGIN_VERSION = '0.1.0.0';
/** The name of the settings page the web client shows in its dashboard (`configurationpage?name=`). */
export const SETTINGS_PAGE = 'subtitles-page';

/** The media server's defaults: this host keeps no per-user preferences. */
export const DEFAULT_USER_CONFIGURATION = {
  PlayDefaultAudioTrack: true,
  SubtitleLanguagePreference: '',
  DisplayMissingEpisodes: false,
  GroupedFolders: [],
  SubtitleMode: 'Default' as const,
  DisplayCollectionsView: false,
  EnableLocalPassword: false,
  OrderedViews: [],
  LatestItemsExcludes: [],
  MyMediaExcludes: [],
  HidePlayedInLatest: true,
  RememberAudioSelections: true,
  RememberSubtitleSelections: true,
  EnableNextEpisodeAutoPlay: true,
};

/** A user as the media server's `UserDto` gives it; `at` is the last sign-in, when known. */
export function userDto(user: StoredUser, serverId: string, at?: string) {
  return {
    Name: user.name,
    Id: user.id,
    ServerId: serverId,
    HasPassword: user.hasPassword,
    HasConfiguredPassword: user.hasPassword,
    HasConfiguredEasyPassword: false,
    EnableAutoLogin: false,
    ...(at !== undefined && { LastLoginDate: at, LastActivityDate: at }),
    Configuration: DEFAULT_USER_CONFIGURATION,
    Policy: { IsAdministrator: user.isAdmin, IsHidden: false, IsDisabled: false },
  };
}

/** `6b0f2c1a-9d8e-...` → `6b0f2c1a9d8e...`: the media server takes a GUID with or without dashes. */
export const guidN = (id: string) => id.replaceAll('-', '').toLowerCase();

const preferencesKey = (userId: string, id: string, client: string) =>
  `display-preferences:${guidN(userId)}:${id}:${client}`;

export function defaultDisplayPreferences(id: string, client: string) {
  return {
    Id: id,
    SortBy: 'SortName',
    RememberIndexing: false,
    PrimaryImageHeight: 250,
    PrimaryImageWidth: 250,
    CustomPrefs: {},
    ScrollDirection: 'Horizontal' as const,
    ShowBackdrop: true,
    RememberSorting: false,
    SortOrder: 'Ascending' as const,
    ShowSidebar: false,
    Client: client,
  };
}

/** Preferences as the client saves them: the document's `DisplayPreferences` (any other field kept). */
export type DisplayPreferences = ReturnType<typeof defaultDisplayPreferences> & Record<string, unknown>;

export async function displayPreferences(
  store: SubtitlesStore,
  userId: string,
  id: string,
  client: string,
): Promise<DisplayPreferences> {
  const saved = await store.getSetting(preferencesKey(userId, id, client));
  return saved ? (JSON.parse(saved) as DisplayPreferences) : defaultDisplayPreferences(id, client);
}

export async function saveDisplayPreferences(
  store: SubtitlesStore,
  userId: string,
  id: string,
  client: string,
  preferences: Record<string, unknown>,
): Promise<void> {
  await store.setSetting(
    preferencesKey(userId, id, client),
    JSON.stringify({ ...preferences, Id: id, Client: client }),
  );
}

/** Where a connection comes from, by its socket peer (never a forwarded address). */
export function endpointInfo(peer: string | undefined) {
  return { IsLocal: isLoopbackPeer(peer), IsInNetwork: isPrivatePeer(peer) };
}

/** A folder and the room on its file system, in bytes (-1 when the file system cannot be read). */
async function folderStorage(folder: string) {
  const stats = await statfs(folder).catch(() => undefined);
  const free = stats ? stats.bavail * stats.bsize : -1;
  const used = stats ? (stats.blocks - stats.bfree) * stats.bsize : -1;
  return { Path: folder, FreeSpace: free, UsedSpace: used, StorageType: null, DeviceId: null };
}

/** A library's id, derived from its folder so it stays the same from one answer to the next. */
const libraryId = (folder: string) =>
  createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);

export async function systemStorage(folders: { dataDir: string; webDir: string; mediaDir: string }) {
  return {
    ProgramDataFolder: await folderStorage(folders.dataDir),
    WebFolder: await folderStorage(folders.webDir),
    Libraries: [
      { Id: libraryId(folders.mediaDir), Name: 'Media', Folders: [await folderStorage(folders.mediaDir)] },
    ],
  };
}

const AUDIO = new Set(['.mp3', '.m4a', '.mka', '.flac', '.ogg', '.opus', '.wav']);

/** The library's items by kind: video files as movies, audio files as songs. */
export async function itemCounts(mediaDir: string) {
  const files = await findMediaFiles(mediaDir).catch(() => []);
  const songs = files.filter((f) => AUDIO.has(path.extname(f).toLowerCase())).length;
  return {
    MovieCount: files.length - songs,
    SeriesCount: 0,
    EpisodeCount: 0,
    ArtistCount: 0,
    ProgramCount: 0,
    TrailerCount: 0,
    SongCount: songs,
    AlbumCount: 0,
    MusicVideoCount: 0,
    BoxSetCount: 0,
    BookCount: 0,
    ItemCount: files.length,
  };
}
