import * as admin from '../../domain/admin';
import { actor, adminDeps, principal, rawBody } from '../context';
import { clearSessionCookie } from '../cookies';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function adminHandlers(wiring: ArchiveWiring) {
  return {
    listViewers: async (_req, res) => {
      res.json({ viewers: await wiring.store.listViewerAccounts() });
    },
    createViewer: async (req, res) => {
      const account = await admin.createViewer(adminDeps(wiring), actor(wiring, req, res), req.body);
      const { id, username, allowed_accounts, allowed_chat_refs, is_active, no_download } = account;
      res.status(201).json({ id, username, allowed_accounts, allowed_chat_refs, is_active, no_download });
    },
    updateViewer: async (req, res) => {
      res.json(await admin.updateViewer(adminDeps(wiring), actor(wiring, req, res), req.params.id, req.body));
    },
    deleteViewer: async (req, res) => {
      await admin.deleteViewer(adminDeps(wiring), actor(wiring, req, res), req.params.id);
      res.json({ success: true });
    },
    listAdminChats: async (_req, res) => {
      res.json({ chats: await wiring.store.listAdminChats() });
    },
    listShareTokens: async (_req, res) => {
      res.json({ tokens: await wiring.store.listShareTokens() });
    },
    createShareToken: async (req, res) => {
      res.status(201).json(await admin.createToken(adminDeps(wiring), actor(wiring, req, res), req.body));
    },
    updateShareToken: async (req, res) => {
      res.json(await admin.updateToken(adminDeps(wiring), actor(wiring, req, res), req.params.id, req.body));
    },
    deleteShareToken: async (req, res) => {
      await admin.deleteToken(adminDeps(wiring), actor(wiring, req, res), req.params.id);
      res.json({ success: true });
    },
    endAllSessions: async (req, res) => {
      const keep = req.query.keep_current === true || req.body?.keep_current === true;
      const result = await admin.endAllSessions(
        adminDeps(wiring),
        actor(wiring, req, res),
        principal(res).sessionKey,
        keep,
      );
      if (result.currentSessionEnded) clearSessionCookie(req, res, wiring.config.auth);
      res.json({ success: true, ended: result.ended, current_session_ended: result.currentSessionEnded });
    },
    listAuditLog: async (req, res) => {
      const { limit = 100, offset = 0, username, action } = req.query;
      const logs = await wiring.store.listAudit({
        limit,
        offset,
        ...(username !== undefined && { username }),
        ...(action !== undefined && { action }),
      });
      res.json({ logs, limit, offset });
    },
    getSettings: async (_req, res) => {
      res.json({ settings: await wiring.store.getSettings() });
    },
    updateSetting: async (req, res) => {
      const sent = (rawBody(res) as { value?: unknown } | undefined)?.value;
      const value = sent === null || sent === undefined ? sent : req.body.value;
      res.json(await admin.updateSetting(adminDeps(wiring), actor(wiring, req, res), req.params.key, value));
    },
  } satisfies ArchiveHandlers;
}
