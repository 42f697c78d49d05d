/**
 * Tenant isolation of bank reconciliation: every service function that takes a statement id answers
 * "not found" to a company user of another company and to a school user (whose role holds every billing
 * permission, so only the scope stops them), never the statement and never "forbidden". The owner's calls
 * with the same ids succeed, so the ids are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { camt053Xml } from '../../drizzle/seed/reconciliation';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound } from '../../workers/domain/errors';
import {
  addAllocation,
  confirmStatement,
  findAllocatableInvoices,
  ignoreLine,
  removeAllocation,
} from '../../workers/domain/reconciliation/review';
import { getStatement, statementLines } from '../../workers/domain/reconciliation/service';
import { listStatements } from '../../workers/domain/reconciliation/statement-list';
import { statementListQuerySchema } from '../../workers/domain/reconciliation/schema';
import { confirmStatementMapping, uploadStatement } from '../../workers/domain/reconciliation/upload';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { day, db, insertInvoice } from '../support/billing';

/** The first page of every statement the user may see. */
const ALL_STATEMENTS = statementListQuerySchema.parse({});

const BILLING = ['read_billing', 'create_billing', 'update_billing', 'read_invoice', 'update_invoice'];

let w: ContractsWorld;
let owner: ActorCtx;
let statementId: string;
let allocationId: number;
let invoiceNumber: string;

beforeAll(async () => {
  w = await seedContractsWorld();
  const d = db();
  const [role] = await d
    .insert(roles)
    .values({ name: 'School billing tester', slug: 'school_billing_tester', family: 'school' })
    .returning();
  const perms = await d.select().from(permissions).where(inArray(permissions.name, BILLING));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
  await buildUser(d, {
    email: 'oakwood.billing@recon.test',
    first_name: 'Bill',
    last_name: 'School',
    roles: ['school_billing_tester'],
    clientId: w.oakwood.id,
    canAccessAllCampuses: true,
  });
  owner = await actorCtx(DEMO_ACCOUNTS.finance);
  const inv = await insertInvoice({ company_id: w.albion.id, client_id: w.oakwood.id, total_minor: 6_061 });
  invoiceNumber = inv.number;
  const xml = camt053Xml([
    {
      amount_minor: 7_007,
      currency: 'GBP',
      booking_date: day(-1),
      bank_reference: 'ISO-D1',
      text: 'no number',
    },
  ]);
  const { statement } = await uploadStatement(owner, new File([xml], 'iso.xml'));
  statementId = statement.id;
  const line = await addAllocation(owner, statementId, 1, { invoice: inv.number, amount_minor: 100 });
  allocationId = line.allocations[0].id;
}, SETUP_TIMEOUT_MS);

const calls: [string, (ctx: ActorCtx) => Promise<unknown>][] = [
  ['getStatement', (c) => getStatement(c, statementId)],
  ['statementLines', (c) => statementLines(c, statementId, { page: 1 })],
  ['findAllocatableInvoices', (c) => findAllocatableInvoices(c, statementId, 'INV')],
  [
    'confirmStatementMapping',
    (c) => confirmStatementMapping(c, statementId, { columns: [], date_order: 'dmy' }),
  ],
  ['addAllocation', (c) => addAllocation(c, statementId, 1, { invoice: invoiceNumber, amount_minor: 1 })],
  ['removeAllocation', (c) => removeAllocation(c, statementId, allocationId)],
  ['ignoreLine', (c) => ignoreLine(c, statementId, 1, true)],
  ['confirmStatement', (c) => confirmStatement(c, statementId)],
];

describe('bank statements of another tenant are not found', () => {
  for (const who of [STRANGER.companyUser, 'oakwood.billing@recon.test']) {
    for (const [name, run] of calls) {
      it(`${name} as ${who}`, async () => {
        const ctx = await actorCtx(who);
        await expect(run(ctx)).rejects.toBeInstanceOf(NotFound);
      });
    }
    it(`lists nothing to ${who}`, async () => {
      expect((await listStatements(await actorCtx(who), ALL_STATEMENTS)).items).toEqual([]);
    });
  }

  it('the owner reaches the same ids', async () => {
    expect((await getStatement(owner, statementId)).id).toBe(statementId);
    expect((await statementLines(owner, statementId, { page: 1 })).items).toHaveLength(1);
    expect((await removeAllocation(owner, statementId, allocationId)).allocations).toEqual([]);
    expect((await confirmStatement(owner, statementId)).status).toBe('confirmed');
  });
});
