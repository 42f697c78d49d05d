/**
 * What a person calls the entity an activity-log row is about (a client's name, a user's full name, an
 * invoice's number...). It is read from the entity when the row is WRITTEN and kept in the row
 * (`activity_logs.entity_label`): a later rename or deletion, or another row given the same id, never
 * changes what an old entry says. Used by the activity-log writers, the audit trail, page and export.
 */
import { sql, type SQL } from 'drizzle-orm';

/** Per entity type: its table and the expression naming a row `e` of it. */
const NAMES: Record<string, { table: string; name: string }> = {
  client: { table: 'clients', name: 'e.name' },
  campus: { table: 'campuses', name: 'e.name' },
  company: { table: 'companies', name: 'e.name' },
  insurer: { table: 'insurers', name: 'e.name' },
  country: { table: 'countries', name: 'e.name' },
  product: { table: 'products', name: 'e.name' },
  product_group: { table: 'product_groups', name: 'e.name' },
  contract: { table: 'contracts', name: 'e.name' },
  service_agreement: { table: 'service_agreements', name: 'e.name' },
  role: { table: 'roles', name: 'e.name' },
  api_key: { table: 'api_keys', name: 'e.name' },
  user: { table: 'users', name: "trim(e.first_name || ' ' || e.last_name)" },
  invoice: { table: 'invoices', name: 'e.number' },
  policy: { table: 'policies', name: "e.policy_number || ' · ' || trim(e.first_name || ' ' || e.last_name)" },
  import: { table: 'imports', name: 'e.file_name' },
  cancellation_import: { table: 'cancellation_imports', name: 'e.file_name' },
  bank_statement: { table: 'bank_statements', name: 'e.file_name' },
  webhook_endpoint: { table: 'webhook_endpoints', name: 'e.url' },
  notice: { table: 'notices', name: 'e.title' },
};

type Row = Record<string, unknown> | null | undefined;

/** The name a log entry's own fields record (a deleted row's `before`, a created one's `after`). */
function recordedName(before: Row, after: Row): string | null {
  for (const side of [after, before]) {
    const name = side?.name ?? side?.title;
    if (typeof name === 'string' && name.trim()) return name;
  }
  for (const side of [after, before]) {
    const full = [side?.first_name, side?.last_name].filter((v) => typeof v === 'string' && v).join(' ');
    if (full.trim()) return full.trim();
  }
  return null;
}

/**
 * The label an activity-log row keeps: the entity's name as it is when the row is written (the log
 * statement runs after the change in the same batch, so a rename shows its new name), or for an entity
 * deleted in that batch the name its entry recorded.
 */
export function entityLabel(
  entityType: string,
  entityId: number | SQL<number>,
  before: Row,
  after: Row,
): SQL {
  const recorded = recordedName(before, after);
  const source = NAMES[entityType];
  if (!source) return sql`${recorded}`;
  return sql`coalesce((SELECT ${sql.raw(source.name)} FROM ${sql.raw(source.table)} e WHERE e.id = ${entityId}), ${recorded})`;
}

/**
 * The same label for rows written from a query (logActivityFrom): `entityId`, `before` and `after` are
 * the query's columns (before and after as JSON text).
 */
export function entityLabelFrom(entityType: string, entityId: SQL, before: SQL, after: SQL): SQL {
  const field = (f: string) =>
    sql`coalesce(json_extract(${after}, ${`$.${f}`}), json_extract(${before}, ${`$.${f}`}))`;
  const recorded = sql`coalesce(${field('name')}, ${field('title')},
    nullif(trim(coalesce(${field('first_name')}, '') || ' ' || coalesce(${field('last_name')}, '')), ''))`;
  const source = NAMES[entityType];
  if (!source) return recorded;
  return sql`coalesce((SELECT ${sql.raw(source.name)} FROM ${sql.raw(source.table)} e WHERE e.id = ${entityId}), ${recorded})`;
}
