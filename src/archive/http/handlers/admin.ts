import * as admin from '../../domain/admin';
import { actor, adminDeps, deps, principal, rawBody } from '../context';
import { clearSessionCookie } from '../cookies';
import type { Handler } from './types';

export const listViewers: Handler<'listViewers'> = async (req, res) => {
  res.json({ viewers: await deps(req).store.listViewerAccounts() });
};

export const createViewer: Handler<'createViewer'> = async (req, res) => {
  const account = await admin.createViewer(adminDeps(req), actor(req, res), req.body);
  const { id, username, allowed_accounts, allowed_chat_refs, is_active, no_download } = account;
  res.status(201).json({ id, username, allowed_accounts, allowed_chat_refs, is_active, no_download });
};

export const updateViewer: Handler<'updateViewer'> = async (req, res) => {
  res.json(await admin.updateViewer(adminDeps(req), actor(req, res), req.params.id, req.body));
};

export const deleteViewer: Handler<'deleteViewer'> = async (req, res) => {
  await admin.deleteViewer(adminDeps(req), actor(req, res), req.params.id);
  res.json({ success: true });
};

export const listAdminChats: Handler<'listAdminChats'> = async (req, res) => {
  res.json({ chats: await deps(req).store.listAdminChats() });
};

export const listShareTokens: Handler<'listShareTokens'> = async (req, res) => {
  res.json({ tokens: await deps(req).store.listShareTokens() });
};

export const createShareToken: Handler<'createShareToken'> = async (req, res) => {
  res.status(201).json(await admin.createToken(adminDeps(req), actor(req, res), req.body));
};

export const updateShareToken: Handler<'updateShareToken'> = async (req, res) => {
  res.json(await admin.updateToken(adminDeps(req), actor(req, res), req.params.id, req.body));
};

export const deleteShareToken: Handler<'deleteShareToken'> = async (req, res) => {
  await admin.deleteToken(adminDeps(req), actor(req, res), req.params.id);
  res.json({ success: true });
};

export const endAllSessions: Handler<'endAllSessions'> = async (req, res) => {
  const keep = req.query.keep_current === true || req.body?.keep_current === true;
  const result = await admin.endAllSessions(adminDeps(req), actor(req, res), principal(res).sessionKey, keep);
  if (result.currentSessionEnded) clearSessionCookie(req, res, deps(req).config.auth);
  res.json({ success: true, ended: result.ended, current_session_ended: result.currentSessionEnded });
};

export const listAuditLog: Handler<'listAuditLog'> = async (req, res) => {
  const { limit = 100, offset = 0, username, action } = req.query;
  const logs = await deps(req).store.listAudit({
    limit,
    offset,
    ...(username !== undefined && { username }),
    ...(action !== undefined && { action }),
  });
  res.json({ logs, limit, offset });
};

export const getSettings: Handler<'getSettings'> = async (req, res) => {
  res.json({ settings: await deps(req).store.getSettings() });
};

export const updateSetting: Handler<'updateSetting'> = async (req, res) => {
  const sent = (rawBody(res) as { value?: unknown } | undefined)?.value;
  const value = sent === null || sent === undefined ? sent : req.body.value;
  res.json(await admin.updateSetting(adminDeps(req), actor(req, res), req.params.key, value));
};
