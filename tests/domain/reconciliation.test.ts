/**
 * Bank reconciliation (workers/domain/reconciliation): reading CSV statements under a column matching and
 * camt.053 files, each matching rule (payment reference, invoice number, amount; several invoices in one
 * transfer; another currency; more than the balances; nothing), allocation by hand within the credit and
 * the balance, ignoring a credit, and confirming: one payment per allocation, invoices settled, logged,
 * and recorded once however often it is confirmed or the statement uploaded again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, bankStatementLines, transactions } from '../../drizzle/schema';
import {
  camt053Xml,
  seedReconciliation,
  statementCsv,
  type CamtEntry,
} from '../../drizzle/seed/reconciliation';
import { INVOICE_NUMBER_DIGITS } from '../../workers/domain/checkout/service';
import { Conflict, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { matchLine, indexCandidates, tokensOf, PROBLEMS } from '../../workers/domain/reconciliation/match';
import {
  lineKeys,
  parseAmount,
  readCamt053,
  readCsvStatement,
  StatementError,
  suggestCsvMapping,
} from '../../workers/domain/reconciliation/parse';
import {
  addAllocation,
  confirmStatement,
  findAllocatableInvoices,
  ignoreLine,
  removeAllocation,
} from '../../workers/domain/reconciliation/review';
import { getStatement, statementLines, type LineView } from '../../workers/domain/reconciliation/service';
import { listStatements } from '../../workers/domain/reconciliation/statement-list';
import { statementListQuerySchema } from '../../workers/domain/reconciliation/schema';
import { confirmStatementMapping, uploadStatement } from '../../workers/domain/reconciliation/upload';
import { startBankTransfer } from '../../workers/domain/payments/service';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import {
  day,
  db,
  insertInvoice,
  insertTransaction,
  reloadInvoice,
  type InvoiceRow,
} from '../support/billing';

/** The first page of every statement the user may see. */
const ALL_STATEMENTS = statementListQuerySchema.parse({});

let w: ContractsWorld;
let finance: ActorCtx;

beforeAll(async () => {
  w = await seedContractsWorld();
  finance = await actorCtx(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

const invoice = (total_minor: number, over: { currency?: string; due_at?: string } = {}) =>
  insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor,
    ...over,
  });

let fileNo = 0;
const file = (content: string, name?: string) => new File([content], name ?? `statement-${++fileNo}.xml`);
const upload = async (entries: CamtEntry[], ctx = finance) =>
  uploadStatement(ctx, file(camt053Xml(entries, { id: `T${++fileNo}` })));

let refNo = 0;
const credit = (amount_minor: number, text: string, over: Partial<CamtEntry> = {}): CamtEntry => ({
  amount_minor,
  currency: 'GBP',
  booking_date: day(-1),
  bank_reference: `BANK-${++refNo}-${Date.now()}`,
  text,
  ...over,
});

async function allLines(id: string): Promise<LineView[]> {
  return (await statementLines(finance, id, { page: 1 })).items;
}

async function expectError<T extends Error>(p: Promise<unknown>, type: new (...a: never[]) => T): Promise<T> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(type);
  return e as T;
}

const messagesOf = (e: ValidationFailed) => e.errors.map((x) => x.message);

describe('the demo statement', () => {
  it('is built from the unpaid invoices and waits in review with each kind of match', async () => {
    for (const total of [15_120, 30_240, 45_360, 60_480, 75_601]) await invoice(total, { due_at: day(-40) });
    await seedReconciliation(db());
    const { items } = await listStatements(finance, ALL_STATEMENTS);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ format: 'camt053', status: 'review', line_count: 6 });
    const lines = await allLines(items[0].id);
    expect(lines.map((l) => [l.status, l.allocations.map((a) => a.source).join()])).toEqual([
      ['matched', 'reference'],
      ['matched', 'invoice_number'],
      ['matched', 'invoice_number,invoice_number'],
      ['matched', 'amount'],
      ['unmatched', ''],
      ['unmatched', ''],
    ]);
    await seedReconciliation(db());
    expect((await listStatements(finance, ALL_STATEMENTS)).items).toHaveLength(1);
    await confirmStatement(finance, items[0].id);
  });
});

