/**
 * `merge --source SRC [--source-media DIR] [--account LABEL_OR_ID] [--add-missing-parents] [--dry-run]`:
 * another archive (SQLite file or database URL, either backend) copied into this one under new account
 * ids, rows and media files, in one transaction. The source is opened read-only; nothing in the target
 * is changed or deleted; viewer accounts, sessions, share links and push subscriptions stay behind.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type CommandContext, defineCommand, errorText, type OptionValues } from '../../common/cli/command';
import { MediaCopier, recoverCopies } from '../importers/media-files';
import { chatFolder } from '../model/media-layout';
import { type DatabaseConfig, parseDatabaseConfig } from '../store/config';
import { listMigrations } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import type { ArchiveDatabase, MergeHooks, MergeResult } from '../store/store';
import { databaseConfig, mediaRoot, openDatabase } from './context';

class MergeRefused extends Error {
  override name = 'MergeRefused';
}

function sourceConfig(source: string): DatabaseConfig {
  if (/^[a-z][a-z0-9+.-]*:/i.test(source) && !/^[a-z]:[\\/]/i.test(source)) {
    return parseDatabaseConfig({ DATABASE_URL: source });
  }
  return { backend: 'sqlite', path: source, timeoutSeconds: 60, echo: false };
}

const sameDatabase = (a: DatabaseConfig, b: DatabaseConfig) =>
  a.backend === 'sqlite' && b.backend === 'sqlite'
    ? path.resolve(a.path) === path.resolve(b.path)
    : a.backend === 'postgresql' && b.backend === 'postgresql' && a.url === b.url;

/**
 * The folder the source's stored media paths are relative to (its `BACKUP_PATH`), when `--source-media`
 * is not given: for a SQLite source, `backups` beside the file (where an installation of this archive
 * keeps them: `<DATA_DIR>/archive.db` and `<DATA_DIR>/backups`), else `media` beside it (the seed's
 * default), else the file's own folder. Null for a database URL.
 */
export function defaultSourceMedia(source: DatabaseConfig): string | null {
  if (source.backend !== 'sqlite') return null;
  const folder = path.dirname(path.resolve(source.path));
  const candidates = [path.join(folder, 'backups'), path.join(folder, 'media')];
  return candidates.find((dir) => existsSync(dir) && statSync(dir).isDirectory()) ?? folder;
}

