/**
 * A deleted row's id is never given to another row, in every table whose rows are hard-deleted and whose
 * ids an audit entry, another table, an export, a URL or an API answer can name (docs/decisions/
 * platform.md, "Ids of deleted rows are never reused"). Without AUTOINCREMENT SQLite gives the newest
 * row's id again once it is deleted; each table here deletes its newest row and inserts another, whose id
 * must be new. The list of such tables is checked against the schema, so a later rebuild of one of them
 * cannot drop AUTOINCREMENT unnoticed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  addresses,
  bankAllocations,
  bankStatementLines,
  cancellationRows,
  clients,
  contacts,
  conversationMessages,
  conversations,
  enrollments,
  insurers,
  messageAttachments,
  notes,
  policyBatches,
  productDocuments,
  productGroups,
  productPrices,
  roles,
  serviceAgreementDocuments,
  serviceAgreementRows,
  sessions,
  taxRates,
  users,
} from '../../drizzle/schema';
import { copyRow, FRESH_PUBLIC_ID } from '../support/copies';
import { seedPoliciesWorld } from '../support/policies';
import { db, SETUP_TIMEOUT_MS } from '../support/world';

type Table = SQLiteTable & { id: SQLiteColumn };

/** Each table, and what a copy of its newest row must not share with it (unique columns). */
const TABLES: [name: string, table: Table, unique: Record<string, SQL>][] = [
  ['roles', roles, { slug: sql`t.slug || '_' || ${FRESH_PUBLIC_ID}` }],
  ['users', users, { public_id: FRESH_PUBLIC_ID, email: sql`${FRESH_PUBLIC_ID} || '@copy.test'` }],
  ['sessions', sessions, { token_hash: FRESH_PUBLIC_ID }],
  ['clients', clients, { public_id: FRESH_PUBLIC_ID }],
  ['contacts', contacts, {}],
  ['addresses', addresses, { owner_id: sql`(SELECT max(owner_id) + 1 FROM addresses)` }],
  ['insurers', insurers, { public_id: FRESH_PUBLIC_ID }],
  ['tax_rates', taxRates, {}],
  ['product_prices', productPrices, {}],
  ['product_documents', productDocuments, {}],
  ['product_groups', productGroups, { public_id: FRESH_PUBLIC_ID }],
  ['notes', notes, {}],
  ['service_agreement_documents', serviceAgreementDocuments, {}],
  ['service_agreement_rows', serviceAgreementRows, {}],
  ['policy_batches', policyBatches, { public_id: FRESH_PUBLIC_ID }],
  ['enrollments', enrollments, { public_id: FRESH_PUBLIC_ID }],
  ['cancellation_rows', cancellationRows, {}],
  ['bank_statement_lines', bankStatementLines, {}],
  ['bank_allocations', bankAllocations, {}],
  ['conversations', conversations, { public_id: FRESH_PUBLIC_ID }],
  ['conversation_messages', conversationMessages, { public_id: FRESH_PUBLIC_ID }],
  ['message_attachments', messageAttachments, { public_id: FRESH_PUBLIC_ID }],
];

beforeAll(async () => {
  await seedPoliciesWorld();
}, SETUP_TIMEOUT_MS);

const newestId = async (table: Table) =>
  (await db().all<{ id: number | null }>(sql`SELECT max(id) AS id FROM ${table}`))[0]?.id ?? null;

/** A service agreement for the agreement's documents and rows, if the world holds none. */
const agreement = sql`INSERT INTO service_agreements (public_id, client_id, company_id, name, start_date)
  SELECT ${FRESH_PUBLIC_ID}, id, company_id, 'Agreement', '2026-01-01' FROM clients
  WHERE NOT EXISTS (SELECT 1 FROM service_agreements) ORDER BY id LIMIT 1`;

/** A conversation with the first client, if the world holds none. */
const conversation = (now: number) => sql`INSERT INTO conversations
    (public_id, company_id, client_id, subject, started_by, started_by_side, last_message_at)
  SELECT ${FRESH_PUBLIC_ID}, company_id, id, 'Question', (SELECT min(id) FROM users), 'company', ${now} FROM clients
  WHERE NOT EXISTS (SELECT 1 FROM conversations) ORDER BY id LIMIT 1`;

/** A message in the newest conversation, if the world holds none. */
const message = (now: number) => sql`INSERT INTO conversation_messages
    (public_id, conversation_id, author_id, author_side, body, created_at)
  SELECT ${FRESH_PUBLIC_ID}, id, (SELECT min(id) FROM users), 'company', 'Hello', ${now} FROM conversations
  WHERE NOT EXISTS (SELECT 1 FROM conversation_messages) ORDER BY id DESC LIMIT 1`;

/**
 * One row of each table the demo world leaves empty, made from its parents' rows (its own columns are
 * not what these tests are about).
 */
