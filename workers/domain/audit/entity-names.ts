/**
 * What a person calls the entity an activity-log row is about (a client's name, a user's full name, an
 * invoice's number...), read from the entity itself, or for one since deleted from the name the row
 * recorded. Used by the audit trail, page and export; the row's visibility was decided before
 * (access/scope.ts visibleActivity), and the name belongs to the same entity.
 */
import { sql, type SQL } from 'drizzle-orm';
import { activityLogs } from '../../../drizzle/schema';

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
};

/** The entity types that have a name (the others are shown by number only). */
export const NAMED_ENTITY_TYPES = Object.keys(NAMES);

/** The name of the row's entity, or NULL when it has none. */
export function entityName(): SQL<string | null> {
  const cases = Object.entries(NAMES).map(
    ([type, { table, name }]) =>
      sql`WHEN ${type} THEN (SELECT ${sql.raw(name)} FROM ${sql.raw(table)} e WHERE e.id = ${activityLogs.entity_id})`,
  );
  const recorded = (side: 'before' | 'after', field: string) =>
    sql`json_extract(${activityLogs[side]}, ${`$.${field}`})`;
  return sql<string | null>`coalesce(CASE ${activityLogs.entity_type} ${sql.join(cases, sql` `)} END,
    ${recorded('before', 'name')}, ${recorded('after', 'name')}, ${recorded('before', 'title')},
    ${recorded('after', 'title')})`;
}
