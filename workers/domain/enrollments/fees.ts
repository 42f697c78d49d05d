/**
 * The fee of an applicant (decided in docs/decisions/ordering.md, "Fees"): the contract's price (its custom
 * price when it has one, else its sale price) for each started unit of the product's term (a day, a
 * week, a month...; a product without a unit is priced per trip), counted over the trip length but at
 * least the minimum purchase; plus the tax of the campus's country on the booking date (a percentage of
 * the premium, or a flat amount per policy), and where that country applies stamp duty, the stamp duty of
 * the policy (workers/domain/invoices/taxes.ts: €1 when the premium is at least €20), its own amount in
 * the total. Net cost is the contract's net price counted the same way. Integer minor units throughout;
 * percentages round half up to the minor unit.
 */
import { premiumTax, stampDutyFor } from '../invoices/taxes';
import { tripDays } from './rules';

export interface Pricing {
  sale_minor: number;
  custom_minor: number | null;
  net_minor: number;
  currency: string;
  /** Days of the product's unit; null prices the whole trip once. */
  unit_days: number | null;
  /** Minimum days charged (the larger of the product's minimum purchase and the contract's min days). */
  min_days: number;
  /** The tax of the campus's country: basis points of the premium (1250 = 12.5 %), or a flat amount. */
  tax: { rate_bp: number | null; amount_minor: number | null } | null;
  /** The campus's country has its "stamp duty applicable" flag set. */
  stamp_duty?: boolean;
}

export interface Fee {
  days: number;
  units: number;
  premium_minor: number;
  net_minor: number;
  tax_minor: number;
  /** The rate tax_minor used, basis points; null for a flat tax or none. */
  tax_rate_bp: number | null;
  stamp_duty_minor: number;
  /** Premium + tax + stamp duty. */
  total_minor: number;
  currency: string;
}

export function feeFor(trip: { start_date: string; end_date: string }, p: Pricing): Fee {
  return feeForDays(tripDays(trip.start_date, trip.end_date), p);
}

/** The fee of a trip of `days` days (both ends counted): the fee depends on the trip's length only. */
export function feeForDays(days: number, p: Pricing): Fee {
  const charged = Math.max(days, p.min_days);
  const units = p.unit_days ? Math.ceil(charged / p.unit_days) : 1;
  const premium = (p.custom_minor ?? p.sale_minor) * units;
  const net = p.net_minor * units;
  const tax = premiumTax(premium, p.tax);
  const stamp = stampDutyFor(premium, p.currency, !!p.stamp_duty);
  return {
    days,
    units,
    premium_minor: premium,
    net_minor: net,
    tax_minor: tax.tax_minor,
    tax_rate_bp: tax.tax_rate_bp,
    stamp_duty_minor: stamp,
    total_minor: premium + tax.tax_minor + stamp,
    currency: p.currency,
  };
}

/** The sum of many fees (one currency: a batch has one contract). */
export function totalOf(fees: readonly Fee[], currency: string) {
  return fees.reduce(
    (t, f) => ({
      premium_minor: t.premium_minor + f.premium_minor,
      net_minor: t.net_minor + f.net_minor,
      tax_minor: t.tax_minor + f.tax_minor,
      stamp_duty_minor: t.stamp_duty_minor + f.stamp_duty_minor,
      total_minor: t.total_minor + f.total_minor,
      currency,
      count: t.count + 1,
    }),
    { premium_minor: 0, net_minor: 0, tax_minor: 0, stamp_duty_minor: 0, total_minor: 0, currency, count: 0 },
  );
}
