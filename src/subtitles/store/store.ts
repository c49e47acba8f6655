/**
 * What the subtitles host keeps: settings, users, API keys, sessions and the transcription queue.
 * Asynchronous, so a backend that talks over the network fits the same shape as embedded SQLite.
 */
export interface StoredUser {
  id: string;
  name: string;
  passwordHash: string;
  hasPassword: boolean;
  isAdmin: boolean;
  createdAt: string;
}

export interface StoredSession {
  id: string;
  userId: string;
  userName: string;
  client: string | null;
  device: string | null;
  deviceId: string | null;
  version: string | null;
  lastActivityAt: string;
}

export interface StoredApiKey {
  id: number;
  name: string;
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewSession {
  /** The id a client sees; not the token. */
  id: string;
  tokenHash: string;
  userId: string;
  client: string | null;
  device: string | null;
  deviceId: string | null;
  version: string | null;
  createdAt: string;
}

export type JobSource = 'request' | 'scan';

export interface QueueJob {
  id: number;
  path: string;
  language: string;
  item: string;
  source: JobSource;
  attempts: number;
}

export interface NewJob {
  path: string;
  language: string;
  item: string;
  source: JobSource;
  enqueuedAt: string;
}

export interface QueueCounts {
  queued: number;
  queuedRequests: number;
}

export class DuplicateError extends Error {
  override name = 'DuplicateError';
}

export interface SubtitlesStore {
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;

  /** Throws DuplicateError when the name (compared without case) is taken. */
  createUser(user: StoredUser): Promise<void>;
  findUserByName(name: string): Promise<StoredUser | undefined>;
  findUserById(id: string): Promise<StoredUser | undefined>;
  listUsers(): Promise<StoredUser[]>;

  createApiKey(key: { name: string; keyHash: string; keyPrefix: string; createdAt: string }): Promise<number>;
  listApiKeys(): Promise<StoredApiKey[]>;
  /** Marks the key used and reports whether it exists. */
  useApiKey(keyHash: string, at: string): Promise<boolean>;
  deleteApiKeyByHash(keyHash: string): Promise<boolean>;
  deleteApiKeyById(id: number): Promise<boolean>;

  /**
   * Opens a session, ending in the same transaction the user's earlier sessions on the same device
   * (same `deviceId`); returns how many were ended.
   */
  openSession(session: NewSession): Promise<number>;
  /** Ends the session with this token; false when there is none. */
  endSession(tokenHash: string): Promise<boolean>;
  /** The user behind a session token, marking the session active. */
  useSession(tokenHash: string, at: string): Promise<StoredUser | undefined>;
  /** Open sessions active at or after `since`, most recently active first. */
  listSessions(since: string | null): Promise<StoredSession[]>;

  /** Adds a job unless the same path and language is already queued or running; true when added. */
  enqueue(job: NewJob): Promise<boolean>;
  /** Takes the oldest queued job for a worker (it becomes running), atomically. */
  claimNext(worker: number, at: string): Promise<QueueJob | undefined>;
  /** A running job goes back to the end of the queue, with its attempt count. */
  requeue(id: number, attempts: number): Promise<void>;
  /** A running job goes back to the queue where it was (a stop, not a failure). */
  release(id: number): Promise<void>;
  /** A job is finished (written or failed for good) and leaves the queue. */
  finish(id: number): Promise<void>;
  /** Jobs left running by a stopped process. */
  listRunning(): Promise<QueueJob[]>;
  queueCounts(): Promise<QueueCounts>;
  /** Paths (with language) currently in the queue, for a scan to skip. */
  queuedKeys(): Promise<Set<string>>;

  close(): Promise<void>;
}

export const jobKey = (path: string, language: string) => `${path}\u0000${language}`;
