/**
 * Many issued policies at once, for the insureds benchmark (scripts/bench/insureds.mjs and
 * insureds-seed.mjs): `count` policies of the main demo company over `clients` new clients with
 * `campuses` campuses each, generated inside SQLite (a recursive CTE, 20,000 rows per statement), with
 * the spread of a real book: every status, trip dates over two years, names from a list, families,
 * group leaders and groups.
 */
import { eq, sql } from 'drizzle-orm';
import { companies, products } from '../schema';
import type { DB } from '../../workers/platform/db';
import { runBatch } from '../../workers/platform/db';
import { POLICY_SERIES } from '../../workers/domain/policies/issue';
import { buildCampus, buildClient, countryId } from './builders';
import { buildContract, buildProduct } from './contracts';
import { buildIssuedPolicies } from './policies';

const FIRST = [
  'Emma',
  'Noah',
  'Łukasz',
  'Seán',
  'Zoë',
  'Lucía',
  'Matteo',
  'Inês',
  'Hiroshi',
  'Chloé',
  'Björn',
  'Aoife',
  'Mateus',
  'Yuki',
  'Clara',
  'Diego',
  'Hannah',
  'Leon',
  'Marta',
  'Pablo',
  'Nina',
  'Oliver',
  'Giulia',
  'Felix',
  'Ana',
  'Kenji',
  'Élodie',
  'Tomás',
  'Zofia',
  'Mia',
  'Lars',
  'Beatriz',
  'Jonas',
  'Amélie',
  'Sofia',
  'Ruairí',
  'Chen',
  'Fatima',
  'Omar',
  'Priya',
];
const LAST = [
  'Kowalski',
  'Murphy',
  'Müller',
  'García',
  'Rossi',
  'Dubois',
  'Silva',
  'Tanaka',
  'Schmidt',
  'Fernández',
  'Nowak',
  'Bianchi',
  'Lefèvre',
  'Costa',
  'Sato',
  'Johansson',
  'Kelly',
  'Weber',
  'López',
  'Romano',
  'Martin',
  'Pereira',
  'Suzuki',
  'Fischer',
  'Moreau',
  'Esposito',
  'Santos',
  'Kobayashi',
  'Byrne',
  'Walsh',
  'Okafor',
  'Haddad',
  'Patel',
  'Nguyen',
  'Kim',
  'Li',
  'Wang',
  'Zhang',
  'Ivanova',
  'Novak',
];

const list = (names: string[]) =>
  sql.raw(names.map((n, i) => `(${i}, '${n.replace(/'/g, "''")}')`).join(', '));

