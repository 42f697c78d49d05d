/**
 * Taxes as the regions need them (decided in docs/decisions/billing.md, "Taxes per region"). Pure, so
 * checkout, amendments, periodic invoices and the property test agree to the minor unit.
 *
 * - The premium tax is the campus country's tax rate on the booking date (the `tax_rates` table: a rate
 *   in basis points of the premium, or a flat amount per policy). The UK's insurance premium tax and
 *   Ireland's 3 % levy on premiums are such rates; nothing here is specific to a country but its label
 *   (tax-lines.ts) and the stamp duty below.
 * - A rate is charged per policy (per line), rounded half up to the minor unit; an invoice's tax is the
 *   sum of its lines' taxes, never a rate applied to the invoice total.
 * - Stamp duty (Ireland): where the campus's country has its "stamp duty applicable" flag set, a fixed
 *   €1 per policy whose premium is at least €20. It is its own line, not taxed, not part of the premium.
 *   A policy priced in another currency pays none (the rule is in euro and converting is not ours to do).
 * - Credits (an amendment that shortens, a cancellation) are at the policy's original rate: the rate it
 *   was issued at (`policies.tax_rate_bp`), whatever the country's rate is today. The levy follows the
 *   premium: a premium given back takes its levy with it.
 * - Stamp duty is neither charged again on an extension nor refunded on a cancellation. The rule it
 *   follows: Ireland's Stamp Duties Consolidation Act 1999, s. 125C (in force since 1 April 2022; before,
 *   the Schedule 1 heading "Policy of insurance other than life insurance" charged the same €1 on the
 *   policy instrument): the insurer pays €1 for each non-life policy *issued* in a quarter whose premium
 *   is at least €20, counted when issued, with no deduction for a policy cancelled later. The duty was due
 *   on the policy once, so the client's €1 stays charged; the cancellation's credit note says so
 *   ("Stamp duty is not refundable", tax-lines.ts `stampDutyNotRefunded`).
 */

/** The stamp duty rule: amount, threshold and their currency. */
export const STAMP_DUTY = { amount_minor: 100, threshold_minor: 2000, currency: 'EUR' } as const;

/** A country's tax as the tax_rates table gives it: a rate (basis points) or a flat amount. */
export interface CountryTax {
  rate_bp: number | null;
  amount_minor: number | null;
}

/** The stamp duty of one policy: €1 when the country applies it and the premium reaches €20, else 0. */
export function stampDutyFor(premiumMinor: number, currency: string, applicable: boolean): number {
  if (!applicable || currency.toUpperCase() !== STAMP_DUTY.currency) return 0;
  return premiumMinor >= STAMP_DUTY.threshold_minor ? STAMP_DUTY.amount_minor : 0;
}

/** Half away from zero, so a credit of -0.5 rounds to -1 exactly as a charge of 0.5 rounds to 1. */
export function roundMinor(v: number): number {
  return Math.sign(v) * Math.round(Math.abs(v));
}

/** The tax of a rate in basis points on an amount (a premium, or a difference of premiums). */
export function taxAtRate(amountMinor: number, rateBp: number): number {
  return roundMinor((amountMinor * rateBp) / 10_000);
}

/** The premium tax of one policy and the rate it used (null for a flat tax or none). */
export function premiumTax(
  premiumMinor: number,
  tax: CountryTax | null,
): { tax_minor: number; tax_rate_bp: number | null } {
  if (!tax) return { tax_minor: 0, tax_rate_bp: null };
  if (tax.rate_bp != null)
    return { tax_minor: taxAtRate(premiumMinor, tax.rate_bp), tax_rate_bp: tax.rate_bp };
  return { tax_minor: tax.amount_minor ?? 0, tax_rate_bp: null };
}

/** The policy a premium difference is taxed for: what it was issued with. */
export interface TaxedPolicy {
  premium_minor: number;
  tax_minor: number;
  /** The rate it was issued at; null when flat, untaxed, or issued before rates were kept per policy. */
  tax_rate_bp?: number | null;
}

/**
 * The tax of a premium difference at the policy's original rate: its own rate when it has one; else (a
 * flat tax, or a policy issued before rates were kept) the proportion its tax bears to its premium.
 * `rate` is that proportion as a fraction (0.2 for 20 %), as policy transactions record it.
 */
export function taxAtOriginalRate(
  diff: number,
  policy: TaxedPolicy,
): { tax: number; rate: number; rate_bp: number | null } {
  if (policy.tax_rate_bp != null) {
    return {
      tax: taxAtRate(diff, policy.tax_rate_bp),
      rate: policy.tax_rate_bp / 10_000,
      rate_bp: policy.tax_rate_bp,
    };
  }
  if (!policy.premium_minor) return { tax: 0, rate: 0, rate_bp: null };
  return {
    tax: roundMinor((diff * policy.tax_minor) / policy.premium_minor),
    rate: Math.round((policy.tax_minor / policy.premium_minor) * 1e6) / 1e6,
    rate_bp: null,
  };
}