const fileHash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Copies each file a merged row names into the target's media folder, where the layout
 * (domain/media-layout.ts) puts it for the new account: a message's file into that account's own chat
 * folder (`<chat id>_account_<n>`), a shared file and a chat photo under the same name (their names
 * come from their content and the platform's photo id). A name already taken by other content gets the
 * account suffix `_m<n>`; the same content is not copied twice. A file missing from the source keeps the
 * row's path and is counted. In a dry run nothing is copied.
 */
function mediaHook(
  sourceMedia: string | null,
  targetMedia: string,
  copier: MediaCopier,
  dryRun: boolean,
  counts: { copied: number; missing: number },
): MergeHooks['mediaFile'] {
  return async (row, accountId) => {
    const relative = row.file_path;
    if (!relative) return null;
    const from = sourceMedia ? path.join(sourceMedia, relative) : null;
    if (!from || !existsSync(from)) {
      counts.missing++;
      return relative;
    }
    const sharedName = row.kind === 'avatar' || relative.startsWith('media/_shared/');
    let target = sharedName
      ? relative
      : path.posix.join(chatFolder(accountId, row.chat_id), path.posix.basename(relative));
    const existing = path.join(targetMedia, target);
    if (existsSync(existing)) {
      if (fileHash(existing) === fileHash(from)) return target;
      const ext = path.posix.extname(target);
      target = `${target.slice(0, target.length - ext.length)}_m${accountId}${ext}`;
    }
    if (!dryRun) copier.copy(from, target);
    counts.copied++;
    return target;
  };
}

async function plan(source: ArchiveDatabase, target: ArchiveDatabase, values: OptionValues) {
  const latest = Math.max(...listMigrations(target.backend).map((m) => m.version));
  const [from, to] = [await source.schemaRevision(), await target.schemaRevision()];
  if (from !== latest || to !== latest) {
    throw new MergeRefused(
      `the source archive is at schema revision ${from} and this archive at ${to}; both must be at ${latest} (run migrate on both first)`,
    );
  }
  let accounts = await source.listMergeAccounts();
  if (accounts.length === 0) throw new MergeRefused('the source archive has no accounts');
  const wanted = values.account;
  if (typeof wanted === 'string') {
    const byLabel = accounts.filter((a) => a.label === wanted);
    const chosen =
      byLabel.length > 0
        ? byLabel
        : accounts.filter(
            (a) =>
              String(a.id) === wanted ||
              (a.label === null && wanted === (a.id === 1 ? 'default' : `account${a.id}`)),
          );
    if (chosen.length === 0) throw new MergeRefused(`no account "${wanted}" in the source archive`);
    accounts = chosen;
  }
  await refuseMergedBefore(source, target, accounts);
  const orphans = await source.countOrphans(accounts.map((a) => a.id));
  const total = Object.values(orphans).reduce((a, b) => a + b, 0);
  if (total > 0 && values['add-missing-parents'] !== true) {
    throw new MergeRefused(
      `${total} source rows reference chats or messages missing from the source archive (${Object.entries(
        orphans,
      )
        .filter(([, n]) => n > 0)
        .map(([t, n]) => `${t}: ${n}`)
        .join(', ')}); pass --add-missing-parents to add placeholders for them`,
    );
  }
  return accounts.map((a) => a.id);
}

/**
 * A source account of which this archive holds any chat under the same ref was merged before (a merged
 * chat keeps its ref when this archive never minted it; refs are random, so no other archive has them),
 * or this archive is a copy of the source: merging it again would copy those chats' messages a second
 * time, even when the source has gained chats since. Refused, naming the account.
 */
async function refuseMergedBefore(
  source: ArchiveDatabase,
  target: ArchiveDatabase,
  accounts: { id: number; label: string | null }[],
): Promise<void> {
  const chats = await source.listAdminChats();
  for (const account of accounts) {
    const refs = chats.filter((c) => c.account_id === account.id).map((c) => c.ref);
    if (refs.length === 0) continue;
    let held = 0;
    for (let i = 0; i < refs.length; i += 500)
      held += (await target.existingChatRefs(refs.slice(i, i + 500))).length;
    if (held > 0) {
      throw new MergeRefused(
        `this archive already holds ${held === refs.length ? 'every one' : `${held}`} of the ${refs.length} chats of source account ${account.id}${account.label ? ` (${account.label})` : ''} under the same refs: it was merged before, and merging it again would copy their messages twice`,
      );
    }
  }
}

/** The merge itself; `testHooks.afterTable` lets the suite fail it half-way. */
export async function runMerge(
  ctx: CommandContext,
  values: OptionValues,
  testHooks: Pick<MergeHooks, 'afterTable'> = {},
): Promise<number> {
  const dryRun = values['dry-run'] === true;
  const copier = new MediaCopier(mediaRoot(ctx.env));
  let source: ArchiveDatabase | null = null;
  let target: ArchiveDatabase | null = null;
  let result: MergeResult;
  const media = { copied: 0, missing: 0 };
  let sourceMedia: string | null = null;
  try {
    const from = sourceConfig(String(values.source));
    const to = databaseConfig(ctx.env);
    try {
      if (sameDatabase(from, to)) throw new MergeRefused('the source is this archive itself');
      if (from.backend === 'sqlite' && !existsSync(from.path)) {
        throw new MergeRefused(`source database not found: ${from.path}`);
      }
      source = await openArchiveStore(from, ctx.logger, { readonly: true });
      target = await openDatabase(ctx.env, ctx.logger);
      if (!dryRun) await recoverCopies(target, { mediaRoot: copier.root, logger: ctx.logger });
      const accounts = await plan(source, target, values);
      sourceMedia =
        typeof values['source-media'] === 'string' ? values['source-media'] : defaultSourceMedia(from);
      if (sourceMedia === null)
        ctx.logger.warn('no --source-media for a database URL source: media files are not copied');
      result = await target.mergeArchive(
        source,
        { accounts, addMissingParents: values['add-missing-parents'] === true, dryRun },
        {
          afterTable: testHooks.afterTable,
          mediaFile: mediaHook(sourceMedia, copier.root, copier, dryRun, media),
        },
      );
      copier.commit();
      // The cached figures `stats` prints count what the merge added (as gap-fill's do).
      if (!dryRun && Object.values(result.rows).some((n) => n > 0)) {
        await target.finishBulkWrite(new Date());
      }
    } finally {
      await source?.close();
      await target?.close();
    }
  } catch (error) {
    copier.rollback();
    if (error instanceof MergeRefused) {
      ctx.io.err(`Merge refused: ${error.message}`);
      return 1;
    }
    const type = (error as Error)?.constructor?.name || 'Error';
    ctx.logger.error({ err: errorText(error) }, 'merge failed');
    ctx.io.err(`Merge failed: ${type}. Nothing was committed to the target database.`);
    return 1;
  }
  const lines = [`${dryRun ? '[DRY RUN] ' : ''}Merge complete:`];
  for (const a of result.accounts) {
    lines.push(`  Account ${a.sourceId}${a.label ? ` (${a.label})` : ''} -> account ${a.targetId}`);
  }
  lines.push('  Rows added:');
  for (const [table, n] of Object.entries(result.rows)) lines.push(`    ${table}: ${n}`);
  lines.push(`  Media files copied: ${media.copied}`);
  if (media.missing > 0) {
    lines.push(`  Media files missing in the source: ${media.missing}`);
    // Their rows keep their paths; the viewer answers 404 for them until the files are there.
    lines.push(
      sourceMedia === null
        ? '  (no media folder for a database URL source: pass --source-media DIR, the folder its paths are relative to)'
        : `  (looked for them under ${sourceMedia}: pass --source-media DIR, the folder the source's BACKUP_PATH was, if they are elsewhere)`,
    );
  }
  ctx.io.out(lines.join('\n'));
  return 0;
}

export const merge = defineCommand()({
  name: 'merge',
  summary: 'copy every account of another archive into this one (one transaction)',
  options: {
    source: { type: 'string', required: true, metavar: 'SOURCE', help: 'SQLite file path or database URL' },
    'source-media': {
      type: 'string',
      metavar: 'DIR',
      help: "the source's media folder, its BACKUP_PATH (default: backups, else media, beside a SQLite source)",
    },
    account: { type: 'string', metavar: 'LABEL_OR_ID', help: 'only this source account (a label wins)' },
    'add-missing-parents': { type: 'boolean', help: 'add placeholder chats and messages for orphaned rows' },
    'dry-run': { type: 'boolean', help: 'count what would be merged, write nothing' },
  },
  run: (ctx, values) => runMerge(ctx, values),
});