describe('reading statements (pure)', () => {
  it('reads amounts as banks write them, in minor units', () => {
    expect(parseAmount('1,234.56')).toBe(123456);
    expect(parseAmount('1.234,56')).toBe(123456);
    expect(parseAmount('1 234,5')).toBe(123450);
    expect(parseAmount('£12')).toBe(1200);
    expect(parseAmount('-45.00')).toBe(-4500);
    expect(parseAmount('45.00-')).toBe(-4500);
    expect(parseAmount('(10.00)')).toBe(-1000);
    expect(parseAmount('1,234')).toBe(123400);
    expect(parseAmount('12.345')).toBe(1234500);
    expect(parseAmount('1000', 'JPY')).toBe(1000);
    expect(parseAmount('ten')).toBeNull();
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('1.999')).toBe(199900);
    expect(parseAmount('1.50')).toBe(150);
  });

  it('reads a CSV under its matched columns: credits only, dates in the order chosen, a currency for the file', () => {
    const rows = [
      ['03/04/2026', 'Payment INV0000001', '250.00', '', 'Oakwood', 'TX1'],
      ['04/04/2026', 'Card fees', '', '12.00', '', 'TX2'],
      ['', '', '', '', '', ''],
      ['05/04/2026', 'Transfer', '1.234,50', '', 'Mary', 'TX3'],
    ];
    const mapping = suggestCsvMapping([
      'Date',
      'Description',
      'Paid in',
      'Paid out',
      'Payer',
      'Transaction ID',
    ]);
    expect(mapping).toEqual({
      '0': 'booking_date',
      '1': 'text',
      '2': 'credit',
      '3': 'debit',
      '4': 'counterparty',
      '5': 'bank_reference',
    });
    const parsed = readCsvStatement(rows, mapping, {
      date_order: 'mdy',
      currency: 'gbp'.toUpperCase(),
      today: '2026-11-25',
    });
    expect(parsed.lines).toEqual([
      {
        line_no: 2,
        booking_date: '2026-03-04',
        amount_minor: 25000,
        currency: 'GBP',
        text: 'Payment INV0000001',
        reference: null,
        counterparty: 'Oakwood',
        bank_reference: 'TX1',
      },
      expect.objectContaining({ line_no: 5, booking_date: '2026-05-04', amount_minor: 123450 }),
    ]);
  });

  it('reads a signed amount column and skips debits', () => {
    const mapping = { '0': 'booking_date', '1': 'amount', '2': 'currency', '3': 'text' } as const;
    const parsed = readCsvStatement(
      [
        ['2026-04-01', '100.00', 'EUR', 'in'],
        ['2026-04-02', '-30.00', 'EUR', 'out'],
      ],
      mapping,
      { date_order: 'dmy', today: '2026-11-25' },
    );
    expect(parsed.lines.map((l) => [l.amount_minor, l.currency])).toEqual([[10000, 'EUR']]);
    expect(parsed.currency).toBe('EUR');
  });

  it('names the row and what is wrong, and refuses a mapping without a date, an amount or a currency', () => {
    const mapping = { '0': 'booking_date', '1': 'amount', '2': 'text' } as const;
    const bad = () =>
      readCsvStatement(
        [
          ['2026-04-01', '100.00', 'ok'],
          ['31/31/2026', '10.00', 'bad date'],
          ['2026-04-03', 'ten', 'bad amount'],
        ],
        mapping,
        { date_order: 'dmy', currency: 'GBP', today: '2026-11-25' },
      );
    expect(bad).toThrow(StatementError);
    try {
      bad();
    } catch (e) {
      expect((e as StatementError).messages).toEqual([
        'reconciliation.errors.row_date|{"row":3,"value":"31/31/2026"}',
        'reconciliation.errors.row_amount|{"row":4,"value":"ten"}',
      ]);
    }
    try {
      readCsvStatement([], { '0': 'text', '1': 'text' }, { date_order: 'dmy', today: '2026-11-25' });
      expect.unreachable();
    } catch (e) {
      expect((e as StatementError).messages).toEqual([
        'reconciliation.errors.matched_twice|{"field":"text"}',
        'reconciliation.errors.missing_date',
        'reconciliation.errors.missing_amount',
        'reconciliation.errors.missing_currency',
      ]);
    }
  });

  it('reads camt.053: credits booked, amount and currency, booking date, references, remittance and payer', () => {
    const xml = camt053Xml([
      {
        amount_minor: 120050,
        currency: 'GBP',
        booking_date: '2026-10-02',
        bank_reference: 'ACC-1',
        text: 'Fees INV0000042',
        structured: 'INV0000042-ABCD',
        debtor: 'Oakwood International School',
      },
      {
        amount_minor: 999,
        currency: 'GBP',
        booking_date: '2026-10-02',
        direction: 'DBIT',
        bank_reference: 'ACC-2',
      },
      {
        amount_minor: 3000,
        currency: 'GBP',
        booking_date: '2026-10-03',
        bank_reference: 'ACC-3',
        transactions: [
          { amount_minor: 1000, text: 'INV0000001', debtor: 'A' },
          { amount_minor: 2000, text: 'INV0000002', debtor: 'B' },
        ],
      },
    ]);
    const parsed = readCamt053(xml);
    expect(parsed.account).toBe('GB33BUKB20201555555555');
    expect(parsed.currency).toBe('GBP');
    expect(parsed.lines).toEqual([
      {
        line_no: 1,
        booking_date: '2026-10-02',
        amount_minor: 120050,
        currency: 'GBP',
        text: 'Fees INV0000042',
        reference: 'INV0000042-ABCD',
        counterparty: 'Oakwood International School',
        bank_reference: 'ACC-1',
      },
      expect.objectContaining({
        line_no: 2,
        amount_minor: 1000,
        counterparty: 'A',
        bank_reference: 'ACC-3/1',
      }),
      expect.objectContaining({
        line_no: 3,
        amount_minor: 2000,
        counterparty: 'B',
        bank_reference: 'ACC-3/2',
      }),
    ]);
  });

  it('refuses XML that is not camt.053 and XML that does not parse, saying so', () => {
    expect(() => readCamt053('<?xml version="1.0"?><Document><Other/></Document>')).toThrow(
      new StatementError(['reconciliation.errors.not_camt053']),
    );
    try {
      readCamt053('<Document><BkToCstmrStmt><Stmt></BkToCstmrStmt>');
      expect.unreachable();
    } catch (e) {
      expect((e as StatementError).messages[0]).toMatch(/^reconciliation\.errors\.xml\|/);
    }
    const noDate = camt053Xml([{ amount_minor: 100, currency: 'GBP', booking_date: 'x' }]);
    expect(() => readCamt053(noDate)).toThrow(
      new StatementError(['reconciliation.errors.entry_date|{"entry":1}']),
    );
  });

  it('keys a credit by its bank reference, else by its content, told apart within one file', () => {
    const l = {
      booking_date: '2026-01-01',
      amount_minor: 5,
      currency: 'GBP',
      text: 't',
      reference: null,
      counterparty: null,
      line_no: 1,
    };
    expect(
      lineKeys([
        { ...l, bank_reference: 'R1' },
        { ...l, bank_reference: null },
        { ...l, bank_reference: null },
      ]),
    ).toEqual(['ref:R1', '2026-01-01|5|GBP|t||', '2026-01-01|5|GBP|t||#2']);
  });

  it('finds payment references and invoice numbers however they are written', () => {
    expect(INVOICE_NUMBER_DIGITS).toBe(7);
    expect(
      tokensOf({ text: 'pay inv 42 and INV-0000043, ref INV0000044-K7QZ', reference: 'inv0000045' }),
    ).toEqual({
      references: ['INV0000044-K7QZ'],
      numbers: ['INV0000042', 'INV0000043', 'INV0000044', 'INV0000045'],
    });
  });

  it('never pays the same balance twice within a statement', () => {
    const c = {
      id: 1,
      number: 'INV0000001',
      payment_reference: 'INV0000001-AAAA',
      currency: 'GBP',
      due_at: '2026-01-01',
      balance_minor: 500,
    };
    const index = indexCandidates([], [c]);
    expect(matchLine({ amount_minor: 500, currency: 'GBP', text: 'x', reference: null }, index).status).toBe(
      'matched',
    );
    expect(matchLine({ amount_minor: 500, currency: 'GBP', text: 'y', reference: null }, index)).toEqual({
      status: 'unmatched',
      problem: PROBLEMS.no_match,
      allocations: [],
    });
  });
});

