/** `list-chats`: ID, Type, Name, Last Updated (`N/A` when the chat has no message), then the total. */
import { defineCommand, errorText } from '../../common/cli/command';
import { openDatabase } from './context';

const COLUMNS = [20, 12, 40];

export const listChats = defineCommand()({
  name: 'list-chats',
  summary: 'list the archived chats',
  options: {},
  async run(ctx) {
    try {
      const db = await openDatabase(ctx.env, ctx.logger, { readonly: true });
      try {
        const chats = await db.listCliChats();
        const row = (cells: string[]) =>
          cells.map((c, i) => (i < COLUMNS.length ? c.padEnd(COLUMNS[i] as number) : c)).join(' ');
        ctx.io.out(row(['ID', 'Type', 'Name', 'Last Updated']));
        ctx.io.out(row([...COLUMNS.map((w) => '-'.repeat(w)), '-'.repeat(19)]));
        for (const chat of chats) {
          const name = chat.name.length > 40 ? `${chat.name.slice(0, 37)}...` : chat.name;
          const updated = chat.lastUpdated ? chat.lastUpdated.slice(0, 19).replace('T', ' ') : 'N/A';
          ctx.io.out(row([String(chat.id), chat.type, name, updated]));
        }
        ctx.io.out(`\nTotal: ${chats.length} chats`);
        return 0;
      } finally {
        await db.close();
      }
    } catch (error) {
      ctx.io.err(`List chats failed: ${errorText(error)}`);
      return 1;
    }
  },
});
