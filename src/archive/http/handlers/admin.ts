import * as admin from '../../domain/admin';
import type { ArchiveDeps } from '../context';
import { actor, adminDeps, principal, rawBody } from '../context';
import { clearSessionCookie } from '../cookies';
import type { ArchiveHandlers } from './types';

export function adminHandlers(d: ArchiveDeps) {
  return {
    listViewers: async (_req, res) => {
      res.json({ viewers: await d.store.listViewerAccounts() });
    },
    createViewer: async (req, res) => {
      const account = await admin.createViewer(adminDeps(d), actor(d, req, res), req.body);
      const { id, username, allowed_accounts, allowed_chat_refs, is_active, no_download } = account;
      res.status(201).json({ id, username, allowed_accounts, allowed_chat_refs, is_active, no_download });
    },
    updateViewer: async (req, res) => {
      res.json(await admin.updateViewer(adminDeps(d), actor(d, req, res), req.params.id, req.body));
    },
    deleteViewer: async (req, res) => {
      await admin.deleteViewer(adminDeps(d), actor(d, req, res), req.params.id);
      res.json({ success: true });
    },
    listAdminChats: async (_req, res) => {
      res.json({ chats: await d.store.listAdminChats() });
    },
    listShareTokens: async (_req, res) => {
      res.json({ tokens: await d.store.listShareTokens() });
    },
    createShareToken: async (req, res) => {
      res.status(201).json(await admin.createToken(adminDeps(d), actor(d, req, res), req.body));
    },
    updateShareToken: async (req, res) => {
      res.json(await admin.updateToken(adminDeps(d), actor(d, req, res), req.params.id, req.body));
    },
    deleteShareToken: async (req, res) => {
      await admin.deleteToken(adminDeps(d), actor(d, req, res), req.params.id);
      res.json({ success: true });
    },
    endAllSessions: async (req, res) => {
      const keep = req.query.keep_current === true || req.body?.keep_current === true;
      const result = await admin.endAllSessions(
        adminDeps(d),
        actor(d, req, res),
        principal(res).sessionKey,
        keep,
      );
      if (result.currentSessionEnded) clearSessionCookie(req, res, d.config.auth);
      res.json({ success: true, ended: result.ended, current_session_ended: result.currentSessionEnded });
    },
    listAuditLog: async (req, res) => {
      const { limit = 100, offset = 0, username, action } = req.query;
      const logs = await d.store.listAudit({
        limit,
        offset,
        ...(username !== undefined && { username }),
        ...(action !== undefined && { action }),
      });
      res.json({ logs, limit, offset });
    },
    getSettings: async (_req, res) => {
      res.json({ settings: await d.store.getSettings() });
    },
    updateSetting: async (req, res) => {
      const sent = (rawBody(res) as { value?: unknown } | undefined)?.value;
      const value = sent === null || sent === undefined ? sent : req.body.value;
      res.json(await admin.updateSetting(adminDeps(d), actor(d, req, res), req.params.key, value));
    },
  } satisfies ArchiveHandlers;
}