describe('uploading and matching', () => {
  it('matches by payment reference, by invoice number (part payment), several invoices in one transfer, and by amount', async () => {
    const byRef = await invoice(40_001);
    const byNumber = await invoice(50_002);
    const first = await invoice(10_003, { due_at: day(5) });
    const second = await invoice(20_004, { due_at: day(10) });
    const byAmount = await invoice(77_705);
    const { statement, existing } = await upload([
      credit(40_001, `Payment ${byRef.payment_reference}`),
      credit(20_000, `invoice ${byNumber.number.toLowerCase()} part`),
      credit(30_007, `${second.number} / ${first.number}`),
      credit(77_705, 'school fees', { debtor: 'Oakwood International School' }),
    ]);
    expect(existing).toBe(false);
    expect(statement).toMatchObject({
      format: 'camt053',
      status: 'review',
      line_count: 4,
      counts: { matched: 4, unmatched: 0 },
      totals: [{ currency: 'GBP', credits_minor: 167_713, allocated_minor: 167_713, unallocated_minor: 0 }],
    });
    const lines = await allLines(statement.id);
    const alloc = (l: LineView) => l.allocations.map((a) => [a.invoice.number, a.amount_minor, a.source]);
    expect(alloc(lines[0])).toEqual([[byRef.number, 40_001, 'reference']]);
    expect(alloc(lines[1])).toEqual([[byNumber.number, 20_000, 'invoice_number']]);
    expect(alloc(lines[2])).toEqual([
      [first.number, 10_003, 'invoice_number'],
      [second.number, 20_004, 'invoice_number'],
    ]);
    expect(alloc(lines[3])).toEqual([[byAmount.number, 77_705, 'amount']]);
  });

  it('leaves unmatched with the reason: another currency, more than the balances, already paid, nothing, an ambiguous amount', async () => {
    const euro = await invoice(11_111, { currency: 'EUR' });
    const small = await invoice(5_000);
    const paid = await insertTransaction(await invoice(6_000), { amount_minor: 6_000 });
    await invoice(88_808);
    await invoice(88_808);
    const { statement } = await upload([
      credit(11_111, `Payment ${euro.number}`),
      credit(5_001, `Payment ${small.number}`),
      credit(6_000, `Payment ${paid.number}`),
      credit(31_415, 'Gift'),
      credit(88_808, 'fees'),
      credit(11_111, `Payment ${small.number} in dollars`, { currency: 'USD' }),
    ]);
    const problems = (await allLines(statement.id)).map((l) => [l.status, l.problem]);
    expect(problems).toEqual([
      ['unmatched', PROBLEMS.wrong_currency],
      ['unmatched', PROBLEMS.more_than_balance],
      ['unmatched', PROBLEMS.already_paid],
      ['unmatched', PROBLEMS.no_match],
      ['unmatched', PROBLEMS.ambiguous_amount],
      ['unmatched', PROBLEMS.wrong_currency],
    ]);
    expect(statement.counts).toMatchObject({ unmatched: 6, matched: 0 });
  });

  it('does not match an invoice of another company', async () => {
    const theirs = await insertInvoice({
      company_id: w.caledonia.id,
      client_id: w.highland.id,
      total_minor: 9_191,
    });
    const { statement } = await upload([credit(9_191, `Payment ${theirs.payment_reference}`)]);
    expect((await allLines(statement.id))[0]).toMatchObject({
      status: 'unmatched',
      problem: PROBLEMS.no_match,
    });
  });

  it('refuses a bad file with what is wrong, and keeps nothing', async () => {
    const before = (await listStatements(finance, ALL_STATEMENTS)).meta.total;
    let e = await expectError(
      uploadStatement(finance, file('<Document><Nope/></Document>')),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.not_camt053']);
    e = await expectError(uploadStatement(finance, file('Date,Amount\n', 'a.csv')), ValidationFailed);
    expect(messagesOf(e)).toEqual(['reconciliation.errors.csv_empty']);
    e = await expectError(
      uploadStatement(finance, file(camt053Xml([credit(100, 'x', { direction: 'DBIT' })]))),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.no_credits']);
    e = await expectError(
      uploadStatement(
        finance,
        new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])], 'x.png'),
      ),
      ValidationFailed,
    );
    expect(e.errors[0].key).toBe('file');
    expect((await listStatements(finance, ALL_STATEMENTS)).meta.total).toBe(before);
  });

  it('a CSV waits for its columns, then reads and matches its credits; a row that cannot be read is named', async () => {
    const inv = await invoice(23_456);
    const csv = statementCsv([
      {
        booking_date: day(-2),
        text: `Fees ${inv.number}`,
        payer: 'Oakwood',
        paid_in_minor: 23_456,
        bank_reference: `C-${Date.now()}`,
      },
      { booking_date: day(-2), text: 'Bank charge', paid_out_minor: 500 },
    ]);
    const { statement } = await uploadStatement(finance, file(csv, 'bank.csv'));
    expect(statement).toMatchObject({
      format: 'csv',
      status: 'mapping',
      headers: [
        'Date',
        'Description',
        'Reference',
        'Payer',
        'Paid in',
        'Paid out',
        'Currency',
        'Transaction ID',
      ],
      date_order: 'dmy',
      mapping: {
        '0': 'booking_date',
        '1': 'text',
        '2': 'reference',
        '3': 'counterparty',
        '4': 'credit',
        '5': 'debit',
        '6': 'currency',
        '7': 'bank_reference',
      },
    });
    const columns = Object.values(statement.mapping);
    const wrong = await expectError(
      confirmStatementMapping(finance, statement.id, { columns, date_order: 'ymd' }),
      ValidationFailed,
    );
    expect(messagesOf(wrong)[0]).toMatch(/^reconciliation\.errors\.row_date\|\{"row":2,/);
    const view = await confirmStatementMapping(finance, statement.id, { columns, date_order: 'dmy' });
    expect(view).toMatchObject({ status: 'review', line_count: 1, counts: { matched: 1 } });
    expect((await allLines(statement.id))[0].allocations[0].invoice.number).toBe(inv.number);
  });
});

