import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import type { BatchItem } from 'drizzle-orm/batch';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteInsertValue, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../../drizzle/schema';

export type DB = DrizzleD1Database<typeof schema> & { $client: D1Database };

interface Query {
  sql: string;
  params: unknown[];
}

/**
 * A statement for runBatch: a drizzle query builder (insert, update, delete, select: `toSQL()`) or a raw
 * `db.run(sql`...`)` (`getQuery()`).
 */
export type Statement = BatchItem<'sqlite'> & ({ toSQL(): Query } | { getQuery(): Query });

const instances = new WeakMap<D1Database, DB>();

/**
 * The drizzle database over a D1 binding, made once per binding: building it reads the whole schema's
 * relations (tens of milliseconds), which every request and queue message paid before.
 */
export function createDb(d1: D1Database): DB {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1, { schema }) as DB;
    instances.set(d1, db);
  }
  return db;
}

type Column = SQL | { getSQL(): SQL };
type Values = readonly (string | number)[];

/**
 * `column IN (the values)`: the one way to test a column against a list that can grow (a page's ids, a
 * selection, a client's campuses). The values are bound as one JSON array read through json_each, so
 * the list has no 100-parameter limit (drizzle's inArray binds one parameter per value). One value is
 * an equality, so the planner still uses an index for the order of a list scoped to one company; no
 * values match no row.
 */
export function inJson(column: Column, values: Values): SQL {
  if (values.length === 1) return sql`(${column} = ${values[0]})`;
  return sql`(${column} IN (SELECT value FROM json_each(${JSON.stringify(values)})))`;
}

/** `column NOT IN (the values)`, bound as inJson binds them; no values exclude no row. */
export function notInJson(column: Column, values: Values): SQL {
  if (values.length === 1) return sql`(${column} <> ${values[0]})`;
  return sql`(${column} NOT IN (SELECT value FROM json_each(${JSON.stringify(values)})))`;
}

/**
 * The id of a row by its public id, as a subquery: for a row written earlier in the same batch, so a new
 * row and the rows that point at it (its contacts, its activity-log row) go into one batch (one
 * transaction) although they need the new row's id.
 */
export function idByPublicId(
  table: SQLiteTable & { id: SQLiteColumn; public_id: SQLiteColumn },
  publicId: string,
): SQL<number> {
  return sql<number>`(select ${table.id} from ${table} where ${table.public_id} = ${publicId})`;
}

/** D1 binds at most 100 parameters per statement. */
export const MAX_BOUND_PARAMETERS = 100;

/**
 * Splits rows so that each insert stays within D1's bound-parameter limit.
 * `columnsPerRow` is the number of values each row binds.
 */
export function chunkRows<T>(rows: readonly T[], columnsPerRow: number): T[][] {
  if (columnsPerRow < 1 || columnsPerRow > MAX_BOUND_PARAMETERS) {
    throw new Error(`A row binds ${columnsPerRow} parameters; D1 allows 1 to ${MAX_BOUND_PARAMETERS}.`);
  }
  return chunk(rows, Math.floor(MAX_BOUND_PARAMETERS / columnsPerRow));
}

/**
 * Splits items into lists of at most `size`, in order: the one chunking loop (statements within D1's
 * parameter limit through chunkRows, JSON row sets, queue sends, the steps of a long write).
 * Many values in one `IN` need no chunks: use inJson.
 */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`A chunk holds at least one item, not ${size}.`);
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Runs statements as one D1 batch (one transaction). An empty list does nothing.
 * Every multi-row change goes through here so it is all-or-nothing.
 */
export async function runBatch(db: DB, statements: readonly Statement[]): Promise<void> {
  if (statements.length === 0) return;
  // Bound here rather than by db.batch: drizzle's D1 batch cannot bind raw `db.run(sql`...`)` statements
  // that carry parameters (drizzle-orm#2277: it binds through a prepared statement a raw query does not
  // have), and the results are not needed. The query text comes from each statement's public accessor.
  const client = db.$client;
  await client.batch(
    statements.map((statement) => {
      const { sql, params } = 'toSQL' in statement ? statement.toSQL() : statement.getQuery();
      return client.prepare(sql).bind(...params);
    }),
  );
}

/**
 * Builds the insert statements for many rows of one table, chunked to the bound-parameter limit.
 * Returns statements to be run in one batch with the rest of a change.
 */
export function bulkInsert<TTable extends Parameters<DB['insert']>[0]>(
  db: DB,
  table: TTable,
  rows: SQLiteInsertValue<TTable>[],
): Statement[] {
  if (rows.length === 0) return [];
  // drizzle binds a value for every column of the table (null or default where the row has none).
  const columnsPerRow = Object.keys(getTableColumns(table)).length;
  return chunkRows(rows, columnsPerRow).map((chunk) => db.insert(table).values(chunk));
}
