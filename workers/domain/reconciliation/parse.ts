/**
 * Reading a bank statement into its credits (money in); debits are not read. Pure.
 *
 * - CSV: any bank's columns, matched by the user (schema.ts CSV_TARGETS): a signed amount column (or a
 *   credit and a debit column), amounts written 1,234.56 or 1.234,56 or (12.00) for a debit, dates in
 *   the day/month order chosen, the currency per row or one for the file.
 * - ISO 20022 camt.053 (any version): Stmt/Ntry with CdtDbtInd CRDT, Amt@Ccy, BookgDt (Dt or DtTm),
 *   AcctSvcrRef, and from NtryDtls/TxDtls: RmtInf/Ustrd and RmtInf/Strd/CdtrRefInf/Ref, RltdPties/Dbtr/Nm.
 *   An entry booking several transactions (TxDtls with their own amounts) gives one credit per transaction.
 *
 * A problem names the row (CSV, counting the header row as 1) or the entry (camt.053, from 1) and what is
 * wrong, as a message key with parameters.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseDate } from '../imports/normalise';
import { msg } from '../messages';
import { normaliseHeader } from '../imports/matching';
import type { CsvMapping, CsvTarget, DateOrder } from './schema';

export interface StatementLine {
  line_no: number;
  booking_date: string;
  amount_minor: number;
  currency: string;
  text: string;
  reference: string | null;
  counterparty: string | null;
  /** The bank's reference of the entry, when it gives one. */
  bank_reference: string | null;
}

export interface ParsedStatement {
  lines: StatementLine[];
  currency: string | null;
  account: string | null;
}

export class StatementError extends Error {
  constructor(readonly messages: string[]) {
    super(messages[0]);
  }
}

/** Problems reported at most (the first ones are enough to fix a file). */
const MAX_PROBLEMS = 5;

// ---------------------------------------------------------------- amounts

/** Digits after the decimal mark of a currency (ISO 4217); two for the rest. */
const DECIMALS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  ISK: 0,
  CLP: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
};
export const currencyDecimals = (currency: string) => DECIMALS[currency] ?? 2;

/**
 * An amount as written in a statement, in minor units, or null when it is not a number. The decimal mark
 * is the last of . or , followed by 1 to 3 digits (a lone , or . followed by exactly three digits is a
 * thousands separator when the currency has two decimals); spaces, apostrophes and currency signs are
 * dropped; a leading minus, a trailing minus or brackets make it negative.
 */
