/**
 * Pricing an amendment's lines (pure, so 5000 lines are priced in memory in milliseconds and the rules
 * are tested without a database). Decided in docs/decisions/after-the-sale.md, "Amendments":
 *
 * - The premium difference is the contract's price for the new trip length less its price for the old
 *   length (fees.ts, `feeForDays`: the contract's custom or sale price per started unit of the product's
 *   term, at least the minimum purchase). Moving a trip without changing its length costs nothing, and a
 *   contract price changed after the sale does not reprice what was sold.
 * - Tax is at the policy's original rate (the rate it was issued at, `policies.tax_rate_bp`; for a flat
 *   tax or a policy issued before rates were kept, its tax over its premium), rounded per line half away
 *   from zero, so a credit mirrors a charge exactly (workers/domain/invoices/taxes.ts).
 * - A cancellation credits the whole premium and its tax. Stamp duty is neither charged again on an
 *   extension nor refunded on a cancellation: it was due once, on the policy (docs/decisions/after-the-sale.md).
 * - The product's limits (minimum purchase, maximum term, how far ahead a trip may start, its cover period
 *   and the contract's, the insured's age at the start) are line errors, as are cancelled insureds and
 *   cancelling a policy that has started.
 */
import type { AmendmentKind } from '../../../../drizzle/schema/policy-enums';
import { feeForDays, type Pricing } from '../../enrollments/fees';
import { taxAtOriginalRate } from '../../invoices/taxes';
import { ageOn, tripDays } from '../../enrollments/rules';
import { britishDate, msg, parseMessage } from '../../validation';

export interface LineError {
  message: string;
  params?: Record<string, string | number>;
}

/** What pricing needs of a contract: its prices (no tax: tax follows the original premium) and limits. */
export interface ContractTerms {
  pricing: Pricing;
  product: {
    min_purchase_days: number;
    max_term_days: number | null;
    insured_age_min: number | null;
    insured_age_max: number | null;
    max_enrolment_period_days: number | null;
    effective_start_date: string;
    effective_end_date: string | null;
  };
  contract: { start_date: string; end_date: string | null; min_days: number };
}

/** The policy a line is for, as it is now. */
export interface LinePolicy {
  status: 'issued' | 'cancelled';
  start_date: string;
  end_date: string;
  date_of_birth: string;
  premium_minor: number;
  tax_minor: number;
  /** The rate the policy was issued at (basis points); null for a flat tax, none, or before 0009. */
  tax_rate_bp?: number | null;
}

export { taxAtOriginalRate };

export interface PricedLine {
  new_start_date: string | null;
  new_end_date: string | null;
  new_premium_minor: number | null;
  premium_diff_minor: number;
  tax_diff_minor: number;
  tax_rate: number;
  errors: LineError[];
}

export interface AmendmentRequest {
  kind: AmendmentKind;
  new_start_date?: string;
  new_end_date?: string;
}

const err = (message: string): LineError => {
  const { key, params } = parseMessage(message);
  return Object.keys(params).length ? { message: key, params } : { message: key };
};

function dayNumber(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
}

/** The premium of a trip of `days` days under the contract (no tax). */
export function premiumFor(days: number, terms: ContractTerms): number {
  return feeForDays(days, { ...terms.pricing, tax: null, stamp_duty: false }).premium_minor;
}

/**
 * The price band a trip of `days` days falls in under the contract: the trip lengths that cost the same
 * (fees.ts charges per started unit of the product's term, at least the minimum purchase). A band of one
 * unit of a weekly product is e.g. 36 to 42 days; lengths up to the minimum purchase share its band; a
 * product priced per trip has one band for every length (`max_days` null). It explains a quote of no
 * charge for a longer trip: the new length stays in the old length's band.
 */
export function priceBand(
  days: number,
  pricing: Pick<Pricing, 'unit_days' | 'min_days'>,
): { min_days: number; max_days: number | null } {
  if (!pricing.unit_days) return { min_days: 1, max_days: null };
  const unit = pricing.unit_days;
  const floorUnits = Math.max(1, Math.ceil(pricing.min_days / unit));
  const units = Math.max(floorUnits, Math.ceil(Math.max(days, 1) / unit));
  return { min_days: units === floorUnits ? 1 : (units - 1) * unit + 1, max_days: units * unit };
}

