/** `import -p PATH [-c CHAT_ID] [--dry-run] [--skip-media] [--merge]`: a desktop-app export. */

import { defineCommand, errorText, UsageError } from '../../common/cli/command';
import { stopSignal } from '../../common/cli/stop-signal';
import { ImportStopped } from '../importers/types';
import { mediaRoot, openDatabase } from './context';

export const importCommand = defineCommand()({
  name: 'import',
  summary: "import a desktop app's export folder (result.json, or messages.html with -c)",
  options: {
    path: {
      type: 'string',
      short: 'p',
      required: true,
      metavar: 'PATH',
      help: 'the export folder, or its result.json or first HTML page',
    },
    'chat-id': {
      type: 'string',
      short: 'c',
      metavar: 'CHAT_ID',
      help: "the chat's id in marked format (a user 123, a basic group -123, a channel or supergroup -100123); required for HTML exports",
    },
    'dry-run': { type: 'boolean', help: 'read and count, write nothing' },
    'skip-media': { type: 'boolean', help: 'do not copy media files (recorded as not downloaded)' },
    merge: { type: 'boolean', help: 'allow importing into a chat that already has messages' },
  },
  async run(ctx, values) {
    const rawChat = values['chat-id'];
    if (typeof rawChat === 'string' && !/^-?\d+$/.test(rawChat)) {
      throw new UsageError(`argument -c/--chat-id: invalid int value: '${rawChat}'`);
    }
    const dryRun = values['dry-run'] === true;
    const prefix = dryRun ? '[DRY RUN] ' : '';
    // SIGTERM or SIGINT: the chat in progress is rolled back and the import ends (see ImportInterrupted).
    const stop = stopSignal();
    try {
      const db = await openDatabase(ctx.env, ctx.logger, { readonly: dryRun, schema: false });
      try {
        const { importExport } = await import('../importers/run-import');
        const report = await importExport(db, {
          dir: String(values.path),
          chatId: typeof rawChat === 'string' ? Number(rawChat) : null,
          dryRun,
          skipMedia: values['skip-media'] === true,
          merge: values.merge === true,
          mediaRoot: mediaRoot(ctx.env),
          logger: ctx.logger,
          signal: stop.signal,
        }).catch(async (error: unknown) => {
          // Stopped part-way: the cached figures `stats` prints count the chats that were kept.
          if (error instanceof ImportStopped && error.chatsDone > 0)
            await db.refreshArchiveFigures(new Date());
          throw error;
        });
        const sum = (f: (c: (typeof report.chats)[number]) => number) =>
          report.chats.reduce((n, c) => n + f(c), 0);
        // The cached figures `stats` prints count what the import added (as gap-fill's do).
        if (!dryRun && sum((c) => c.messages) > 0) {
          await db.finishBulkWrite(new Date());
        }
        const lines = [
          `${prefix}Import complete:`,
          `  Chats: ${report.chats.length}`,
          `  Messages: ${sum((c) => c.messages)}`,
          `  Media files: ${sum((c) => c.mediaFiles)}`,
        ];
        const duplicates = sum((c) => c.duplicates);
        if (duplicates > 0) lines.push(`  Duplicate message ids skipped: ${duplicates}`);
        const archived = sum((c) => c.alreadyArchived);
        if (archived > 0) lines.push(`  Already archived: ${archived}`);
        const outside = sum((c) => c.mediaOutside);
        if (outside > 0)
          lines.push(
            `  Media files skipped: ${outside} (symbolic links leading out of the export folder, files with several hard links)`,
          );
        const skipped = sum((c) => c.skipped);
        if (skipped > 0) lines.push(`  Entries without a date skipped: ${skipped}`);
        for (const c of report.chats) {
          const extra = [
            c.mediaMissing > c.mediaOutside
              ? `${c.mediaMissing - c.mediaOutside} media not in the export`
              : '',
            c.mediaOutside > 0 ? `${c.mediaOutside} links that may lead out of the export skipped` : '',
            c.duplicates > 0 ? `${c.duplicates} duplicate ids skipped` : '',
            c.alreadyArchived > 0 ? `${c.alreadyArchived} already archived` : '',
          ].filter(Boolean);
          lines.push(
            `  ${c.chat.title ?? '(untitled)'} [${c.chat.type}, ${c.chat.id}]: ${c.messages} messages, ${c.mediaFiles} media files${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`,
          );
        }
        ctx.io.out(lines.join('\n'));
        return 0;
      } finally {
        await db.close();
      }
    } catch (error) {
      ctx.io.err(`${prefix}Import failed: ${errorText(error)}`);
      return 1;
    } finally {
      stop.dispose();
    }
  },
});
