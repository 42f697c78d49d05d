/**
 * Bank reconciliation demo data and sample files.
 *
 * - `camt053Xml(entries)` and `statementCsv(rows)` write bank statements as a bank would: the demo seed,
 *   the sample files in docs/samples/, the tests and the bench build their statements with them.
 * - `seedReconciliation(db)`: one uploaded camt.053 statement under review, made from the unpaid demo
 *   invoices that exist when it runs (the billing seed makes them): one paid in full by its payment
 *   reference, one in part by its number, two in one transfer, one by amount only, one credit that
 *   matches nothing and one in another currency. The statement's file is not in R2 (the seed has no
 *   bucket): a camt.053 statement is never read again after upload, so the review works all the same.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { bankStatements, companies, users } from '../schema';
import type { DB } from '../../workers/platform/db';
import { loadActor } from '../../workers/domain/access/actor';
import type { ActorCtx } from '../../workers/domain/context';
import type { Env } from '../../workers/env';
import { publicId } from '../../workers/platform/crypto';
import { readCamt053 } from '../../workers/domain/reconciliation/parse';
import { storeAndMatch } from '../../workers/domain/reconciliation/upload';

export interface CamtEntry {
  amount_minor: number;
  currency: string;
  booking_date: string;
  /** CRDT (money in, default) or DBIT. */
  direction?: 'CRDT' | 'DBIT';
  bank_reference?: string;
  text?: string;
  /** Structured creditor reference (Strd/CdtrRefInf/Ref). */
  structured?: string;
  debtor?: string;
  /** Several transactions booked as one entry (each with its own amount). */
  transactions?: { amount_minor: number; text?: string; debtor?: string; bank_reference?: string }[];
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const amount = (minor: number) => (minor / 100).toFixed(2);

function txXml(t: {
  text?: string;
  structured?: string;
  debtor?: string;
  bank_reference?: string;
  amount?: string;
  currency?: string;
}): string {
  return `<TxDtls>${t.bank_reference ? `<Refs><AcctSvcrRef>${esc(t.bank_reference)}</AcctSvcrRef></Refs>` : ''}${
    t.amount ? `<AmtDtls><TxAmt><Amt Ccy="${t.currency}">${t.amount}</Amt></TxAmt></AmtDtls>` : ''
  }${t.debtor ? `<RltdPties><Dbtr><Nm>${esc(t.debtor)}</Nm></Dbtr></RltdPties>` : ''}${
    t.text || t.structured
      ? `<RmtInf>${t.text ? `<Ustrd>${esc(t.text)}</Ustrd>` : ''}${
          t.structured ? `<Strd><CdtrRefInf><Ref>${esc(t.structured)}</Ref></CdtrRefInf></Strd>` : ''
        }</RmtInf>`
      : ''
  }</TxDtls>`;
}