/** Prices one line of an amendment and lists why it cannot be applied. */
export function priceLine(
  policy: LinePolicy,
  request: AmendmentRequest,
  terms: ContractTerms,
  ctx: { today: string; allowPastStartDate: boolean },
): PricedLine {
  const errors: LineError[] = [];
  const { today } = ctx;
  if (policy.status === 'cancelled') errors.push(err(msg('amendments.errors.cancelled')));

  if (request.kind === 'cancel') {
    if (policy.status !== 'cancelled' && policy.start_date <= today)
      errors.push(err(msg('amendments.errors.cancel_started')));
    const { rate } = taxAtOriginalRate(0, policy);
    return {
      new_start_date: null,
      new_end_date: null,
      new_premium_minor: 0,
      premium_diff_minor: -policy.premium_minor,
      tax_diff_minor: -policy.tax_minor,
      tax_rate: rate,
      errors,
    };
  }

  const start = request.kind === 'extend' ? policy.start_date : request.new_start_date!;
  const end = request.new_end_date!;
  if (policy.status !== 'cancelled') {
    if (policy.end_date < today) errors.push(err(msg('amendments.errors.expired')));
    if (request.kind === 'extend' && end <= policy.end_date)
      errors.push(err(msg('amendments.errors.not_later', { date: britishDate(policy.end_date) })));
    if (start !== policy.start_date && policy.start_date <= today)
      errors.push(err(msg('amendments.errors.started')));
    if (start !== policy.start_date && start < today && !ctx.allowPastStartDate)
      errors.push(err(msg('validation.start_not_past')));
    if (end < today) errors.push(err(msg('amendments.errors.end_past')));
    if (end < start) errors.push(err(msg('validation.end_after_start')));
  }

  const { product, contract } = terms;
  const days = Math.max(0, tripDays(start, end));
  if (start !== policy.start_date && product.max_enrolment_period_days != null) {
    if (dayNumber(start) - dayNumber(today) > product.max_enrolment_period_days)
      errors.push(err(msg('enrollments.errors.start_too_far', { days: product.max_enrolment_period_days })));
  }
  const coverStart =
    contract.start_date > product.effective_start_date ? contract.start_date : product.effective_start_date;
  const coverEnd = [contract.end_date, product.effective_end_date].filter((d): d is string => !!d).sort()[0];
  if (start < coverStart)
    errors.push(err(msg('enrollments.errors.before_cover', { date: britishDate(coverStart) })));
  if (coverEnd && end > coverEnd)
    errors.push(err(msg('enrollments.errors.after_cover', { date: britishDate(coverEnd) })));
  const minimum = Math.max(product.min_purchase_days, contract.min_days);
  if (end >= start && days < minimum) errors.push(err(msg('enrollments.errors.min_days', { days: minimum })));
  if (product.max_term_days != null && days > product.max_term_days)
    errors.push(err(msg('enrollments.errors.max_days', { days: product.max_term_days })));
  const age = ageOn(policy.date_of_birth, start);
  if (product.insured_age_min != null && age < product.insured_age_min)
    errors.push(err(msg('enrollments.errors.age_min', { age: product.insured_age_min })));
  if (product.insured_age_max != null && age > product.insured_age_max)
    errors.push(err(msg('enrollments.errors.age_max', { age: product.insured_age_max })));

  const oldDays = tripDays(policy.start_date, policy.end_date);
  const diff = days >= 1 ? premiumFor(days, terms) - premiumFor(oldDays, terms) : 0;
  const { tax, rate } = taxAtOriginalRate(diff, policy);
  return {
    new_start_date: start,
    new_end_date: end,
    new_premium_minor: policy.premium_minor + diff,
    premium_diff_minor: diff,
    tax_diff_minor: tax,
    tax_rate: rate,
    errors,
  };
}
