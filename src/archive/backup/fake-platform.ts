/**
 * An in-memory messaging platform for tests and the demo archive: scripted accounts, chats, messages,
 * edits, deletions, reactions, topics, folders, avatars and media bytes, plus the faults a real platform
 * shows (rate-limit waits, downloads breaking half-way, unauthorised sessions).
 */
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
  type PlatformUpdate,
  type PlatformUser,
} from './platform';

const CHUNK = 64 * 1024;

interface FakeChat {
  chat: PlatformChat;
  messages: Map<number, PlatformMessage>;
  /** Messages 1..count made on demand (benchmarks: a long history without holding it in memory). */
  generated?: { count: number; make: (id: number) => PlatformMessage };
  topics: PlatformTopic[];
  avatar: { photoId: string; bytes: Uint8Array } | null;
}

export interface FakeAccount {
  user: PlatformUser;
  authorized: boolean;
  code: string;
  password: string | null;
  chats: Map<number, FakeChat>;
  folders: PlatformFolder[];
  listeners: Set<(update: PlatformUpdate) => void>;
  /** A login code was sent and not used yet (non-interactive login). */
  codeSent: boolean;
}

export class FakePlatform implements Platform {
  readonly accounts = new Map<string, FakeAccount>();
  readonly files = new Map<string, Uint8Array>();
  /** Rate-limit waits to answer, by operation key (`history:<chatId>`, `download:<fileId>`), once each. */
  readonly floodWaits = new Map<string, number[]>();
  /** Downloads that break after their first chunk, by file id: how many more times. */
  readonly brokenDownloads = new Map<string, number>();
  /** Accounts whose every call fails, by phone. */
  readonly failingAccounts = new Set<string>();
  readonly sent: { chatId: number; text: string | null; fileName: string | null }[] = [];
  connections = 0;

  addAccount(
    phone: string,
    user: Omit<PlatformUser, 'phone'>,
    options: { authorized?: boolean; password?: string } = {},
  ): FakeAccount {
    const account: FakeAccount = {
      user: { ...user, phone },
      authorized: options.authorized ?? true,
      code: '12345',
      password: options.password ?? null,
      chats: new Map(),
      folders: [],
      listeners: new Set(),
      codeSent: false,
    };
    this.accounts.set(phone, account);
    return account;
  }

  addChat(phone: string, chat: PlatformChat, topics: PlatformTopic[] = []): void {
    this.account(phone).chats.set(chat.id, { chat: { ...chat }, messages: new Map(), topics, avatar: null });
  }

  /**
   * A chat whose messages 1..count are made by `make` when asked for; messages put later override them.
   */
  addGeneratedChat(
    phone: string,
    chat: PlatformChat,
    count: number,
    make: (id: number) => PlatformMessage,
  ): void {
    this.addChat(phone, chat);
    this.chat(phone, chat.id).generated = { count, make };
  }

  /** Adds messages (or replaces them, as an edit on the platform does, without telling anyone). */
  putMessages(phone: string, chatId: number, messages: PlatformMessage[]): void {
    const chat = this.chat(phone, chatId);
    for (const message of messages) chat.messages.set(message.id, { ...message, chatId });
  }

  deleteMessages(phone: string, chatId: number, ids: number[]): void {
    const chat = this.chat(phone, chatId);
    for (const id of ids) chat.messages.delete(id);
  }

  setAvatar(phone: string, chatId: number, photoId: string | null, bytes?: Uint8Array): void {
    const chat = this.chat(phone, chatId);
    chat.avatar = photoId && bytes ? { photoId, bytes } : null;
    chat.chat.avatarPhotoId = photoId;
  }

  setTopics(phone: string, chatId: number, topics: PlatformTopic[]): void {
    this.chat(phone, chatId).topics = topics;
  }

  /** Sends a live update to the account's subscribers, after applying it to the platform's own state. */
  emit(phone: string, update: PlatformUpdate): void {
    const account = this.account(phone);
    if (update.kind === 'new_message' || update.kind === 'edit') {
      this.putMessages(phone, update.message.chatId, [update.message]);
    } else if (update.kind === 'delete' && update.chatId !== null) {
      this.deleteMessages(phone, update.chatId, update.messageIds);
    }
    for (const listener of account.listeners) listener(update);
  }

  account(phone: string): FakeAccount {
    const account = this.accounts.get(phone);
    if (!account) throw new Error('unknown account');
    return account;
  }

  private chat(phone: string, chatId: number): FakeChat {
    const chat = this.account(phone).chats.get(chatId);
    if (!chat) throw new Error('unknown chat');
    return chat;
  }

  async isAuthorized(login: AccountLogin): Promise<boolean> {
    return this.accounts.get(login.phone)?.authorized ?? false;
  }

  async login(login: AccountLogin, prompts: LoginPrompts): Promise<PlatformUser> {
    const account = this.account(login.phone);
    if ((await prompts.code()) !== account.code) throw new Error('The phone code entered was invalid');
    if (account.password !== null && (await prompts.password()) !== account.password) {
      throw new Error('The password entered was invalid');
    }
    account.authorized = true;
    return account.user;
  }

  async sendCode(login: AccountLogin): Promise<void> {
    this.account(login.phone).codeSent = true;
  }

