/**
 * Snapshots of a test database's rows, so a world that takes seconds to build (password hashes, a
 * hundred inserts one after another) is built once per test worker and put back into each later test
 * file's fresh database in one batch. The snapshot is data, not a shared database: every file still
 * starts from its own storage (tests/setup.ts).
 */
export interface TableRows {
  table: string;
  columns: string[];
  rows: unknown[][];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables the database's triggers fill as the other rows go back in (migration 0010): not copied. */
const FILLED_BY_TRIGGERS = new Set(['billing_balances', 'billing_months']);

/** Every row of every table of ours (not the migrations table, which setup.ts fills). */
export async function snapshotRows(d1: D1Database): Promise<TableRows[]> {
  const { results: tables } = await d1
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations' ORDER BY rowid`,
    )
    .all<{ name: string }>();
  const reads = tables.map(({ name }) => d1.prepare(`SELECT * FROM ${quote(name)}`));
  const answers = reads.length ? await d1.batch(reads) : [];
  return tables
    .map(({ name }, i) => {
      const rows = answers[i].results as Record<string, unknown>[];
      const columns = rows.length ? Object.keys(rows[0]) : [];
      return { table: name, columns, rows: rows.map((r) => columns.map((c) => r[c])) };
    })
    .filter((t) => t.rows.length > 0 && !FILLED_BY_TRIGGERS.has(t.table));
}

/** D1 binds at most 100 parameters per statement. */
const MAX_PARAMETERS = 100;

/** Puts the rows of a snapshot into an empty database with the same schema, in one transaction. */
export async function restoreRows(d1: D1Database, snapshot: TableRows[]): Promise<void> {
  // Parents and children go in one batch in any order: foreign keys are checked at its end.
  const statements = [d1.prepare('PRAGMA defer_foreign_keys = on')];
  for (const { table, columns, rows } of snapshot) {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let i = 0; i < rows.length; i += perStatement) {
      const chunk = rows.slice(i, i + perStatement);
      statements.push(
        d1
          .prepare(
            `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`,
          )
          .bind(...chunk.flat()),
      );
    }
  }
  await d1.batch(statements);
}
