/**
 * Matching the credits of a statement to invoices (pure; the service reads the candidates). In order:
 *
 * 1. The invoices whose unique payment reference (INV0000123-ABCDE) or invoice number (INV0000123, also
 *    written INV 123 or inv-123) appears in the credit's text or reference. One transfer may name several
 *    invoices: they are paid oldest due date first, each up to its balance.
 *    - An invoice in another currency than the credit: unmatched (wrong currency).
 *    - Nothing left to pay on them: unmatched (already paid).
 *    - A credit above what they owe together: unmatched (more than the balances), for a person to split.
 * 2. Naming no invoice: the one open invoice of the company in the credit's currency whose balance equals
 *    the amount. Several such invoices: unmatched (ambiguous); none: unmatched (no match).
 *
 * Balances go down as earlier credits of the same statement are matched, so two credits never pay the
 * same balance twice. Credit notes and void invoices are never candidates.
 */
import { INVOICE_NUMBER_DIGITS as INVOICE_NUMBER_DIGITS_FOR_MATCHING } from '../checkout/service';
import type { AllocationSource } from './schema';

export interface Candidate {
  id: number;
  number: string;
  payment_reference: string;
  currency: string;
  due_at: string;
  /** What is left to pay now. */
  balance_minor: number;
}

export interface MatchableLine {
  amount_minor: number;
  currency: string;
  text: string;
  reference: string | null;
}

export interface Proposed {
  invoice_id: number;
  amount_minor: number;
  source: AllocationSource;
}

export interface MatchResult {
  status: 'matched' | 'unmatched';
  /** Why not (a message key) when unmatched. */
  problem: string | null;
  allocations: Proposed[];
}

export const PROBLEMS = {
  wrong_currency: 'reconciliation.problems.wrong_currency',
  already_paid: 'reconciliation.problems.already_paid',
  more_than_balance: 'reconciliation.problems.more_than_balance',
  ambiguous_amount: 'reconciliation.problems.ambiguous_amount',
  no_match: 'reconciliation.problems.no_match',
  already_recorded: 'reconciliation.problems.already_recorded',
} as const;

const REFERENCE_RE = /\bINV\d{3,}-[A-Z0-9]+\b/g;
const NUMBER_RE = /\bINV[\s\-_#:.]*(\d{1,12})\b/g;

/** The payment references and invoice numbers (normalised to the series' form) a credit names. */
export function tokensOf(line: Pick<MatchableLine, 'text' | 'reference'>): {
  references: string[];
  numbers: string[];
} {
  const all = `${line.text} ${line.reference ?? ''}`.toUpperCase();
  const references = [...new Set(all.match(REFERENCE_RE) ?? [])];
  const numbers = new Set<string>();
  for (const m of all.matchAll(NUMBER_RE)) {
    const digits = m[1].replace(/^0+(?=\d)/, '');
    if (digits.length <= INVOICE_NUMBER_DIGITS_FOR_MATCHING)
      numbers.add(`INV${digits.padStart(INVOICE_NUMBER_DIGITS_FOR_MATCHING, '0')}`);
  }
  return { references, numbers: [...numbers] };
}

export interface CandidateIndex {
  byReference: Map<string, Candidate>;
  byNumber: Map<string, Candidate>;
  /** Open invoices by `${currency}|${balance}`. */
  byBalance: Map<string, Candidate[]>;
}

export function indexCandidates(named: readonly Candidate[], open: readonly Candidate[]): CandidateIndex {
  const byReference = new Map<string, Candidate>();
  const byNumber = new Map<string, Candidate>();
  const byBalance = new Map<string, Candidate[]>();
  const seen = new Map<number, Candidate>();
  const one = (c: Candidate) => seen.get(c.id) ?? (seen.set(c.id, { ...c }), seen.get(c.id)!);
  for (const c of [...named, ...open]) {
    const x = one(c);
    byReference.set(x.payment_reference.toUpperCase(), x);
    byNumber.set(x.number.toUpperCase(), x);
  }
  for (const c of open) {
    const x = one(c);
    const key = `${x.currency}|${x.balance_minor}`;
    byBalance.set(key, [...(byBalance.get(key) ?? []), x]);
  }
  return { byReference, byNumber, byBalance };
}

/** Matches one credit, taking what it pays off the candidates' balances (the index is changed). */
export function matchLine(line: MatchableLine, index: CandidateIndex): MatchResult {
  const unmatched = (problem: string): MatchResult => ({ status: 'unmatched', problem, allocations: [] });
  const { references, numbers } = tokensOf(line);
  const named = new Map<number, { c: Candidate; source: AllocationSource }>();
  for (const r of references) {
    const c = index.byReference.get(r);
    if (c) named.set(c.id, { c, source: 'reference' });
  }
  for (const n of numbers) {
    const c = index.byNumber.get(n);
    if (c && !named.has(c.id)) named.set(c.id, { c, source: 'invoice_number' });
  }
  if (named.size) {
    const found = [...named.values()];
    if (found.some((f) => f.c.currency !== line.currency)) return unmatched(PROBLEMS.wrong_currency);
    const open = found
      .filter((f) => f.c.balance_minor > 0)
      .sort((a, b) => a.c.due_at.localeCompare(b.c.due_at) || a.c.number.localeCompare(b.c.number));
    if (!open.length) return unmatched(PROBLEMS.already_paid);
    const owed = open.reduce((s, f) => s + f.c.balance_minor, 0);
    if (line.amount_minor > owed) return unmatched(PROBLEMS.more_than_balance);
    let left = line.amount_minor;
    const allocations: Proposed[] = [];
    for (const f of open) {
      if (left <= 0) break;
      const amount = Math.min(left, f.c.balance_minor);
      allocations.push({ invoice_id: f.c.id, amount_minor: amount, source: f.source });
      take(index, f.c, amount);
      left -= amount;
    }
    return { status: 'matched', problem: null, allocations };
  }
  const same = (index.byBalance.get(`${line.currency}|${line.amount_minor}`) ?? []).filter(
    (c) => c.balance_minor === line.amount_minor,
  );
  if (same.length > 1) return unmatched(PROBLEMS.ambiguous_amount);
  if (!same.length) return unmatched(PROBLEMS.no_match);
  take(index, same[0], line.amount_minor);
  return {
    status: 'matched',
    problem: null,
    allocations: [{ invoice_id: same[0].id, amount_minor: line.amount_minor, source: 'amount' }],
  };
}

/** Lowers a candidate's balance and moves it in the by-balance index. */
function take(index: CandidateIndex, c: Candidate, amount: number) {
  const oldKey = `${c.currency}|${c.balance_minor}`;
  const list = index.byBalance.get(oldKey);
  if (list) {
    const rest = list.filter((x) => x.id !== c.id);
    if (rest.length !== list.length) {
      if (rest.length) index.byBalance.set(oldKey, rest);
      else index.byBalance.delete(oldKey);
      c.balance_minor -= amount;
      if (c.balance_minor > 0) {
        const key = `${c.currency}|${c.balance_minor}`;
        index.byBalance.set(key, [...(index.byBalance.get(key) ?? []), c]);
      }
      return;
    }
  }
  c.balance_minor -= amount;
}