/** An ISO 20022 camt.053.001.08 statement of the given entries. */
export function camt053Xml(
  entries: readonly CamtEntry[],
  opts: { iban?: string; currency?: string; id?: string } = {},
): string {
  const ccy = opts.currency ?? entries[0]?.currency ?? 'GBP';
  const body = entries
    .map((e) => {
      const details = e.transactions?.length
        ? e.transactions
            .map((t) => txXml({ ...t, amount: amount(t.amount_minor), currency: e.currency }))
            .join('')
        : txXml({ text: e.text, structured: e.structured, debtor: e.debtor });
      return `<Ntry>${e.bank_reference ? `<NtryRef>${esc(e.bank_reference)}</NtryRef>` : ''}<Amt Ccy="${e.currency}">${amount(
        e.amount_minor,
      )}</Amt><CdtDbtInd>${e.direction ?? 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${
        e.booking_date
      }</Dt></BookgDt><ValDt><Dt>${e.booking_date}</Dt></ValDt>${
        e.bank_reference ? `<AcctSvcrRef>${esc(e.bank_reference)}</AcctSvcrRef>` : ''
      }<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd><NtryDtls>${details}</NtryDtls></Ntry>`;
    })
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${esc(opts.id ?? 'STMT-DEMO')}</MsgId><CreDtTm>2026-01-01T00:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${esc(opts.id ?? 'STMT-DEMO')}</Id>
      <Acct><Id><IBAN>${opts.iban ?? 'GB33BUKB20201555555555'}</IBAN></Id><Ccy>${ccy}</Ccy></Acct>
    ${body}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

/** A CSV statement as a UK bank exports it: Date (DD/MM/YYYY), Description, Reference, Payer, Paid in, Paid out, Currency, Transaction ID. */
export function statementCsv(
  rows: readonly {
    booking_date: string;
    text?: string;
    reference?: string;
    payer?: string;
    paid_in_minor?: number;
    paid_out_minor?: number;
    currency?: string;
    bank_reference?: string;
  }[],
): string {
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  const lines = [
    'Date,Description,Reference,Payer,Paid in,Paid out,Currency,Transaction ID',
    ...rows.map((r) =>
      [
        dmy(r.booking_date),
        r.text ?? '',
        r.reference ?? '',
        r.payer ?? '',
        r.paid_in_minor ? amount(r.paid_in_minor) : '',
        r.paid_out_minor ? amount(r.paid_out_minor) : '',
        r.currency ?? 'GBP',
        r.bank_reference ?? '',
      ]
        .map(cell)
        .join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

interface OpenInvoice {
  id: number;
  number: string;
  payment_reference: string;
  currency: string;
  balance: number;
  client: string;
}

/** The demo company's unpaid invoices (oldest first) with their balances. */
export async function openDemoInvoices(db: DB, companyId: number): Promise<OpenInvoice[]> {
  return db.all<OpenInvoice>(sql`SELECT i.id, i.number, i.payment_reference, i.currency,
      i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor AS balance,
      (SELECT name FROM clients WHERE id = i.client_id) AS client
    FROM invoices i WHERE i.company_id = ${companyId} AND i.type <> 'credit_note' AND i.voided_at IS NULL
      AND i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor > 0
    ORDER BY i.due_at, i.number`);
}

/** Credits paying some of the open invoices in each way the matching knows, and two it cannot match. */
export function demoEntries(open: readonly OpenInvoice[], today: string): CamtEntry[] {
  const gbp = open.filter((i) => i.currency === open[0]?.currency);
  const entries: CamtEntry[] = [];
  const [a, b, c, d, e] = gbp;
  let n = 0;
  const ref = () => `DEMO-${today.replace(/-/g, '')}-${String(++n).padStart(3, '0')}`;
  if (a)
    entries.push({
      amount_minor: a.balance,
      currency: a.currency,
      booking_date: today,
      bank_reference: ref(),
      text: `Payment ${a.payment_reference}`,
      debtor: a.client,
    });
  if (b && b.balance > 100)
    entries.push({
      amount_minor: Math.floor(b.balance / 2),
      currency: b.currency,
      booking_date: today,
      bank_reference: ref(),
      text: `Part payment invoice ${b.number}`,
      debtor: b.client,
    });
  if (c && d)
    entries.push({
      amount_minor: c.balance + d.balance,
      currency: c.currency,
      booking_date: today,
      bank_reference: ref(),
      text: `${c.number} ${d.number}`,
      debtor: c.client,
    });
  if (
    e &&
    !gbp
      .slice(0, 4)
      .concat(gbp.slice(5))
      .some((x) => x.balance === e.balance)
  )
    entries.push({
      amount_minor: e.balance,
      currency: e.currency,
      booking_date: today,
      bank_reference: ref(),
      text: 'School fees transfer',
      debtor: e.client,
    });
  entries.push({
    amount_minor: 12_345,
    currency: open[0]?.currency ?? 'GBP',
    booking_date: today,
    bank_reference: ref(),
    text: 'Unknown transfer',
    debtor: 'J. Smith',
  });
  entries.push({
    amount_minor: 50_000,
    currency: 'USD',
    booking_date: today,
    bank_reference: ref(),
    text: a ? `Payment ${a.number}` : 'Payment',
    debtor: 'Overseas Agent Inc',
  });
  entries.push({
    amount_minor: 2_500,
    currency: open[0]?.currency ?? 'GBP',
    booking_date: today,
    direction: 'DBIT',
    bank_reference: ref(),
    text: 'Bank charges',
  });
  return entries;
}

/**
 * One camt.053 statement under review for the demo company, as the finance user uploaded it. Does
 * nothing when there is no finance user, no unpaid invoice, or a statement already.
 */
export async function seedReconciliation(db: DB): Promise<void> {
  const [finance] = await db.select().from(users).where(eq(users.email, 'finance@demo.test')).limit(1);
  if (!finance) return;
  const actor = await loadActor(db, finance.id, {});
  if (!actor || !actor.companies.length) return;
  const [company] = await db
    .select()
    .from(companies)
    .where(eq(companies.id, actor.companies[0].id))
    .orderBy(asc(companies.id))
    .limit(1);
  const [already] = await db
    .select({ id: bankStatements.id })
    .from(bankStatements)
    .where(and(eq(bankStatements.company_id, company.id)))
    .limit(1);
  if (already) return;
  const open = await openDemoInvoices(db, company.id);
  if (!open.length) return;
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const xml = camt053Xml(demoEntries(open, today), { id: `DEMO-${today}` });
  const bytes = new TextEncoder().encode(xml);
  const sha = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('');
  const parsed = readCamt053(xml);
  const [row] = await db
    .insert(bankStatements)
    .values({
      public_id: publicId(),
      company_id: company.id,
      format: 'camt053',
      status: 'mapping',
      file_key: `bank-statements/${company.id}/demo-statement-${today}.xml`,
      file_name: `demo-statement-${today}.xml`,
      file_size: bytes.length,
      file_sha256: sha,
      currency: parsed.currency,
      account: parsed.account,
      created_by: finance.id,
      created_at: now,
      updated_at: now,
    })
    .returning();
  const ctx: ActorCtx = { db, env: {} as Env, now, actor: { ...actor, selected_company_id: company.id } };
  await storeAndMatch(ctx, row, parsed, null);
}
