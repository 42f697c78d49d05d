/**
 * The reference data every region needs (permissions, default roles and their permissions, countries, units)
 * as idempotent SQL, for `npm run seed:reference` against a deployed D1. The same lists seed local
 * databases and tests through builders.ts.
 */
import { ALL_PERMISSIONS, groupOf } from '../../workers/domain/access/permissions';
import { DEFAULT_ROLES } from '../../workers/domain/access/default-roles';
import { BASE_COUNTRIES } from './countries';
import { DEFAULT_UNITS } from '../../workers/domain/products/units';

const q = (v: string | null | undefined) => (v == null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`);

export function referenceSql(): string {
  const lines: string[] = [];
  for (const p of ALL_PERMISSIONS) {
    lines.push(`INSERT OR IGNORE INTO permissions (name, "group") VALUES (${q(p)}, ${q(groupOf(p))});`);
  }
  for (const r of DEFAULT_ROLES) {
    lines.push(
      `INSERT OR IGNORE INTO roles (name, slug, family) VALUES (${q(r.name)}, ${q(r.slug)}, ${q(r.family)});`,
    );
    for (const p of r.permissions) {
      lines.push(
        `INSERT OR IGNORE INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.family = ${q(r.family)} AND r.slug = ${q(r.slug)} AND p.name = ${q(p)};`,
      );
    }
  }
  for (const c of BASE_COUNTRIES) {
    lines.push(
      `INSERT OR IGNORE INTO countries (name, abbreviation, code, dial_code, capital, region_code, currency_code, currency_name, currency_symbol, language) VALUES (${[
        c.name,
        c.abbreviation,
        c.code,
        c.dial_code,
        c.capital,
        c.region_code,
        c.currency_code,
        c.currency_name,
        c.currency_symbol,
        c.language,
      ]
        .map(q)
        .join(', ')});`,
    );
  }
  for (const u of DEFAULT_UNITS) {
    lines.push(`INSERT OR IGNORE INTO units (name, days) VALUES (${q(u.name)}, ${u.days});`);
  }
  return lines.join('\n') + '\n';
}
