/**
 * Many rows at once, for tests of lists and selections larger than D1's 100 bound parameters: copies of
 * one existing row made by one `INSERT ... SELECT` over a counter, so 5,000 policies are one statement
 * rather than 5,000 service calls. What a copy must not share (public ids, numbers, emails) is given as
 * SQL over the template row `t` and the copy's number `n.i` (1 to count).
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { db } from './world';

/** The copy's number, 1 to count, for the SQL of `set`. */
export const COPY_NUMBER = sql.raw('n.i');

/** A fresh public id for each copy. */
export const FRESH_PUBLIC_ID = sql`lower(hex(randomblob(8)))`;

/**
 * Copies the row `fromId` of `table` `count` times (in one statement) and answers the new rows' ids in
 * order of their copy number. Columns named in `set` take that SQL (it may use `t.<column>` and
 * COPY_NUMBER); every other column but the id is the template's.
 */
export async function copyRow<T extends SQLiteTable & { id: SQLiteColumn }>(
  table: T,
  fromId: number,
  count: number,
  set: Partial<Record<keyof T['_']['columns'], SQL>> = {},
): Promise<number[]> {
  const d = db();
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key !== 'id');
  const names = sql.join(
    columns.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  );
  const values = sql.join(
    columns.map(([key, c]) => (set as Record<string, SQL>)[key] ?? sql.raw(`t."${c.name}"`)),
    sql`, `,
  );
  const [{ before }] = await d.all<{ before: number | null }>(sql`SELECT max(id) AS before FROM ${table}`);
  await d.run(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO ${table} (${names})
    SELECT ${values} FROM ${table} t CROSS JOIN n WHERE t.id = ${fromId} ORDER BY n.i`);
  const rows = await d.all<{ id: number }>(
    sql`SELECT id FROM ${table} WHERE id > ${before ?? 0} ORDER BY id`,
  );
  if (rows.length !== count) throw new Error(`Copied ${rows.length} rows of ${count}`);
  return rows.map((r) => r.id);
}

/**
 * SQL choosing, for copy number `n.i`, one of `ids` in turn (the copies spread over them): a JSON array
 * read by position, one bound parameter whatever its length.
 */
export function oneOf(ids: readonly number[]): SQL {
  // The length is written into the text: D1 binds a JavaScript number as a real, and a JSON path needs an
  // integer index.
  return sql`json_extract(${JSON.stringify(ids)}, '$[' || ((n.i - 1) % ${sql.raw(String(ids.length))}) || ']')`;
}