export function parseAmount(raw: string, currency = 'GBP'): number | null {
  let v = raw.trim();
  if (!v) return null;
  let negative = false;
  if (/^\(.*\)$/.test(v)) {
    negative = true;
    v = v.slice(1, -1);
  }
  v = v
    .replace(/[\s\u00a0'’]/g, '')
    .replace(/^[A-Za-z]{3}|[A-Za-z]{3}$/g, '')
    .replace(/[£€$¥₩]/g, '');
  if (v.startsWith('+')) v = v.slice(1);
  if (v.startsWith('-')) {
    negative = !negative;
    v = v.slice(1);
  } else if (v.endsWith('-')) {
    negative = !negative;
    v = v.slice(0, -1);
  }
  if (!/^[\d.,]+$/.test(v) || !/\d/.test(v)) return null;
  const decimals = currencyDecimals(currency);
  const lastDot = v.lastIndexOf('.');
  const lastComma = v.lastIndexOf(',');
  const mark = Math.max(lastDot, lastComma);
  let whole = v;
  let fraction = '';
  if (mark >= 0) {
    const after = v.slice(mark + 1);
    const both = lastDot >= 0 && lastComma >= 0;
    const sepCount = v.split(v[mark]).length - 1;
    const isDecimal = both || (sepCount === 1 && (after.length !== 3 || decimals === 3));
    if (isDecimal) {
      whole = v.slice(0, mark);
      fraction = after;
    }
  }
  whole = whole.replace(/[.,]/g, '');
  if (fraction.length > decimals) {
    if (!/^0*$/.test(fraction.slice(decimals))) return null;
    fraction = fraction.slice(0, decimals);
  }
  const minor = Number(whole || '0') * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  if (!Number.isSafeInteger(minor)) return null;
  return negative ? -minor : minor;
}

// ---------------------------------------------------------------- CSV

/** Header words that say what a bank's column holds (normalised, see normaliseHeader). */
const HEADER_WORDS: Record<CsvTarget, string[]> = {
  booking_date: [
    'date',
    'booking date',
    'booked',
    'transaction date',
    'posting date',
    'value date',
    'buchungstag',
    'fecha',
    'data',
    'datum',
  ],
  amount: ['amount', 'value', 'betrag', 'importe', 'montant', 'importo', 'valor', 'transaction amount'],
  credit: ['credit', 'credit amount', 'paid in', 'money in', 'deposits', 'in', 'haben'],
  debit: ['debit', 'debit amount', 'paid out', 'money out', 'withdrawals', 'out', 'soll'],
  currency: ['currency', 'ccy', 'wahrung', 'moneda', 'devise', 'valuta', 'moeda'],
  text: [
    'description',
    'details',
    'narrative',
    'remittance',
    'remittance information',
    'memo',
    'text',
    'verwendungszweck',
    'concepto',
    'libelle',
    'transaction description',
  ],
  reference: ['reference', 'payment reference', 'customer reference', 'their reference', 'ref', 'referenz'],
  counterparty: [
    'payer',
    'payer name',
    'name',
    'counterparty',
    'from',
    'remitter',
    'beneficiary',
    'auftraggeber',
    'ordering party',
  ],
  bank_reference: [
    'bank reference',
    'transaction id',
    'transaction reference',
    'entry reference',
    'id',
    'bank ref',
    'fitid',
  ],
};

/** The suggested mapping of a header row: each target to the first column whose header names it. */
export function suggestCsvMapping(headers: readonly string[]): CsvMapping {
  const mapping: CsvMapping = {};
  const taken = new Set<CsvTarget>();
  headers.forEach((h, i) => {
    const n = normaliseHeader(h);
    const found = (Object.keys(HEADER_WORDS) as CsvTarget[]).find(
      (t) => !taken.has(t) && HEADER_WORDS[t].includes(n),
    );
    mapping[String(i)] = found ?? null;
    if (found) taken.add(found);
  });
  return mapping;
}

/** The problems of a mapping itself: a target matched twice, no date, no amount (nor a credit column). */
export function mappingProblems(mapping: CsvMapping, fileCurrency: string | undefined): string[] {
  const problems: string[] = [];
  const targets = Object.values(mapping).filter((t): t is CsvTarget => !!t);
  const twice = targets.filter((t, i) => targets.indexOf(t) !== i);
  for (const t of new Set(twice)) problems.push(msg('reconciliation.errors.matched_twice', { field: t }));
  if (!targets.includes('booking_date')) problems.push(msg('reconciliation.errors.missing_date'));
  if (!targets.includes('amount') && !targets.includes('credit'))
    problems.push(msg('reconciliation.errors.missing_amount'));
  if (!targets.includes('currency') && !fileCurrency)
    problems.push(msg('reconciliation.errors.missing_currency'));
  return problems;
}

/**
 * The credits of CSV rows (without the header row) under a confirmed mapping. Rows that are blank, or
 * debits, are skipped; a row whose date, amount or currency cannot be read is a problem naming its row.
 */
export function readCsvStatement(
  rows: readonly string[][],
  mapping: CsvMapping,
  opts: { date_order: DateOrder; currency?: string; today: string },
): ParsedStatement {
  const problems = mappingProblems(mapping, opts.currency);
  if (problems.length) throw new StatementError(problems);
  const col = {} as Partial<Record<CsvTarget, number>>;
  for (const [index, t] of Object.entries(mapping)) if (t) col[t] = Number(index);
  const cell = (row: readonly string[], t: CsvTarget) =>
    col[t] === undefined ? '' : (row[col[t]!] ?? '').trim();
  const lines: StatementLine[] = [];
  const errors: string[] = [];
  rows.forEach((row, i) => {
    if (errors.length >= MAX_PROBLEMS) return;
    const rowNo = i + 2;
    if (row.every((c) => !c.trim())) return;
    const currency = (cell(row, 'currency') || opts.currency || '').toUpperCase();
    let amount: number | null;
    if (col.amount !== undefined) {
      amount = parseAmount(cell(row, 'amount'), currency || 'GBP');
      if (amount === null && !cell(row, 'amount') && col.credit !== undefined)
        amount = parseAmount(cell(row, 'credit'), currency || 'GBP');
      if (amount === null) {
        if (!cell(row, 'amount') && cell(row, 'debit')) return;
        errors.push(msg('reconciliation.errors.row_amount', { row: rowNo, value: cell(row, 'amount') }));
        return;
      }
    } else {
      const credit = cell(row, 'credit');
      if (!credit) return; // a debit row (or an empty credit)
      amount = parseAmount(credit, currency || 'GBP');
      if (amount === null) {
        errors.push(msg('reconciliation.errors.row_amount', { row: rowNo, value: credit }));
        return;
      }
      amount = Math.abs(amount);
    }
    if (amount <= 0) return; // a debit
    const date = parseDate(cell(row, 'booking_date'), opts.date_order, opts.today);
    if (!date) {
      errors.push(msg('reconciliation.errors.row_date', { row: rowNo, value: cell(row, 'booking_date') }));
      return;
    }
    if (!/^[A-Z]{3}$/.test(currency)) {
      errors.push(msg('reconciliation.errors.row_currency', { row: rowNo, value: currency }));
      return;
    }
    lines.push({
      line_no: rowNo,
      booking_date: date,
      amount_minor: amount,
      currency,
      text: cell(row, 'text').slice(0, 500),
      reference: cell(row, 'reference').slice(0, 200) || null,
      counterparty: cell(row, 'counterparty').slice(0, 200) || null,
      bank_reference: cell(row, 'bank_reference').slice(0, 200) || null,
    });
  });
  if (errors.length) throw new StatementError(errors);
  const currencies = new Set(lines.map((l) => l.currency));
  return { lines, currency: currencies.size === 1 ? [...currencies][0] : null, account: null };
}

// ---------------------------------------------------------------- camt.053

type Node = Record<string, unknown>;
const asArray = <T>(v: T | T[] | undefined | null): T[] => (v == null ? [] : Array.isArray(v) ? v : [v]);
const obj = (v: unknown): Node => (v && typeof v === 'object' ? (v as Node) : {});
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML's five entities and character references (the parser leaves them, which makes it 2x faster). */
const decode = (s: string) =>
  s.includes('&')
    ? s.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, e: string) =>
        e[0] === '#'
          ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
          : ENTITIES[e.toLowerCase()],
      )
    : s;
