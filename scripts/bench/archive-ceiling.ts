// The ceilings of `archive-cli import` on this machine, run by the command-line benchmark (archive-cli.ts):
// `node --import tsx scripts/bench/archive-ceiling.ts <imported.db> <empty-migrated.db> <prepared|select>`.
// It writes exactly the message rows the import wrote (read back from the imported archive) into an
// archive made by `archive-cli migrate` (its triggers and full-text index in place), in one transaction,
// the fastest ways SQLite offers from a script: prepared 500-row INSERTs bound from the rows as they are
// read, or one `INSERT … SELECT` from the attached archive. Prints `CEILING <rows> <seconds>`.
import Database from 'better-sqlite3';

const [source, target, mode] = process.argv.slice(2);
if (!source || !target || (mode !== 'prepared' && mode !== 'select')) {
  throw new Error('usage: archive-ceiling.ts <imported.db> <empty-migrated.db> <prepared|select>');
}
const db = new Database(target);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const columns = (
  db.prepare('SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0').all('messages') as {
    name: string;
  }[]
).map((c) => c.name);
const list = columns.join(', ');
const started = performance.now();
let rows = 0;
if (mode === 'select') {
  db.prepare('ATTACH DATABASE ? AS src').run(source);
  db.transaction(() => {
    // The chats the messages belong to, as the import wrote them.
    db.exec('INSERT INTO accounts SELECT * FROM src.accounts');
    db.exec('INSERT INTO chat_refs SELECT * FROM src.chat_refs');
    db.exec('INSERT INTO chats SELECT * FROM src.chats');
    rows = db
      .prepare(`INSERT INTO messages (${list}) SELECT ${list} FROM src.messages ORDER BY pk`)
      .run().changes;
  })();
} else {
  const from = new Database(source, { readonly: true });
  const BATCH = 500;
  const row = `(${columns.map(() => '?').join(', ')})`;
  const insert = db.prepare(`INSERT INTO messages (${list}) VALUES ${Array(BATCH).fill(row).join(', ')}`);
  const copy = (table: string) => {
    for (const r of from.prepare(`SELECT * FROM ${table}`).all()) {
      const values = Object.values(r as Record<string, unknown>);
      db.prepare(`INSERT INTO ${table} VALUES (${values.map(() => '?').join(', ')})`).run(...values);
    }
  };
  db.transaction(() => {
    copy('accounts');
    copy('chat_refs');
    copy('chats');
    let params: unknown[] = [];
    let pending = 0;
    for (const r of from.prepare(`SELECT ${list} FROM messages ORDER BY pk`).raw().iterate()) {
      params.push(...(r as unknown[]));
      if (++pending === BATCH) {
        insert.run(...params);
        rows += pending;
        params = [];
        pending = 0;
      }
    }
    if (pending > 0) {
      db.prepare(`INSERT INTO messages (${list}) VALUES ${Array(pending).fill(row).join(', ')}`).run(
        ...params,
      );
      rows += pending;
    }
  })();
  from.close();
}
db.close();
console.log(`CEILING ${rows} ${((performance.now() - started) / 1000).toFixed(2)}`);