const MAKE: Record<string, (now: number) => SQL[]> = {
  conversations: (now) => [conversation(now)],
  conversation_messages: (now) => [conversation(now), message(now)],
  message_attachments: (now) => [
    conversation(now),
    message(now),
    sql`INSERT INTO message_attachments (public_id, conversation_id, message_id, file_key, file_name, content_type, size, created_at)
      SELECT ${FRESH_PUBLIC_ID}, conversation_id, id, 'messages/a.pdf', 'a.pdf', 'application/pdf', 10, ${now}
      FROM conversation_messages ORDER BY id DESC LIMIT 1`,
  ],
  sessions: (now) => [
    sql`INSERT INTO sessions (token_hash, user_id, kind, stage, created_at, last_seen_at, expires_at)
      SELECT ${FRESH_PUBLIC_ID}, max(id), 'web', 'active', ${now}, ${now}, ${now + 3_600_000} FROM users`,
  ],
  insurers: () => [
    sql`INSERT INTO insurers (public_id, company_id, name) SELECT ${FRESH_PUBLIC_ID}, min(id), 'Insurer' FROM companies`,
  ],
  product_prices: () => [
    sql`INSERT INTO product_prices (product_id, min_days, max_days, net_minor, sale_minor)
      SELECT max(id), 1, 30, 1000, 1200 FROM products`,
  ],
  product_documents: () => [
    sql`INSERT INTO product_documents (product_id, type, title, file_key, file_name, content_type, size)
      SELECT max(id), 'wording', 'Wording', 'products/w.pdf', 'w.pdf', 'application/pdf', 10 FROM products`,
  ],
  product_groups: () => [
    sql`INSERT INTO product_groups (public_id, company_id, name) SELECT ${FRESH_PUBLIC_ID}, min(id), 'Group' FROM companies`,
  ],
  notes: () => [
    sql`INSERT INTO notes (owner_type, owner_id, title, note, date, source, type)
      SELECT 'client', max(id), 'Call', 'Called the school.', '2026-11-02', 'call', 'admin_note' FROM clients`,
  ],
  service_agreement_documents: () => [
    agreement,
    sql`INSERT INTO service_agreement_documents (service_agreement_id, position, file_key, file_name, content_type, size)
      SELECT max(id), 1, 'agreements/a.pdf', 'a.pdf', 'application/pdf', 10 FROM service_agreements`,
  ],
  service_agreement_rows: () => [
    agreement,
    sql`INSERT INTO service_agreement_rows (service_agreement_id, product_id, campus_id, net_minor, sale_minor, min_days,
        start_date)
      SELECT max(id), (SELECT max(id) FROM products), (SELECT max(id) FROM campuses), 1000, 1200, 1, '2026-01-01'
      FROM service_agreements`,
  ],
  enrollments: () => [
    sql`INSERT INTO enrollments (public_id, batch_id, position) SELECT ${FRESH_PUBLIC_ID}, max(id), 1 FROM policy_batches`,
  ],
  cancellation_rows: (now) => [
    sql`INSERT INTO cancellation_imports (public_id, company_id, file_name, file_key, file_size, file_type, headers,
        sample, created_by, created_at, updated_at)
      SELECT ${FRESH_PUBLIC_ID}, company_id, 'sheet.csv', 'imports/sheet.csv', 10, 'csv', '[]', '[]', user_id, ${now},
        ${now}
      FROM user_companies LIMIT 1`,
    sql`INSERT INTO cancellation_rows (import_id, position, policy_number) SELECT max(id), 1, 'P-1' FROM cancellation_imports`,
  ],
  bank_statement_lines: (now) => [
    sql`INSERT INTO bank_statements (public_id, company_id, file_name, file_key, file_size, file_sha256, format,
        created_by, created_at, updated_at)
      SELECT ${FRESH_PUBLIC_ID}, company_id, 'statement.xml', 'statements/s.xml', 10, ${FRESH_PUBLIC_ID}, 'camt053',
        user_id, ${now}, ${now}
      FROM user_companies LIMIT 1`,
    sql`INSERT INTO bank_statement_lines (statement_id, company_id, line_no, booking_date, amount_minor, currency,
        line_key, created_at, updated_at)
      SELECT id, company_id, 1, '2026-11-02', 1000, 'GBP', 'k1', ${now}, ${now} FROM bank_statements
      ORDER BY id DESC LIMIT 1`,
  ],
  bank_allocations: (now) => [
    ...MAKE.bank_statement_lines(now),
    sql`INSERT INTO invoices (public_id, number, company_id, client_id, payment_method, currency, date, due_at,
        insurance_cost_minor, tax_minor, total_minor, payment_reference)
      SELECT ${FRESH_PUBLIC_ID}, 'INV-' || ${FRESH_PUBLIC_ID}, company_id, id, 'bank_transfer', 'GBP', '2026-11-01',
        '2026-12-01', 1000, 0, 1000, 'REF-' || ${FRESH_PUBLIC_ID}
      FROM clients ORDER BY id LIMIT 1`,
    sql`INSERT INTO bank_allocations (line_id, invoice_id, amount_minor, source, created_at, updated_at)
      SELECT (SELECT max(id) FROM bank_statement_lines), max(id), 1000, 'manual', ${now}, ${now} FROM invoices`,
  ],
};

/** A row to copy: the demo world's newest, or one made from its parents' rows when it holds none. */
async function templateOf(name: string, table: Table): Promise<number> {
  const existing = await newestId(table);
  if (existing) return existing;
  for (const statement of MAKE[name]?.(Date.now()) ?? []) await db().run(statement);
  const made = await newestId(table);
  if (!made) throw new Error(`No ${name} row to copy`);
  return made;
}

describe('ids of deleted rows', () => {
  it('every table that never reuses an id is declared with AUTOINCREMENT, and no other', async () => {
    const declared = await db().all<{ name: string }>(
      sql`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'
        AND name <> 'd1_migrations' ORDER BY name`,
    );
    expect(declared.map((t) => t.name)).toEqual(TABLES.map(([name]) => name).sort());
  });

  it.each(TABLES)('%s: the newest row deleted, the next row gets a new id', async (name, table, unique) => {
    const template = await templateOf(name, table);
    const [deleted] = await copyRow(table, template, 1, unique);
    expect(deleted).toBe(await newestId(table));
    await db().delete(table).where(eq(table.id, deleted));
    const [next] = await copyRow(table, template, 1, unique);
    expect(next).toBeGreaterThan(deleted);
    expect(await db().all(sql`SELECT id FROM ${table} WHERE id = ${deleted}`)).toEqual([]);
  });
});
