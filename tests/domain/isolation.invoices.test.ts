/**
 * Tenant isolation of the invoice calls: every id-taking call answers "not found" (never
 * "forbidden", never the data) to a campus employee for another campus's invoice, to a school user and an
 * account manager for another company's invoice, and to another company's administrator for
 * ours; the write calls (void, credit note, generate invoices) to another company's administrator, who
 * holds them. Statements, receivables and the generate-invoices preview by client and campus too. The
 * owner's calls with the same ids succeed, so the ids are real. An invoice named by its number
 * (the address of a reference that holds only the number) is found in the same scope. An invoices ZIP job (above 200 invoices)
 * is its starter's only: its status and its ZIP are not found for anyone else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActorCtx } from '../../workers/domain/context';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import { invoiceDetail } from '../../workers/domain/invoices/detail';
import { issueCreditNote, voidInvoice } from '../../workers/domain/invoices/corrections';
import { downloadInvoices, invoiceFile } from '../../workers/domain/invoices/files';
import { invoiceByNumber } from '../../workers/domain/invoices/queries';
import { invoiceListQuerySchema } from '../../workers/domain/invoices/schema';
import { campusInvoices, clientInvoices, requireInvoiceOf } from '../../workers/domain/invoices/service';
import {
  downloadInvoicesZip,
  downloadOrQueueInvoices,
  invoicesZipStatus,
} from '../../workers/domain/invoices/zip-job';
import type { Env } from '../../workers/env';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { db, insertInvoice, type InvoiceRow } from '../support/billing';
import { invoiceItems } from '../../drizzle/schema';
import { campusStatement, clientReceivables, clientStatement } from '../../workers/domain/billing/service';
import { statementQuerySchema } from '../../workers/domain/billing/schema';
import { generateInvoices, previewInvoices } from '../../workers/domain/invoices/periodic';

let w: ContractsWorld;
const inv: Record<'south' | 'north' | 'stranger', InvoiceRow> = {} as never;
const owner: Record<keyof typeof inv, { client: string; campus: string }> = {} as never;

beforeAll(async () => {
  w = await seedContractsWorld();
  inv.south = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.south.id,
    total_minor: 1000,
  });
  inv.north = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: 1000,
  });
  inv.stranger = await insertInvoice({
    company_id: w.caledonia.id,
    client_id: w.highland.id,
    campus_id: w.highlandCampus.id,
    total_minor: 1000,
  });
  await db()
    .insert(invoiceItems)
    .values({ invoice_id: inv.north.id, description: 'Cover', unit_minor: 1000, total_minor: 1000 });
  owner.south = { client: w.oakwood.public_id, campus: w.south.public_id };
  owner.north = { client: w.oakwood.public_id, campus: w.north.public_id };
  owner.stranger = { client: w.highland.public_id, campus: w.highlandCampus.public_id };
}, SETUP_TIMEOUT_MS);

const q = invoiceListQuerySchema.parse({});
type Key = keyof typeof inv;

/** Every id-taking read of the area, for one invoice (and its client and campus). */
const READS: Record<string, (ctx: ActorCtx, k: Key) => Promise<unknown>> = {
  invoiceDetail: (ctx, k) => invoiceDetail(ctx, inv[k].public_id),
  invoicePdf: (ctx, k) => invoiceFile(ctx, inv[k].public_id, 'pdf'),
  invoiceExcel: (ctx, k) => invoiceFile(ctx, inv[k].public_id, 'excel'),
  downloadInvoices: (ctx, k) => downloadInvoices(ctx, { ids: [inv[k].public_id], format: 'pdf' }),
  clientInvoice: (ctx, k) => requireInvoiceOf(ctx, { client: owner[k].client }, inv[k].public_id),
  campusInvoice: (ctx, k) => requireInvoiceOf(ctx, { campus: owner[k].campus }, inv[k].public_id),
  invoiceByNumber: (ctx, k) => invoiceByNumber(ctx, inv[k].number),
};
const period = statementQuerySchema.parse({});
const days = { from: '2026-01-01', to: '2026-01-31' };
const LISTS: Record<string, (ctx: ActorCtx, k: Key) => Promise<unknown>> = {
  clientInvoices: (ctx, k) => clientInvoices(ctx, owner[k].client, q),
  campusInvoices: (ctx, k) => campusInvoices(ctx, owner[k].campus, q),
  clientStatement: (ctx, k) => clientStatement(ctx, owner[k].client, period),
  clientCampusStatement: (ctx, k) => clientStatement(ctx, owner[k].client, period, owner[k].campus),
  campusStatement: (ctx, k) => campusStatement(ctx, owner[k].campus, period),
  clientReceivables: (ctx, k) => clientReceivables(ctx, owner[k].client),
};
/** Calls that need create_invoice or update_invoice: tried by another company's administrator. */
const WRITES: Record<string, (ctx: ActorCtx, k: Key) => Promise<unknown>> = {
  previewClientInvoices: (ctx, k) => previewInvoices(ctx, { client: owner[k].client }, days),
  previewCampusInvoices: (ctx, k) => previewInvoices(ctx, { campus: owner[k].campus }, days),
  voidInvoice: (ctx, k) => voidInvoice(ctx, inv[k].public_id, { reason: 'Intruder' }),
  issueCreditNote: (ctx, k) => issueCreditNote(ctx, inv[k].public_id, { reason: 'Intruder', items: [] }),
  generateClientInvoices: (ctx, k) => generateInvoices(ctx, { client: owner[k].client }, days),
  generateCampusInvoices: (ctx, k) => generateInvoices(ctx, { campus: owner[k].campus }, days),
};