const text = (v: unknown): string => {
  if (v == null) return '';
  if (typeof v === 'object') return text((v as Node)['#text']);
  return decode(String(v)).trim();
};
const path = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((n, k) => obj(n)[k], v);

const ARRAYS = new Set(['Stmt', 'Ntry', 'TxDtls', 'Ustrd', 'Strd', 'NtryDtls']);

/** True when the text looks like XML (what is uploaded is told apart by its content, not its name). */
export function looksLikeXml(content: string): boolean {
  return /^\s*</.test(content.replace(/^\uFEFF/, ''));
}

/** A camt.053 document's credits. Not XML, or XML that is not a camt.053, is a clear problem. */
export function readCamt053(xml: string): ParsedStatement {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    processEntities: false,
    isArray: (name) => ARRAYS.has(name),
  });
  // The validator alone is fast; parse(xml, true), validating as it goes, is several times slower.
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new StatementError([
      msg('reconciliation.errors.xml', { detail: `${valid.err.msg} (line ${valid.err.line})`.slice(0, 160) }),
    ]);
  const doc = parser.parse(xml) as Node;
  const root = obj(path(doc, 'Document', 'BkToCstmrStmt'));
  const statements = asArray(root.Stmt as Node[] | undefined);
  if (!statements.length) throw new StatementError([msg('reconciliation.errors.not_camt053')]);
  const lines: StatementLine[] = [];
  const errors: string[] = [];
  let entryNo = 0;
  let currency: string | null = null;
  let account: string | null = null;
  for (const stmt of statements) {
    currency ??= text(path(stmt, 'Acct', 'Ccy')) || null;
    account ??=
      text(path(stmt, 'Acct', 'Id', 'IBAN')) || text(path(stmt, 'Acct', 'Id', 'Othr', 'Id')) || null;
    for (const entry of asArray(obj(stmt).Ntry as Node[] | undefined)) {
      entryNo += 1;
      if (errors.length >= MAX_PROBLEMS) break;
      if (text(entry.CdtDbtInd) !== 'CRDT') continue;
      if (text(entry.RvslInd) === 'true') continue;
      const status = text(path(entry, 'Sts', 'Cd')) || text(entry.Sts);
      if (status && status !== 'BOOK') continue;
      const amt = entry.Amt;
      const ccy = text(obj(amt)['@Ccy']).toUpperCase();
      const amount = parseAmount(text(amt), ccy || 'GBP');
      if (amount === null || amount <= 0) {
        errors.push(msg('reconciliation.errors.entry_amount', { entry: entryNo, value: text(amt) }));
        continue;
      }
      if (!/^[A-Z]{3}$/.test(ccy)) {
        errors.push(msg('reconciliation.errors.entry_currency', { entry: entryNo }));
        continue;
      }
      const date = (text(path(entry, 'BookgDt', 'Dt')) || text(path(entry, 'BookgDt', 'DtTm'))).slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
        errors.push(msg('reconciliation.errors.entry_date', { entry: entryNo }));
        continue;
      }
      const entryRef = text(entry.AcctSvcrRef) || text(entry.NtryRef) || null;
      const txs = asArray(entry.NtryDtls as Node[] | undefined).flatMap((d) =>
        asArray(obj(d).TxDtls as Node[] | undefined),
      );
      const txAmount = (tx: Node) => {
        const a = path(tx, 'AmtDtls', 'TxAmt', 'Amt') ?? tx.Amt;
        return a === undefined ? null : parseAmount(text(a), ccy);
      };
      const split = txs.length > 1 && txs.every((tx) => (txAmount(tx) ?? 0) > 0);
      const parts = split ? txs : [txs[0] ?? {}];
      parts.forEach((tx, i) => {
        const rmt = obj(tx.RmtInf);
        const unstructured = asArray(rmt.Ustrd as unknown[])
          .map(text)
          .filter(Boolean)
          .join(' ');
        const structured = asArray(rmt.Strd as Node[])
          .map((s) => text(path(s, 'CdtrRefInf', 'Ref')))
          .filter(Boolean);
        const debtor =
          text(path(tx, 'RltdPties', 'Dbtr', 'Nm')) ||
          text(path(tx, 'RltdPties', 'Dbtr', 'Pty', 'Nm')) ||
          null;
        const txRef = text(path(tx, 'Refs', 'AcctSvcrRef')) || null;
        const bankRef = split ? (txRef ?? (entryRef ? `${entryRef}/${i + 1}` : null)) : (entryRef ?? txRef);
        lines.push({
          line_no: lines.length + 1,
          booking_date: date,
          amount_minor: split ? txAmount(tx)! : amount,
          currency: ccy,
          text: (unstructured || text(entry.AddtlNtryInf)).slice(0, 500),
          reference:
            (structured.join(' ') || text(path(tx, 'Refs', 'EndToEndId')).replace(/^NOTPROVIDED$/, '')).slice(
              0,
              200,
            ) || null,
          counterparty: debtor?.slice(0, 200) ?? null,
          bank_reference: bankRef?.slice(0, 200) ?? null,
        });
      });
    }
  }
  if (errors.length) throw new StatementError(errors);
  return { lines, currency, account };
}

// ---------------------------------------------------------------- keys

/**
 * The key that makes a credit recorded once across statements: the bank's entry reference, else
 * date|amount|currency|text|payer, with #2, #3... for identical credits within one file.
 */
export function lineKeys(lines: readonly StatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const base = l.bank_reference
      ? `ref:${l.bank_reference}`
      : `${l.booking_date}|${l.amount_minor}|${l.currency}|${l.text}|${l.reference ?? ''}|${l.counterparty ?? ''}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  });
}
