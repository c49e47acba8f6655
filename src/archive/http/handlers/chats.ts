import { labelAccounts, labelChat } from '../../domain/labels';
import { FileProbe, presentChat, presentChatAvatars } from '../../domain/present';
import { chat, deps, visibility } from '../context';
import type { Handler } from './types';

export const listAccounts: Handler<'listAccounts'> = async (req, res) => {
  const d = deps(req);
  const accounts = await d.store.listAccounts(visibility(req, res));
  res.json({ accounts: labelAccounts(accounts, d.config.accountLabels) });
};

export const listChats: Handler<'listChats'> = async (req, res) => {
  const d = deps(req);
  const { limit = 50, offset = 0, search, archived, folder_id } = req.query;
  const page = await d.store.listChats(visibility(req, res), {
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
};

export const getChat: Handler<'getChat'> = async (req, res) => {
  const d = deps(req);
  const shown = await presentChat(chat(res).chat, new FileProbe(d.config.media.backupPath));
  res.json(labelChat(shown, d.config.accountLabels));
};

export const listFolders: Handler<'listFolders'> = async (req, res) => {
  res.json({ folders: await deps(req).store.listFolders(visibility(req, res)) });
};

export const countArchivedChats: Handler<'countArchivedChats'> = async (req, res) => {
  res.json({ count: await deps(req).store.countArchivedChats(visibility(req, res)) });
};

export const getChatStats: Handler<'getChatStats'> = async (req, res) => {
  const d = deps(req);
  const { key } = chat(res);
  res.json(await d.chatStats.get(`${key.accountId}:${key.chatId}`, () => d.store.getChatStats(key)));
};

export const listChatAvatars: Handler<'listChatAvatars'> = async (req, res) => {
  const d = deps(req);
  const { key } = chat(res);
  const avatars = await d.store.listChatAvatars(key);
  res.json(await presentChatAvatars(avatars, key, new FileProbe(d.config.media.backupPath)));
};