  async verifyCode(login: AccountLogin, code: string, password?: string): Promise<PlatformUser> {
    const account = this.account(login.phone);
    if (!account.codeSent) throw new NoCodeSentError();
    if (code !== account.code) throw new Error('The phone code entered was invalid');
    if (account.password !== null) {
      if (password === undefined) throw new PasswordNeededError();
      if (password !== account.password) throw new Error('The password entered was invalid');
    }
    account.codeSent = false;
    account.authorized = true;
    return account.user;
  }

  async connect(login: AccountLogin): Promise<PlatformSession> {
    const account = this.accounts.get(login.phone);
    if (!account?.authorized) throw new NotAuthorizedError();
    this.connections++;
    return new FakeSession(this, login.phone, account);
  }

  /** Throws the next scripted rate-limit wait for this operation, if any. */
  wait(key: string): void {
    const waits = this.floodWaits.get(key);
    const seconds = waits?.shift();
    if (seconds !== undefined) throw new FloodWaitError(seconds);
  }

  fail(phone: string): void {
    if (this.failingAccounts.has(phone)) throw new Error('Connection to the platform failed');
  }
}

class FakeSession implements PlatformSession {
  constructor(
    private readonly platform: FakePlatform,
    private readonly phone: string,
    private readonly account: FakeAccount,
  ) {}

  private chat(chatId: number): FakeChat {
    const chat = this.account.chats.get(chatId);
    if (!chat) throw new Error('CHANNEL_INVALID');
    return chat;
  }

  async me(): Promise<PlatformUser> {
    this.platform.fail(this.phone);
    return this.account.user;
  }

  async *dialogs(): AsyncIterable<PlatformChat> {
    this.platform.fail(this.phone);
    for (const { chat, messages } of this.account.chats.values()) {
      yield { ...chat, topMessageId: Math.max(0, ...messages.keys()) };
    }
  }

  async folders(): Promise<PlatformFolder[]> {
    return this.account.folders.map((folder) => ({ ...folder, chatIds: [...folder.chatIds] }));
  }

  async *history(chatId: number, afterId: number): AsyncIterable<PlatformMessage> {
    this.platform.fail(this.phone);
    this.platform.wait(`history:${chatId}`);
    const chat = this.chat(chatId);
    const generated = chat.generated;
    if (generated) {
      for (let id = afterId + 1; id <= generated.count; id++) {
        const message = chat.messages.get(id);
        yield message ? structuredClone(message) : generated.make(id);
      }
    }
    const from = Math.max(afterId, generated?.count ?? 0);
    const ids = [...chat.messages.keys()].filter((id) => id > from).sort((a, b) => a - b);
    for (const id of ids) {
      const message = chat.messages.get(id);
      if (message) yield structuredClone(message);
    }
  }

  async messagesByIds(chatId: number, ids: number[]): Promise<(PlatformMessage | null)[]> {
    const { messages, generated } = this.chat(chatId);
    return ids.map((id) => {
      const message = messages.get(id);
      if (message) return structuredClone(message);
      return generated && id >= 1 && id <= generated.count ? generated.make(id) : null;
    });
  }

  async *download(
    _chatId: number,
    _messageId: number,
    media: PlatformMedia,
    offset: number,
  ): AsyncIterable<Uint8Array> {
    this.platform.wait(`download:${media.fileId}`);
    const bytes = this.platform.files.get(media.fileId);
    if (!bytes) throw new Error('FILE_REFERENCE_EXPIRED');
    const breaks = this.platform.brokenDownloads.get(media.fileId) ?? 0;
    for (let at = offset, chunks = 0; at < bytes.length; at += CHUNK, chunks++) {
      if (breaks > 0 && chunks === 1) {
        this.platform.brokenDownloads.set(media.fileId, breaks - 1);
        throw new Error('Connection reset during download');
      }
      yield bytes.subarray(at, Math.min(at + CHUNK, bytes.length));
    }
  }

  async avatar(chatId: number): Promise<{ photoId: string; bytes: Uint8Array } | null> {
    return this.chat(chatId).avatar;
  }

  async topics(chatId: number): Promise<PlatformTopic[]> {
    return this.chat(chatId).topics.map((topic) => ({ ...topic }));
  }

  async roundVideoIds(chatId: number): Promise<number[]> {
    return [...this.chat(chatId).messages.values()]
      .filter((m) => m.media?.kind === 'video_note')
      .map((m) => m.id);
  }

  async send(
    chatId: number,
    message: { text: string | null; file?: { name: string; bytes: Uint8Array } | null },
  ): Promise<number> {
    const chat = this.chat(chatId);
    const id = Math.max(0, ...chat.messages.keys()) + 1;
    chat.messages.set(id, { chatId, id, date: new Date(), text: message.text, isOutgoing: true });
    this.platform.sent.push({ chatId, text: message.text, fileName: message.file?.name ?? null });
    return id;
  }

  subscribe(onUpdate: (update: PlatformUpdate) => void): () => void {
    this.account.listeners.add(onUpdate);
    return () => this.account.listeners.delete(onUpdate);
  }

  async disconnect(): Promise<void> {
    this.platform.connections--;
  }
}
