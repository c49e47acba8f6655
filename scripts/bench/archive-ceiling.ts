// The ceilings of `archive-cli import` on this machine, run by the command-line benchmark (archive-cli.ts):
// `node --import tsx scripts/bench/archive-ceiling.ts <imported.db> <empty-migrated.db> <prepared|select>`,
// or `… <imported.db> <postgres-url> copy` for migrate-sqlite-to-postgres's ceiling: every table streamed
// by `COPY … FROM STDIN` into a migrated, empty PostgreSQL archive, one transaction.
// It writes exactly the message rows the import wrote (read back from the imported archive) into an
// archive made by `archive-cli migrate` (its triggers and full-text index in place), in one transaction,
// the fastest ways SQLite offers from a script: prepared 500-row INSERTs bound from the rows as they are
// read, or one `INSERT … SELECT` from the attached archive, with FTS5's automerge at 16 for the transaction
// as the import holds it. Prints `CEILING <rows> <seconds>`.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const [source, target, mode] = process.argv.slice(2);
if (!source || !target || (mode !== 'prepared' && mode !== 'select' && mode !== 'copy')) {
  throw new Error(
    'usage: archive-ceiling.ts <imported.db> <empty-migrated.db|postgres-url> <prepared|select|copy>',
  );
}
if (mode === 'copy') {
  console.log(`CEILING ${await copyEverything(source, target)}`);
  process.exit(0);
}

/** Every table of the SQLite archive into PostgreSQL by COPY, one transaction; `<messages> <seconds>`. */
async function copyEverything(file: string, url: string): Promise<string> {
  const from = new Database(file, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const tables = (
    from
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
      )
      .all() as { name: string; sql: string }[]
  ).filter((t) => !/VIRTUAL/i.test(t.sql) && !/_fts/.test(t.name) && t.name !== 'schema_migrations');
  const started = performance.now();
  let messages = 0;
  await client.query('BEGIN');
  for (const { name } of tables) {
    const wanted = new Set(
      (
        await client.query(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()
             AND table_name = $1 AND is_generated = 'NEVER'`,
          [name],
        )
      ).rows.map((r: { column_name: string }) => r.column_name),
    );
    const columns = (from.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[])
      .map((c) => c.name)
      .filter((c) => wanted.has(c));
    const field = (v: unknown) =>
      v === null
        ? '\\N'
        : String(v).replace(
            /[\\\t\n\r]/g,
            (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c,
          );
    const rows = from
      .prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${name}"`)
      .raw()
      .iterate();
    async function* lines() {
      let chunk = '';
      for (const row of rows) {
        chunk += `${(row as unknown[]).map(field).join('\t')}\n`;
        if (name === 'messages') messages++;
        if (chunk.length > 1 << 20) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    const copy = client.query(
      copyFrom(`COPY "${name}" (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`),
    );
    await pipeline(Readable.from(lines()), copy);
  }
  await client.query('COMMIT');
  await client.end();
  return `${messages} ${((performance.now() - started) / 1000).toFixed(2)}`;
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
// The full-text setting the import holds for its transaction (bulkWrite in the SQLite capabilities).
const automerge = (n: 4 | 16) =>
  db.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', ${n})`);
const started = performance.now();
let rows = 0;
if (mode === 'select') {
  db.prepare('ATTACH DATABASE ? AS src').run(source);
  db.transaction(() => {
    automerge(16);
    // The chats the messages belong to, as the import wrote them.
    db.exec('INSERT INTO accounts SELECT * FROM src.accounts');
    db.exec('INSERT INTO chat_refs SELECT * FROM src.chat_refs');
    db.exec('INSERT INTO chats SELECT * FROM src.chats');
    rows = db
      .prepare(`INSERT INTO messages (${list}) SELECT ${list} FROM src.messages ORDER BY pk`)
      .run().changes;
    automerge(4);
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
    automerge(16);
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
    automerge(4);
  })();
  from.close();
}
db.close();
console.log(`CEILING ${rows} ${((performance.now() - started) / 1000).toFixed(2)}`);
