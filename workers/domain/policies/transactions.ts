/**
 * Policy transactions: every change to an issued policy (issue, extension, trip dates, details, group
 * name, group leader, cancellation) is one append-only row with its effective date, the fields before and
 * after, the premium and tax difference, the tax rate used, the document version it leads to and who did
 * it. Rows are only ever inserted (no update or delete anywhere); the Logs tab of an insured reads them.
 *
 * Writing a change is two statements run in the caller's one D1 batch, so the change, its version and its
 * record land together or not at all:
 * - the policy's `version` goes up by one, guarded by the version the caller read (`expectedVersion`): if
 *   someone changed the policy meanwhile, the guarded update changes no row, so the transaction row's
 *   NOT NULL `document_version` (the new version only when `changes()` of that update is 1) refuses the
 *   insert, rolling the whole batch back;
 * - the transaction row, whose `document_version` is the new version.
 * Bulk changes (thousands of policies) write the same rows set-based from amendment lines; see
 * amendments/.
 */
import { sql } from 'drizzle-orm';
import type { PolicyTransactionKind } from '../../../drizzle/schema';
import type { DB, Statement } from '../../platform/db';

export interface PolicyChange {
  policy: { id: number; company_id: number; client_id: number; currency: string; version: number };
  kind: PolicyTransactionKind;
  /** YYYY-MM-DD the change takes effect. */
  effectiveDate: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  premiumDiffMinor?: number;
  taxDiffMinor?: number;
  taxRate?: number | null;
  invoiceId?: number | null;
  amendmentId?: number | null;
  userId: number | null;
  now: Date;
}

/**
 * The statements recording one change (run them in the same batch as the change itself, after it).
 * The change's own UPDATE of the policy must not touch `version`: these statements move it.
 */
export function recordChangeStatements(db: DB, change: PolicyChange): Statement[] {
  const p = change.policy;
  const json = (v: Record<string, unknown> | null) => (v === null ? null : JSON.stringify(v));
  return [
    db.run(
      sql`UPDATE policies SET version = version + 1, updated_at = ${change.now.getTime()}
        WHERE id = ${p.id} AND version = ${p.version}`,
    ),
    db.run(sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind, effective_date,
        before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, invoice_id,
        amendment_id, user_id, created_at)
      VALUES (lower(hex(randomblob(8))), ${p.id}, ${p.company_id}, ${p.client_id}, ${change.kind},
        ${change.effectiveDate}, ${json(change.before)}, ${json(change.after)}, ${change.premiumDiffMinor ?? 0},
        ${change.taxDiffMinor ?? 0}, ${change.taxRate ?? null}, ${p.currency},
        CASE WHEN changes() = 1 THEN ${p.version + 1} END,
        ${change.invoiceId ?? null}, ${change.amendmentId ?? null}, ${change.userId}, ${change.now.getTime()})`),
  ];
}