const MATRIX: [string, string, Key][] = [
  ['a campus employee (other campus)', DEMO_ACCOUNTS.campusEmployee, 'south'],
  ['a school user (another company)', DEMO_ACCOUNTS.schoolAdmin, 'stranger'],
  ['an account manager (another company)', DEMO_ACCOUNTS.accountManager, 'stranger'],
  ["another company's administrator", STRANGER.companyUser, 'north'],
];

describe('the invoice calls answer not found outside the tenant', () => {
  for (const [label, email, key] of MATRIX)
    for (const [name, run] of Object.entries(READS))
      it(`${name}: ${label}`, async () => {
        await expect(run(await actorCtx(email), key)).rejects.toBeInstanceOf(NotFound);
      });

  // Lists by client or campus: another company's client or campus is not found.
  for (const [label, email, key] of MATRIX.filter(([, , k]) => k !== 'south'))
    for (const [name, run] of Object.entries(LISTS))
      it(`${name}: ${label}`, async () => {
        await expect(run(await actorCtx(email), key)).rejects.toBeInstanceOf(NotFound);
      });

  for (const [name, run] of Object.entries(WRITES))
    it(`${name}: another company's administrator`, async () => {
      await expect(run(await actorCtx(STRANGER.companyUser), 'north')).rejects.toBeInstanceOf(NotFound);
    });

  it("the owner's calls with the same ids succeed", async () => {
    const own = await actorCtx(DEMO_ACCOUNTS.finance);
    for (const [name, run] of Object.entries({ ...READS, ...LISTS }))
      await expect(run(own, 'north'), name).resolves.toBeDefined();
    // A number leads to the invoice's page under its client.
    await expect(invoiceByNumber(own, inv.north.number)).resolves.toEqual({
      id: inv.north.public_id,
      client_id: owner.north.client,
    });
    await expect(invoiceByNumber(own, 'INV-NO-SUCH')).rejects.toBeInstanceOf(NotFound);
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(invoiceDetail(stranger, inv.stranger.public_id)).resolves.toMatchObject({
      id: inv.stranger.public_id,
    });
    await expect(WRITES.issueCreditNote(own, 'north')).resolves.toMatchObject({
      credit_for: inv.north.public_id,
    });
    await expect(WRITES.voidInvoice(own, 'south')).resolves.toMatchObject({ status: 'void' });
  });
});

describe("a user who may read clients' billing but not invoices", () => {
  /** The finance user's tenant with only read_client and read_client_billing. */
  const billingReader = async (): Promise<ActorCtx> => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    return {
      ...finance,
      actor: { ...finance.actor, permissions: new Set(['read_client', 'read_client_billing']) },
    };
  };

  it("opens a client's invoices and receivables: the client's invoices, not another company's", async () => {
    const ctx = await billingReader();
    const list = await clientInvoices(ctx, owner.north.client, q);
    expect(list.items.map((i) => i.id)).toEqual(
      expect.arrayContaining([inv.north.public_id, inv.south.public_id]),
    );
    await expect(invoiceDetail(ctx, inv.north.public_id)).resolves.toMatchObject({
      id: inv.north.public_id,
    });
    await expect(clientReceivables(ctx, owner.north.client)).resolves.toBeDefined();
    await expect(clientInvoices(ctx, owner.stranger.client, q)).rejects.toBeInstanceOf(NotFound);
    await expect(invoiceDetail(ctx, inv.stranger.public_id)).rejects.toBeInstanceOf(NotFound);
  });

  it('may not change an invoice', async () => {
    const ctx = await billingReader();
    await expect(WRITES.voidInvoice(ctx, 'north')).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('an invoices ZIP job is not found outside its starter', () => {
  const quietQueue = { send: async () => {}, sendBatch: async () => {} } as never;
  const as = (email: string) => actorCtx(email, { env: { ...testEnv(), JOBS: quietQueue } as Env });
  /** More than 200 ids, so the download is a job: the invoice named, then ids of nothing. */
  const overLimit = (id: string) => [id, ...Array.from({ length: 201 }, (_, i) => `nothing-${i}`)];
  const JOB_CALLS: Record<string, (ctx: ActorCtx, jobId: string) => Promise<unknown>> = {
    invoicesZipStatus,
    downloadInvoicesZip,
  };
  let jobId: string;

  beforeAll(async () => {
    const started = await downloadOrQueueInvoices(await as(DEMO_ACCOUNTS.finance), {
      ids: overLimit(inv.north.public_id),
      format: 'pdf',
    });
    if (!started.job) throw new Error('Above 200 ids the download is a job');
    jobId = started.job.id;
  });

  for (const [label, email, key] of MATRIX)
    it(`downloadOrQueueInvoices (a job): ${label}`, async () => {
      await expect(
        downloadOrQueueInvoices(await as(email), { ids: overLimit(inv[key].public_id), format: 'pdf' }),
      ).rejects.toBeInstanceOf(NotFound);
    });

  for (const [label, email] of [
    ...MATRIX.map(([l, e]) => [l, e] as const),
    ['another user of the same company', DEMO_ACCOUNTS.admin] as const,
  ])
    for (const [name, run] of Object.entries(JOB_CALLS))
      it(`${name}: ${label}`, async () => {
        await expect(run(await as(email), jobId)).rejects.toBeInstanceOf(NotFound);
      });

  it('the starter follows it', async () => {
    await expect(invoicesZipStatus(await as(DEMO_ACCOUNTS.finance), jobId)).resolves.toMatchObject({
      id: jobId,
      total: 1,
    });
  });
});
