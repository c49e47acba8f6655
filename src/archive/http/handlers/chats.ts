import { labelAccounts, labelChat } from '../../domain/labels';
import { FileProbe, presentChat, presentChatAvatars } from '../../domain/present';
import { chat, visibility } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function chatsHandlers(wiring: ArchiveWiring) {
  return {
    listAccounts: async (_req, res) => {
      const accounts = await wiring.store.listAccounts(visibility(wiring, res));
      res.json({ accounts: labelAccounts(accounts, wiring.config.accountLabels) });
    },
    listChats: async (req, res) => {
      const { limit = 50, offset = 0, search, archived, folder_id } = req.query;
      const page = await wiring.store.listChats(visibility(wiring, res), {
        limit,
        offset,
        ...(search !== undefined && { search }),
        ...(archived !== undefined && { archived }),
        ...(folder_id !== undefined && { folderId: folder_id }),
      });
      const files = new FileProbe(wiring.config.media.backupPath);
      const chats = await Promise.all(page.chats.map((c) => presentChat(c, files)));
      res.json({
        chats: chats.map((c) => labelChat(c, wiring.config.accountLabels)),
        total: page.total,
        limit,
        offset,
        has_more: offset + page.chats.length < page.total,
      });
    },
    getChat: async (_req, res) => {
      const shown = await presentChat(chat(res).chat, new FileProbe(wiring.config.media.backupPath));
      res.json(labelChat(shown, wiring.config.accountLabels));
    },
    listFolders: async (_req, res) => {
      res.json({ folders: await wiring.store.listFolders(visibility(wiring, res)) });
    },
    countArchivedChats: async (_req, res) => {
      res.json({ count: await wiring.store.countArchivedChats(visibility(wiring, res)) });
    },
    getChatStats: async (_req, res) => {
      const { key } = chat(res);
      res.json(
        await wiring.chatStats.get(`${key.accountId}:${key.chatId}`, () => wiring.store.getChatStats(key)),
      );
    },
    listChatAvatars: async (_req, res) => {
      const { key } = chat(res);
      const avatars = await wiring.store.listChatAvatars(key);
      res.json(await presentChatAvatars(avatars, key, new FileProbe(wiring.config.media.backupPath)));
    },
  } satisfies ArchiveHandlers;
}
