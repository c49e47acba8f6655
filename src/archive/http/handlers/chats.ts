import { labelAccounts, labelChat } from '../../domain/labels';
import { FileProbe, presentChat, presentChatAvatars } from '../../domain/present';
import type { ArchiveDeps } from '../context';
import { chat, visibility } from '../context';
import type { ArchiveHandlers } from './types';

export function chatsHandlers(d: ArchiveDeps) {
  return {
    listAccounts: async (_req, res) => {
      const accounts = await d.store.listAccounts(visibility(d, res));
      res.json({ accounts: labelAccounts(accounts, d.config.accountLabels) });
    },
    listChats: async (req, res) => {
      const { limit = 50, offset = 0, search, archived, folder_id } = req.query;
      const page = await d.store.listChats(visibility(d, res), {
        limit,
        offset,
        ...(search !== undefined && { search }),
        ...(archived !== undefined && { archived }),
        ...(folder_id !== undefined && { folderId: folder_id }),
      });
      const files = new FileProbe(d.config.media.backupPath);
      const chats = await Promise.all(page.chats.map((c) => presentChat(c, files)));
      res.json({
        chats: chats.map((c) => labelChat(c, d.config.accountLabels)),
        total: page.total,
        limit,
        offset,
        has_more: offset + page.chats.length < page.total,
      });
    },
    getChat: async (_req, res) => {
      const shown = await presentChat(chat(res).chat, new FileProbe(d.config.media.backupPath));
      res.json(labelChat(shown, d.config.accountLabels));
    },
    listFolders: async (_req, res) => {
      res.json({ folders: await d.store.listFolders(visibility(d, res)) });
    },
    countArchivedChats: async (_req, res) => {
      res.json({ count: await d.store.countArchivedChats(visibility(d, res)) });
    },
    getChatStats: async (_req, res) => {
      const { key } = chat(res);
      res.json(await d.chatStats.get(`${key.accountId}:${key.chatId}`, () => d.store.getChatStats(key)));
    },
    listChatAvatars: async (_req, res) => {
      const { key } = chat(res);
      const avatars = await d.store.listChatAvatars(key);
      res.json(await presentChatAvatars(avatars, key, new FileProbe(d.config.media.backupPath)));
    },
  } satisfies ArchiveHandlers;
}