describe('allocating by hand', () => {
  it('splits a credit over invoices, never more than the credit nor the balance, in the same currency', async () => {
    const a = await invoice(3_000);
    const b = await invoice(4_000);
    const euro = await invoice(1_000, { currency: 'EUR' });
    const { statement } = await upload([credit(6_500, 'bulk payment from Oakwood')]);
    const id = statement.id;
    expect((await allLines(id))[0].status).toBe('unmatched');
    const found = await findAllocatableInvoices(finance, id, a.number, 'GBP');
    expect(found.map((f) => [f.number, f.available_minor])).toEqual([[a.number, 3_000]]);

    let line = await addAllocation(finance, id, 1, { invoice: a.number, amount_minor: 3_000 });
    expect(line).toMatchObject({ status: 'allocated', allocated_minor: 3_000 });
    let e = await expectError(
      addAllocation(finance, id, 1, { invoice: b.number, amount_minor: 3_501 }),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.more_than_credit|{"amount":"35.00 GBP"}']);
    e = await expectError(
      addAllocation(finance, id, 1, { invoice: a.number, amount_minor: 1 }),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.more_than_balance|{"amount":"0.00 GBP"}']);
    e = await expectError(
      addAllocation(finance, id, 1, { invoice: euro.number, amount_minor: 100 }),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.invoice_currency|{"currency":"EUR"}']);
    e = await expectError(
      addAllocation(finance, id, 1, { invoice: 'INV9999999', amount_minor: 100 }),
      ValidationFailed,
    );
    expect(messagesOf(e)).toEqual(['reconciliation.errors.invoice_not_found']);
    line = await addAllocation(finance, id, 1, { invoice: b.public_id, amount_minor: 3_500 });
    expect(line.allocations.map((x) => [x.invoice.number, x.amount_minor, x.source])).toEqual([
      [a.number, 3_000, 'manual'],
      [b.number, 3_500, 'manual'],
    ]);
    line = await removeAllocation(finance, id, line.allocations[1].id);
    expect(line).toMatchObject({ status: 'allocated', allocated_minor: 3_000 });
    line = await removeAllocation(finance, id, line.allocations[0].id);
    expect(line).toMatchObject({ status: 'unmatched', allocated_minor: 0 });
  });

  it('ignores a credit (dropping its allocations) and takes it back', async () => {
    const a = await invoice(2_222);
    const { statement } = await upload([credit(2_222, `Pay ${a.number}`)]);
    let line = await ignoreLine(finance, statement.id, 1, true);
    expect(line).toMatchObject({ status: 'ignored', allocations: [] });
    await expectError(
      addAllocation(finance, statement.id, 1, { invoice: a.number, amount_minor: 1 }),
      ValidationFailed,
    );
    line = await ignoreLine(finance, statement.id, 1, false);
    expect(line.status).toBe('unmatched');
  });
});

describe('confirming', () => {
  it('records one bank-transfer payment per allocation, settles the invoices, logs them, and records once', async () => {
    const full = await invoice(15_000);
    const part = await invoice(9_000);
    const entries = [
      credit(15_000, `Pay ${full.payment_reference}`),
      credit(4_000, `Part ${part.number}`),
      credit(1_234, 'stray'),
    ];
    const xml = camt053Xml(entries, { id: 'CONFIRM-ONCE' });
    const { statement } = await uploadStatement(finance, file(xml, 'once.xml'));
    await ignoreLine(finance, statement.id, 3, true);

    const [one, two] = await Promise.all([
      confirmStatement(finance, statement.id),
      confirmStatement(finance, statement.id),
    ]);
    expect(one.status).toBe('confirmed');
    expect(two.status).toBe('confirmed');
    const again = await confirmStatement(finance, statement.id);
    expect(again).toMatchObject({ status: 'confirmed', counts: { recorded: 2, ignored: 1 } });

    const paid = (inv: InvoiceRow) =>
      db().select().from(transactions).where(eq(transactions.invoice_id, inv.id));
    const fullTx = await paid(full);
    expect(fullTx).toHaveLength(1);
    expect(fullTx[0]).toMatchObject({
      kind: 'payment',
      gateway: 'bank_transfer',
      method: 'bank_transfer',
      status: 'succeeded',
      amount_minor: 15_000,
      currency: 'GBP',
      paid_on: day(-1),
    });
    expect(fullTx[0].allocation_id).not.toBeNull();
    expect(await paid(part)).toHaveLength(1);
    expect(await reloadInvoice(full.id)).toMatchObject({
      status: 'paid',
      paid_minor: 15_000,
      paid_at: day(-1),
    });
    expect(await reloadInvoice(part.id)).toMatchObject({ status: 'unpaid', paid_minor: 4_000 });

    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'invoice'), eq(activityLogs.entity_id, full.id)));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      action: 'payment_reconciled',
      before: { status: 'unpaid', paid_minor: 0 },
      after: { status: 'paid', paid_minor: 15_000 },
    });

    // The same file again opens the first statement; confirming it records nothing more.
    const same = await uploadStatement(finance, file(xml, 'once-again.xml'));
    expect(same).toMatchObject({ existing: true, statement: { id: statement.id, status: 'confirmed' } });
    await confirmStatement(finance, same.statement.id);
    expect(await paid(full)).toHaveLength(1);

    // Another file with the same credit (same bank reference) shows it as already recorded.
    const overlap = await uploadStatement(
      finance,
      file(camt053Xml([entries[0], credit(500, `Rest ${part.number}`)], { id: 'OVERLAP' })),
    );
    const lines = await allLines(overlap.statement.id);
    expect(lines.map((l) => [l.status, l.problem])).toEqual([
      ['ignored', PROBLEMS.already_recorded],
      ['matched', null],
    ]);
    await expectError(ignoreLine(finance, overlap.statement.id, 1, false), Conflict);
    await confirmStatement(finance, overlap.statement.id);
    expect(await paid(full)).toHaveLength(1);
    expect(await reloadInvoice(part.id)).toMatchObject({ paid_minor: 4_500 });
    await expectError(
      addAllocation(finance, overlap.statement.id, 2, { invoice: part.number, amount_minor: 1 }),
      Conflict,
    );
  });

  it("approves the school's pending bank transfer with the statement's date instead of paying twice", async () => {
    const inv = await invoice(8_800);
    const other = await invoice(2_000);
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const started = await startBankTransfer(school, inv.public_id, { currency: 'GBP' });
    expect(started.transaction).toMatchObject({ status: 'pending', amount_minor: 8_800 });
    expect((await reloadInvoice(inv.id)).status).toBe('pending');
    const { statement } = await upload([
      credit(8_800, `Transfer ${inv.payment_reference}`, { booking_date: day(-3) }),
      credit(2_000, `Pay ${other.number}`),
    ]);
    expect((await allLines(statement.id)).map((l) => l.status)).toEqual(['matched', 'matched']);
    await confirmStatement(finance, statement.id);

    const rows = await db().select().from(transactions).where(eq(transactions.invoice_id, inv.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      public_id: started.transaction?.id,
      gateway: 'bank_transfer',
      status: 'succeeded',
      gateway_status: 'approved',
      amount_minor: 8_800,
      paid_on: day(-3),
      user_id: finance.actor.user_id,
    });
    expect(rows[0].allocation_id).not.toBeNull();
    expect(await reloadInvoice(inv.id)).toMatchObject({
      status: 'paid',
      paid_minor: 8_800,
      paid_at: day(-3),
    });
    // An invoice without a pending transfer gets its payment as before.
    const plain = await db().select().from(transactions).where(eq(transactions.invoice_id, other.id));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatchObject({ gateway_status: 'reconciled', status: 'succeeded' });
    expect((await getStatement(finance, statement.id)).counts).toMatchObject({ recorded: 2 });
  });

  it('approves a pending transfer once when a part payment and the rest come in one statement', async () => {
    const inv = await invoice(10_000);
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const started = await startBankTransfer(school, inv.public_id, { currency: 'GBP' });
    const { statement } = await upload([
      credit(6_000, `Part ${inv.number}`, { booking_date: day(-5) }),
      credit(4_000, `Rest ${inv.number}`, { booking_date: day(-2) }),
    ]);
    await confirmStatement(finance, statement.id);
    const rows = await db().select().from(transactions).where(eq(transactions.invoice_id, inv.id));
    expect(
      rows.map((t) => [t.public_id === started.transaction?.id, t.status, t.amount_minor]).sort(),
    ).toEqual([
      [false, 'succeeded', 4_000],
      [true, 'succeeded', 6_000],
    ]);
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid', paid_minor: 10_000 });
  });

  it('refuses when an invoice was paid meanwhile, recording nothing', async () => {
    const inv = await invoice(7_000);
    const { statement } = await upload([credit(7_000, `Pay ${inv.number}`)]);
    await insertTransaction(inv, { amount_minor: 7_000 });
    const e = await expectError(confirmStatement(finance, statement.id), Conflict);
    expect(e.message).toBe(`reconciliation.errors.balance_changed|{"numbers":"${inv.number}"}`);
    expect((await getStatement(finance, statement.id)).status).toBe('review');
  });

  it('records a credit once when two statements holding it are confirmed', async () => {
    const inv = await invoice(3_333);
    const same = credit(3_333, `Pay ${inv.number}`);
    const a = await uploadStatement(finance, file(camt053Xml([same], { id: 'A' })));
    const b = await uploadStatement(finance, file(camt053Xml([same], { id: 'B' })));
    await confirmStatement(finance, a.statement.id);
    // b was matched before a was recorded: confirming it marks the credit as recorded elsewhere.
    const confirmed = await confirmStatement(finance, b.statement.id);
    expect(confirmed.counts).toMatchObject({ recorded: 0, ignored: 1 });
    expect((await allLines(b.statement.id))[0].problem).toBe(PROBLEMS.already_recorded);
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid', paid_minor: 3_333 });
    const lines = await db()
      .select()
      .from(bankStatementLines)
      .where(eq(bankStatementLines.line_key, `ref:${same.bank_reference}`));
    expect(lines.filter((l) => l.status === 'recorded')).toHaveLength(1);
  });
});

describe('who may', () => {
  it('another company answers not found; a user without update_billing may not upload', async () => {
    const { statement } = await upload([credit(1_010, 'x')]);
    const stranger = await actorCtx(STRANGER.companyUser);
    await expectError(getStatement(stranger, statement.id), NotFound);
    await expectError(confirmStatement(stranger, statement.id), NotFound);
    expect((await listStatements(stranger, ALL_STATEMENTS)).items).toEqual([]);
    const manager = await actorCtx(DEMO_ACCOUNTS.accountManager);
    expect((await getStatement(manager, statement.id)).id).toBe(statement.id);
    await expect(uploadStatement(manager, file(camt053Xml([credit(1, 'y')])))).rejects.toThrow();
  });
});
