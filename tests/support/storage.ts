/**
 * A test file's storage, emptied. `reset()` from cloudflare:test (workerd's deleteAllDurableObjects)
 * empties D1 and R2, but not always when a test worker runs its files as separate runs, which it does
 * once there are two test workers: a file then now and again found the previous file's rows (seen with
 * two workers: 12 users, among them another file's world). So after it, this checks that D1 and R2 are
 * empty and empties what is left: every table, view and trigger of ours dropped (the migrations are then
 * applied again, as on a new database), every R2 object deleted.
 */

const OURS = `name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'`;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Drops every table, view and trigger of ours (the D1 migrations' own table too). */
export async function emptyDatabase(d1: D1Database): Promise<number> {
  const { results } = await d1
    .prepare(`SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND ${OURS}`)
    .all<{ type: 'table' | 'view' | 'trigger'; name: string }>();
  if (results.length === 0) return 0;
  const tables = results.filter((r) => r.type === 'table').map((r) => r.name);
  const { results: links } = await d1
    .prepare(
      `SELECT m.name AS child, f."table" AS parent FROM sqlite_master m, pragma_foreign_key_list(m.name) f
         WHERE m.type = 'table' AND ${OURS.replaceAll('name', 'm.name')}`,
    )
    .all<{ child: string; parent: string }>();
  // A table is dropped after every table that refers to it (SQLite looks up a child's parent while
  // dropping the child); triggers and views first.
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const free = [...left].filter(
      (t) => !links.some((l) => l.parent === t && l.child !== t && left.has(l.child)),
    );
    if (free.length === 0) throw new Error(`Foreign keys in a cycle: ${[...left].join(', ')}`);
    for (const t of free) {
      order.push(t);
      left.delete(t);
    }
  }
  const drops = [
    ...results.filter((r) => r.type === 'trigger').map((r) => `DROP TRIGGER IF EXISTS ${quote(r.name)}`),
    ...results.filter((r) => r.type === 'view').map((r) => `DROP VIEW IF EXISTS ${quote(r.name)}`),
    ...order.map((t) => `DROP TABLE IF EXISTS ${quote(t)}`),
  ];
  // Rows of a table still referred to go with their parents: the keys are checked at the batch's end.
  await d1.batch([d1.prepare('PRAGMA defer_foreign_keys = on'), ...drops.map((sql) => d1.prepare(sql))]);
  return results.length;
}

/** Deletes every object of an R2 bucket. */
export async function emptyBucket(bucket: R2Bucket): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { objects } = await bucket.list({ limit: 1000 });
    if (objects.length === 0) return deleted;
    await bucket.delete(objects.map((o) => o.key));
    deleted += objects.length;
  }
}
