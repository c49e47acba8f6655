/**
 * The platform port over GramJS (the `telegram` package): one TelegramClient per account, its session kept
 * as a string in `<SESSION_DIR>/account_<N>.session` (mode 0600). Thin on purpose: every object the library
 * returns goes through mapping.ts. Nothing in the project's tests reaches the real platform; this file is
 * checked by the compiler and its mapping by tests on the library's own classes.
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import bigInt from 'big-integer';
import { Api, errors, TelegramClient } from 'telegram';
import { Raw } from 'telegram/events/index.js';
import { Logger, LogLevel } from 'telegram/extensions/Logger.js';
import { StringSession } from 'telegram/sessions/index.js';
import {
  type AccountLogin,
  FloodWaitError,
  type LoginPrompts,
  NoCodeSentError,
  NotAuthorizedError,
  PasswordNeededError,
  type Platform,
  type PlatformChat,
  type PlatformFolder,
  type PlatformMedia,
  type PlatformMessage,
  type PlatformSession,
  type PlatformTopic,
  PlatformUnreachableError,
  type PlatformUpdate,
  type PlatformUser,
} from '../platform';
import {
  toPlatformChat,
  toPlatformFolder,
  toPlatformMessage,
  toPlatformTopic,
  toPlatformUpdate,
  toPlatformUser,
} from './mapping';

const DOWNLOAD_REQUEST_BYTES = 512 * 1024;
const ID_BATCH = 100;

export interface GramJsOptions {
  apiId: number;
  apiHash: string;
  sessionDir: string;
  /**
   * Let the library print its own log lines and stack traces (LOG_LEVEL=debug); otherwise it prints
   * nothing and a failure reaches the command as one line.
   */
  libraryLogs?: boolean;
}

const CONNECTION_RETRIES = 5;
/** The longest a connection may take, its retries included, before the command says it failed. */
const CONNECT_TIMEOUT_MS = 60_000;

/**
 * Connects, or throws PlatformUnreachableError: the library gives up after its retries without saying so
 * (its promise may never settle), so the attempt is bounded and its outcome checked.
 */
async function connected(client: TelegramClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CONNECT_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([client.connect().then(() => 'done' as const), timeout]);
    if (outcome === 'timeout' || !client.connected) {
      await client.destroy().catch(() => undefined);
      throw new PlatformUnreachableError(
        outcome === 'timeout'
          ? `no connection within ${CONNECT_TIMEOUT_MS / 1000} seconds`
          : `no connection after ${CONNECTION_RETRIES} attempts`,
      );
    }
  } catch (error) {
    if (error instanceof PlatformUnreachableError) throw error;
    await client.destroy().catch(() => undefined);
    throw new PlatformUnreachableError(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

/** The library's rate-limit error as the port's own. */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof errors.FloodWaitError) throw new FloodWaitError(error.seconds);
    throw error;
  }
}

export class GramJsPlatform implements Platform {
  constructor(private readonly options: GramJsOptions) {}

  private sessionFile(account: AccountLogin): string {
    return path.join(this.options.sessionDir, `account_${account.index}.session`);
  }

  private async client(account: AccountLogin): Promise<TelegramClient> {
    const saved = await readFile(this.sessionFile(account), 'utf8').catch(() => '');
    const client = new TelegramClient(
      new StringSession(saved.trim()),
      this.options.apiId,
      this.options.apiHash,
      {
        connectionRetries: CONNECTION_RETRIES,
        baseLogger: new Logger(this.options.libraryLogs ? LogLevel.ERROR : LogLevel.NONE),
      },
    );
    await connected(client);
    return client;
  }

  private async save(account: AccountLogin, client: TelegramClient): Promise<void> {
    await mkdir(this.options.sessionDir, { recursive: true });
    const file = this.sessionFile(account);
    await writeFile(file, String(client.session.save()), { mode: 0o600 });
    await chmod(file, 0o600);
  }

  async isAuthorized(account: AccountLogin): Promise<boolean> {
    const client = await this.client(account);
    try {
      return await client.checkAuthorization();
    } finally {
      await client.disconnect();
    }
  }

  async login(account: AccountLogin, prompts: LoginPrompts): Promise<PlatformUser> {
    const client = await this.client(account);
    try {
      await client.start({
        phoneNumber: account.phone,
        phoneCode: () => prompts.code(),
        password: (hint?: string) => prompts.password(hint),
        onError: (error) => {
          throw error;
        },
      });
      await this.save(account, client);
      return toPlatformUser((await client.getMe()) as Api.User);
    } finally {
      await client.disconnect();
    }
  }

  /** The phone-code hash of a code sent by `sendCode`, kept beside the session until `verifyCode`. */
  private codeHashFile(account: AccountLogin): string {
    return path.join(this.options.sessionDir, `account_${account.index}.code-hash`);
  }

  async sendCode(account: AccountLogin): Promise<void> {
    const client = await this.client(account);
    try {
      const { apiId, apiHash } = this.options;
      const sent = await call(() => client.sendCode({ apiId, apiHash }, account.phone));
      // The code belongs to this connection's keys: the session is saved with it.
      await this.save(account, client);
      await writeFile(this.codeHashFile(account), sent.phoneCodeHash, { mode: 0o600 });
    } finally {
      await client.disconnect();
    }
  }

