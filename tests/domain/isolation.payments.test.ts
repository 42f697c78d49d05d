/**
 * Tenant isolation of the payment calls that take an invoice or transaction id: another company's
 * administrator (whose role holds every invoice permission) and another client's school user get "not
 * found" (never "forbidden", never the data) for our invoice, and change nothing; finance of the owner
 * succeeds with the same ids, so the ids are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound } from '../../workers/domain/errors';
import {
  editTransaction,
  receiptResponse,
  recordTransaction,
  transactionForEdit,
  transactionFormView,
} from '../../workers/domain/payments/record';
import { approveBankTransfer, invoiceTransactions } from '../../workers/domain/payments/service';
import { remindersOfInvoice, sendOverdueEmailFromPage } from '../../workers/domain/reminders/overdue';
import { editTransactionSchema, recordTransactionSchema } from '../../workers/domain/payments/schema';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { day, insertInvoice, reloadInvoice, type InvoiceRow } from '../support/billing';
import { pdfBytes } from '../support/files';

let w: ContractsWorld;
let invoice: InvoiceRow;
let refundable: InvoiceRow;
let txId: string;
let theirs: InvoiceRow;
let theirTx: string;

beforeAll(async () => {
  w = await seedContractsWorld();
  invoice = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: 10_000,
  });
  const finance = await actorCtx(DEMO_ACCOUNTS.finance);
  const r = await recordTransaction(
    finance,
    invoice.public_id,
    'payment',
    recordTransactionSchema.parse({ amount: '10', paid_on: day(0), method: 'cash' }),
    new File([pdfBytes() as BlobPart], 'r.pdf'),
  );
  txId = r.transaction.id;
  // An invoice with credit to give back: 10.00 paid, then 95.00 of its 100.00 credited.
  refundable = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: 10_000,
  });
  await recordTransaction(
    finance,
    refundable.public_id,
    'payment',
    recordTransactionSchema.parse({ amount: '10', paid_on: day(0), method: 'cash' }),
  );
  await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: 9_500,
    type: 'credit_note',
    credit_for_id: refundable.id,
  });
  // Another company's invoice with a receipt, for our school user.
  theirs = await insertInvoice({
    company_id: w.caledonia.id,
    client_id: w.highland.id,
    campus_id: w.highlandCampus.id,
    total_minor: 5_000,
  });
  const strangerCtx = await actorCtx(STRANGER.companyUser);
  const t = await recordTransaction(
    strangerCtx,
    theirs.public_id,
    'payment',
    recordTransactionSchema.parse({ amount: '10', paid_on: day(0), method: 'cash' }),
    new File([pdfBytes() as BlobPart], 'theirs.pdf'),
  );
  theirTx = t.transaction.id;
}, SETUP_TIMEOUT_MS);

const pay = () => recordTransactionSchema.parse({ amount: '1', paid_on: day(0), method: 'cash' });
const edit = () =>
  editTransactionSchema.parse({ transaction_id: txId, amount: '2', paid_on: day(0), method: 'cash' });

/** Every id-taking call of the area; `write` calls need finance's permission. */
const CALLS: Record<string, { write: boolean; run: (ctx: ActorCtx) => Promise<unknown> }> = {
  recordTransaction: {
    write: true,
    run: (ctx) => recordTransaction(ctx, invoice.public_id, 'payment', pay()),
  },
  recordRefund: { write: true, run: (ctx) => recordTransaction(ctx, refundable.public_id, 'refund', pay()) },
  editTransaction: { write: true, run: (ctx) => editTransaction(ctx, invoice.public_id, edit()) },
  transactionFormView: { write: true, run: (ctx) => transactionFormView(ctx, invoice.public_id, 'payment') },
  transactionForEdit: { write: true, run: (ctx) => transactionForEdit(ctx, invoice.public_id, txId) },
  approveBankTransfer: {
    write: true,
    run: (ctx) => approveBankTransfer(ctx, invoice.public_id, { date: day(0) }),
  },
  receiptResponse: { write: false, run: (ctx) => receiptResponse(ctx, invoice.public_id, txId) },
  invoiceTransactions: { write: false, run: (ctx) => invoiceTransactions(ctx, invoice.public_id) },
  remindersOfInvoice: { write: false, run: (ctx) => remindersOfInvoice(ctx, invoice.public_id) },
  sendOverdueEmailFromPage: { write: true, run: (ctx) => sendOverdueEmailFromPage(ctx, invoice.public_id) },
};

const MATRIX: [string, string, boolean][] = [["another company's administrator", STRANGER.companyUser, true]];

describe.each(MATRIX)('%s', (_label, email, writes) => {
  for (const [name, call] of Object.entries(CALLS)) {
    if (call.write && !writes) continue;
    it(`${name} answers not found and changes nothing`, async () => {
      const before = await reloadInvoice(invoice.id);
      await expect(call.run(await actorCtx(email))).rejects.toBeInstanceOf(NotFound);
      expect(await reloadInvoice(invoice.id)).toEqual(before);
    });
  }
});

describe("our school user, for another company's invoice", () => {
  it('reads neither its transactions nor its receipt', async () => {
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    await expect(invoiceTransactions(school, theirs.public_id)).rejects.toBeInstanceOf(NotFound);
    await expect(receiptResponse(school, theirs.public_id, theirTx)).rejects.toBeInstanceOf(NotFound);
    // Nor through our own invoice's id.
    await expect(receiptResponse(school, invoice.public_id, theirTx)).rejects.toBeInstanceOf(NotFound);
    await expect(
      (await receiptResponse(await actorCtx(STRANGER.companyUser), theirs.public_id, theirTx)).status,
    ).toBe(200);
  });
});

describe('the owner', () => {
  it('reaches every call with the same ids', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    for (const name of [
      'remindersOfInvoice',
      'transactionFormView',
      'transactionForEdit',
      'receiptResponse',
      'invoiceTransactions',
      'recordTransaction',
      'editTransaction',
      'recordRefund',
      'approveBankTransfer',
    ])
      await expect(CALLS[name].run(finance), name).resolves.toBeTruthy();
  });
});
