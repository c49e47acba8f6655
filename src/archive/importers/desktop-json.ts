/**
 * Streaming reader of the desktop app's `result.json`: a single chat (`{name, type, id, messages}`) or a
 * whole account (`{personal_information, chats: {list: [...]}, left_chats: {list: [...]}}`). Tokens are
 * read as the file streams; only one message object is assembled at a time and at most a few thousand
 * wait for the writer, so memory stays flat whatever the file's size.
 */
import { createReadStream } from 'node:fs';
import Assembler from 'stream-json/assembler.js';
import parser from 'stream-json/parser.js';
import { archiveChatType, markedChatId } from './chat-types';
import { fromJsonEntry } from './desktop-message';
import { ImportError, type ImportEvent } from './types';

interface Token {
  name: string;
  value?: unknown;
}

type PathItem = string | number;

interface Frame {
  kind: 'object' | 'array';
  path: PathItem[];
  key: string | null;
  index: number;
}

interface ChatState {
  header: Record<string, unknown>;
  started: boolean;
}

const HIGH_WATER = 1000;

/** Where a value at this path belongs: a chat's header field or message, or the account's user id. */
function chatPath(path: PathItem[]): { chat: string; rest: PathItem[] } | null {
  if (path.length >= 1 && typeof path[0] === 'string' && path[0] !== 'chats' && path[0] !== 'left_chats') {
    return { chat: 'root', rest: path };
  }
  if (
    path.length >= 3 &&
    (path[0] === 'chats' || path[0] === 'left_chats') &&
    path[1] === 'list' &&
    typeof path[2] === 'number'
  ) {
    return { chat: `${path[0]}:${path[2]}`, rest: path.slice(3) };
  }
  return null;
}

export async function* readDesktopJson(file: string): AsyncGenerator<ImportEvent> {
  const queue: ImportEvent[] = [];
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const source = createReadStream(file);
  const tokens = parser.asStream({ packValues: true, streamValues: false });
  const stack: Frame[] = [];
  const chats = new Map<string, ChatState>();
  let capture: { assembler: InstanceType<typeof Assembler>; chat: string; depth: number } | null = null;
  let sawChat = false;

  const emit = (event: ImportEvent) => {
    queue.push(event);
    if (queue.length >= HIGH_WATER) tokens.pause();
    notify();
  };

  const startChat = (id: string) => {
    const state = chats.get(id);
    if (!state || state.started) return;
    const exportType = state.header.type;
    const bareId = state.header.id;
    if (typeof exportType !== 'string' || typeof bareId !== 'number') {
      throw new ImportError('the export lists messages before its chat type and id');
    }
    const type = archiveChatType(exportType);
    state.started = true;
    sawChat = true;
    emit({
      kind: 'chat',
      chat: {
        id: markedChatId(bareId, type),
        type,
        exportType,
        title:
          typeof state.header.name === 'string'
            ? state.header.name
            : exportType === 'saved_messages'
              ? 'Saved Messages'
              : null,
      },
    });
  };

  const valuePath = (): PathItem[] => {
    const top = stack[stack.length - 1];
    if (!top) return [];
    return top.kind === 'array' ? [...top.path, top.index] : [...top.path, top.key ?? ''];
  };

  const afterValue = () => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'array') top.index++;
  };

  const onToken = (token: Token) => {
    if (capture) {
      capture.assembler.consume(token as never);
      if (token.name === 'startObject' || token.name === 'startArray') capture.depth++;
      else if (token.name === 'endObject' || token.name === 'endArray') capture.depth--;
      if (capture.depth === 0) {
        const entry = capture.assembler.current as Record<string, unknown>;
        const chat = capture.chat;
        capture = null;
        startChat(chat);
        const message = fromJsonEntry(entry);
        emit(
          message ? { kind: 'message', message } : { kind: 'skipped', reason: 'an entry without id or date' },
        );
        afterValue();
      }
      return;
    }
    switch (token.name) {
      case 'keyValue': {
        const top = stack[stack.length - 1];
        if (top) top.key = String(token.value);
        return;
      }
      case 'startObject':
      case 'startArray': {
        const path = valuePath();
        const where = chatPath(path);
        if (
          token.name === 'startObject' &&
          where &&
          where.rest.length === 2 &&
          where.rest[0] === 'messages' &&
          typeof where.rest[1] === 'number'
        ) {
          if (!chats.has(where.chat)) chats.set(where.chat, { header: {}, started: false });
          capture = { assembler: new Assembler(), chat: where.chat, depth: 1 };
          capture.assembler.consume(token as never);
          return;
        }
        if (where && where.chat !== 'root' && where.rest.length === 0 && token.name === 'startObject') {
          chats.set(where.chat, { header: {}, started: false });
        }
        stack.push({ kind: token.name === 'startObject' ? 'object' : 'array', path, key: null, index: 0 });
        return;
      }
      case 'endObject':
      case 'endArray': {
        const frame = stack.pop();
        if (frame && token.name === 'endObject') {
          const where = chatPath(frame.path);
          const id = frame.path.length === 0 ? 'root' : where && where.rest.length === 0 ? where.chat : null;
          if (id && chats.has(id)) {
            const state = chats.get(id) as ChatState;
            if (!state.started && typeof state.header.type === 'string') startChat(id);
            if (state.started) emit({ kind: 'end' });
          }
        }
        afterValue();
        return;
      }
      default: {
        const path = valuePath();
        if (path.length === 2 && path[0] === 'personal_information' && path[1] === 'user_id') {
          if (typeof token.value === 'string' && /^\d+$/.test(token.value)) {
            emit({ kind: 'account', userId: Number(token.value) });
          }
        }
        const where = chatPath(path);
        if (where && where.rest.length === 1 && ['name', 'type', 'id'].includes(String(where.rest[0]))) {
          if (!chats.has(where.chat)) chats.set(where.chat, { header: {}, started: false });
          const header = (chats.get(where.chat) as ChatState).header;
          header[String(where.rest[0])] =
            token.name === 'numberValue'
              ? Number(token.value)
              : token.name === 'stringValue'
                ? token.value
                : null;
        }
        afterValue();
      }
    }
  };

  tokens.on('data', (token: Token) => {
    if (failure) return;
    try {
      onToken(token);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      source.destroy();
      notify();
    }
  });
  tokens.on('end', () => {
    finished = true;
    notify();
  });
  const fail = (error: Error) => {
    failure ??= new ImportError(`result.json is not valid JSON: ${error.message}`);
    notify();
  };
  tokens.on('error', fail);
  source.on('error', (error) => {
    failure ??= error;
    notify();
  });
  source.pipe(tokens);

  try {
    while (true) {
      if (failure) throw failure;
      const next = queue.shift();
      if (next) {
        if (queue.length < HIGH_WATER / 2 && tokens.isPaused()) tokens.resume();
        yield next;
        continue;
      }
      if (finished) break;
      if (tokens.isPaused()) tokens.resume();
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (failure) throw failure;
    if (!sawChat) throw new ImportError('result.json holds no chat (neither a single chat nor chats.list)');
  } finally {
    source.destroy();
    tokens.destroy();
  }
}