  async verifyCode(account: AccountLogin, code: string, password?: string): Promise<PlatformUser> {
    const hash = (await readFile(this.codeHashFile(account), 'utf8').catch(() => '')).trim();
    if (!hash) throw new NoCodeSentError();
    const client = await this.client(account);
    try {
      const { apiId, apiHash } = this.options;
      try {
        await call(() =>
          client.invoke(
            new Api.auth.SignIn({ phoneNumber: account.phone, phoneCodeHash: hash, phoneCode: code }),
          ),
        );
      } catch (error) {
        if (!(error instanceof errors.RPCError) || error.errorMessage !== 'SESSION_PASSWORD_NEEDED')
          throw error;
        if (password === undefined) throw new PasswordNeededError();
        await client.signInWithPassword(
          { apiId, apiHash },
          {
            password: async () => password,
            onError: (failure) => {
              throw failure;
            },
          },
        );
      }
      await this.save(account, client);
      await rm(this.codeHashFile(account), { force: true });
      return toPlatformUser((await client.getMe()) as Api.User);
    } finally {
      await client.disconnect();
    }
  }

  async connect(account: AccountLogin): Promise<PlatformSession> {
    const client = await this.client(account);
    if (!(await client.checkAuthorization())) {
      await client.disconnect();
      throw new NotAuthorizedError();
    }
    return new GramJsSession(client);
  }
}

class GramJsSession implements PlatformSession {
  private readonly senders = new Map<number, string>();

  constructor(private readonly client: TelegramClient) {}

  me(): Promise<PlatformUser> {
    return call(async () => toPlatformUser((await this.client.getMe()) as Api.User));
  }

  async *dialogs(): AsyncIterable<PlatformChat> {
    for await (const dialog of this.client.iterDialogs({})) {
      const entity = dialog.entity;
      if (!(entity instanceof Api.User || entity instanceof Api.Chat || entity instanceof Api.Channel))
        continue;
      yield toPlatformChat(entity, { isArchived: dialog.archived, topMessageId: dialog.message?.id ?? null });
    }
  }

  async folders(): Promise<PlatformFolder[]> {
    const result = await call(() => this.client.invoke(new Api.messages.GetDialogFilters()));
    return result.filters.map(toPlatformFolder).filter((f): f is PlatformFolder => f !== null);
  }

  private rememberSenders(messages: Api.Message[]): void {
    for (const message of messages) {
      const sender = message.sender;
      if (sender instanceof Api.User && message.senderId) {
        const name = [sender.firstName, sender.lastName].filter(Boolean).join(' ');
        if (name) this.senders.set(Number(message.senderId.toString()), name);
      }
    }
  }

  async *history(chatId: number, afterId: number): AsyncIterable<PlatformMessage> {
    const iterator = this.client.iterMessages(chatId, { minId: afterId, reverse: true });
    for await (const message of iterator) {
      this.rememberSenders([message]);
      const mapped = toPlatformMessage(message, this.senders);
      if (mapped) yield mapped;
    }
  }

  async messagesByIds(chatId: number, ids: number[]): Promise<(PlatformMessage | null)[]> {
    const out: (PlatformMessage | null)[] = [];
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const found = await call(() => this.client.getMessages(chatId, { ids: ids.slice(i, i + ID_BATCH) }));
      this.rememberSenders(found.filter(Boolean));
      for (const message of found) out.push(toPlatformMessage(message, this.senders));
    }
    return out;
  }

  async *download(
    chatId: number,
    messageId: number,
    _media: PlatformMedia,
    offset: number,
  ): AsyncIterable<Uint8Array> {
    // File references expire: the message is read again so the download has a fresh one.
    const [message] = await call(() => this.client.getMessages(chatId, { ids: [messageId] }));
    if (!message?.media) throw new Error('Media no longer available');
    const chunks = this.client.iterDownload({
      file: message.media,
      offset: bigInt(offset),
      requestSize: DOWNLOAD_REQUEST_BYTES,
    });
    for await (const chunk of chunks) yield chunk;
  }

  async avatar(chatId: number): Promise<{ photoId: string; bytes: Uint8Array } | null> {
    const entity = await call(() => this.client.getEntity(chatId));
    const photo = 'photo' in entity ? entity.photo : undefined;
    if (!(photo instanceof Api.UserProfilePhoto || photo instanceof Api.ChatPhoto)) return null;
    const bytes = await call(() => this.client.downloadProfilePhoto(entity, { isBig: true }));
    return bytes instanceof Buffer && bytes.length > 0 ? { photoId: photo.photoId.toString(), bytes } : null;
  }

  async topics(chatId: number): Promise<PlatformTopic[]> {
    const result = await call(() =>
      this.client.invoke(
        new Api.channels.GetForumTopics({
          channel: chatId,
          limit: 100,
          offsetDate: 0,
          offsetId: 0,
          offsetTopic: 0,
        }),
      ),
    );
    return result.topics.map(toPlatformTopic).filter((t): t is PlatformTopic => t !== null);
  }

  async roundVideoIds(chatId: number): Promise<number[]> {
    const ids: number[] = [];
    for await (const message of this.client.iterMessages(chatId, {
      filter: new Api.InputMessagesFilterRoundVideo(),
    })) {
      ids.push(message.id);
    }
    return ids;
  }

  async send(
    chatId: number,
    message: { text: string | null; file?: { name: string; bytes: Uint8Array } | null },
  ): Promise<number> {
    const sent = await call(() =>
      message.file
        ? this.client.sendFile(chatId, {
            file: Object.assign(Buffer.from(message.file.bytes), { name: message.file.name }),
            caption: message.text ?? '',
          })
        : this.client.sendMessage(chatId, { message: message.text ?? '' }),
    );
    return sent.id;
  }

  subscribe(onUpdate: (update: PlatformUpdate) => void): () => void {
    const event = new Raw({});
    const handler = (update: Api.TypeUpdate) => {
      const mapped = toPlatformUpdate(update);
      if (mapped) onUpdate(mapped);
    };
    this.client.addEventHandler(handler, event);
    return () => this.client.removeEventHandler(handler, event);
  }

  async disconnect(): Promise<void> {
    await this.client.disconnect();
  }
}