export async function seedPolicyVolume(
  db: DB,
  input: { count: number; clients: number; campuses: number; createdBy: number; chunk?: number },
) {
  const [company] = await db.select().from(companies).orderBy(companies.id).limit(1);
  const [existing] = await db.select().from(products).where(eq(products.company_id, company.id)).limit(1);
  const product =
    existing ??
    (await buildProduct(db, { companyId: company.id, code: 'BENCH_STUDENT', name: 'Student Travel Cover' }));
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const slots: { client_id: number; campus_id: number; contract_id: number; batch_id: number }[] = [];
  for (let c = 0; c < input.clients; c++) {
    const client = await buildClient(db, {
      name: `Bench School ${String.fromCharCode(65 + c)}`,
      companyId: company.id,
    });
    for (let k = 0; k < input.campuses; k++) {
      const campus = await buildCampus(db, {
        name: `Bench Campus ${String.fromCharCode(65 + c)}${k + 1}`,
        clientId: client.id,
      });
      const contract = await buildContract(db, {
        campusId: campus.id,
        productId: product.id,
        startDate: new Date(today.getTime() - 800 * 86_400_000).toISOString().slice(0, 10),
        endDate: new Date(today.getTime() + 800 * 86_400_000).toISOString().slice(0, 10),
      });
      // One real order per campus gives the batch the generated policies belong to.
      const { batch } = await buildIssuedPolicies(db, {
        campusId: campus.id,
        contractId: contract.id,
        createdBy: input.createdBy,
        people: [
          {
            first_name: 'First',
            last_name: 'Order',
            date_of_birth: '2005-01-01',
            start_date: '2026-01-01',
            end_date: '2026-02-01',
          },
        ],
      });
      slots.push({
        client_id: client.id,
        campus_id: campus.id,
        contract_id: contract.id,
        batch_id: batch.id,
      });
    }
  }
  const [fr, gb] = await Promise.all([countryId(db, 'FR'), countryId(db, 'GB')]);
  const slotValues = sql.raw(
    slots.map((s, i) => `(${i}, ${s.client_id}, ${s.campus_id}, ${s.contract_id}, ${s.batch_id})`).join(', '),
  );
  const size = input.chunk ?? 20_000;
  const now = Date.now();
  for (let from = 0; from < input.count; from += size) {
    const to = Math.min(input.count, from + size) - 1;
    await runBatch(db, [
      db.run(sql`INSERT INTO policies (id, public_id, policy_number, company_id, client_id, campus_id, contract_id,
          product_id, batch_id, type, first_name, last_name, date_of_birth, email, residence_country_id,
          destination_country_id, start_date, end_date, group_name, status, premium_minor, net_minor, tax_minor,
          currency, booking_date, issued_at, created_at, updated_at)
        WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to}),
          slot(k, client_id, campus_id, contract_id, batch_id) AS (VALUES ${slotValues}),
          fn(k, name) AS (VALUES ${list(FIRST)}),
          ln(k, name) AS (VALUES ${list(LAST)}),
          base AS (SELECT coalesce(max(id), 0) AS id FROM policies),
          seq AS (SELECT value FROM sequences WHERE name = ${POLICY_SERIES}),
          t AS (SELECT n.i, date(${today.toISOString().slice(0, 10)}, ((n.i * 7919) % 700 - 400) || ' days') AS start
                FROM n)
        SELECT base.id + 1 + t.i - ${from}, lower(hex(randomblob(7))), 'P' || printf('%08d', seq.value + 1 + t.i - ${from}),
          ${company.id}, slot.client_id, slot.campus_id, slot.contract_id, ${product.id}, slot.batch_id,
          CASE WHEN t.i % 50 = 0 THEN 'group_leader' WHEN t.i % 13 = 5 THEN 'immediate_family' ELSE 'student' END,
          fn.name, ln.name || CASE WHEN (t.i / 1600) % 3 = 1 THEN '-Smith' WHEN (t.i / 1600) % 3 = 2 THEN 'son' ELSE '' END,
          date('2000-01-01', ((t.i * 31) % 3650) || ' days'), 'bench.' || t.i || '@example.test', ${fr}, ${gb},
          t.start, date(t.start, (14 + (t.i * 13) % 300) || ' days'),
          CASE WHEN t.i % 50 < 12 THEN 'Group ' || char(65 + (t.i / 50) % 26) || char(65 + (t.i / 1300) % 26) END,
          CASE WHEN t.i % 23 = 0 AND t.start > ${today.toISOString().slice(0, 10)} THEN 'cancelled' ELSE 'issued' END,
          9500, 5700, 1140, 'GBP', date(t.start, '-30 days'),
          ${now} - ((t.i * 104729) % 400) * 86400000, ${now}, ${now}
        FROM t CROSS JOIN base CROSS JOIN seq
          JOIN slot ON slot.k = t.i % ${slots.length}
          JOIN fn ON fn.k = t.i % ${FIRST.length}
          JOIN ln ON ln.k = (t.i / ${FIRST.length}) % ${LAST.length}`),
      db.run(sql`UPDATE sequences SET value = value + ${to - from + 1} WHERE name = ${POLICY_SERIES}`),
    ]);
  }
  return { policies: input.count, clients: input.clients, campuses: slots.length };
}
