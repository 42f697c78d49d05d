/**
 * The tax lines of an invoice ("each line keeps the tax rate it used"; taxes as the regions need
 * them): one line per tax rate over the items that used it, with the base it was charged on, and the
 * stamp duty as a line of its own. Pure: the invoice page, its PDF and Excel and the statements show the
 * same lines. Labels are message keys of the `taxes` namespace, named by the region's tax: the UK's
 * insurance premium tax, Ireland's levy on premiums, any other country's tax.
 */

export interface TaxedItem {
  /** The premium (or difference) the tax was charged on: unit × quantity, minor units. */
  base_minor: number;
  tax_minor: number;
  /** Basis points (2000 = 20 %); null for a flat tax. */
  tax_rate_bp: number | null;
  stamp_duty_minor: number;
}

export type TaxLine =
  | { kind: 'tax'; label: string; rate_bp: number | null; base_minor: number; amount_minor: number }
  | { kind: 'stamp_duty'; label: string; count: number; amount_minor: number };

/** The message key naming a country's premium tax (the ISO 3166 alpha-2 or alpha-3 code of the country). */
export function taxLabel(countryCode: string | null | undefined): string {
  switch ((countryCode ?? '').toUpperCase()) {
    case 'GB':
    case 'GBR':
    case 'UK':
      return 'taxes.lines.ipt';
    case 'IE':
    case 'IRL':
      return 'taxes.lines.levy';
    default:
      return 'taxes.lines.tax';
  }
}

/** The tax lines of these items: by rate (highest first, flat taxes last), then the stamp duty. */
export function invoiceTaxLines(
  items: readonly TaxedItem[],
  countryCode: string | null | undefined,
): TaxLine[] {
  const byRate = new Map<number | null, { base: number; amount: number }>();
  let stampCount = 0;
  let stamp = 0;
  for (const item of items) {
    if (item.tax_minor !== 0) {
      const line = byRate.get(item.tax_rate_bp) ?? { base: 0, amount: 0 };
      line.base += item.base_minor;
      line.amount += item.tax_minor;
      byRate.set(item.tax_rate_bp, line);
    }
    if (item.stamp_duty_minor !== 0) {
      stampCount += Math.sign(item.stamp_duty_minor);
      stamp += item.stamp_duty_minor;
    }
  }
  const label = taxLabel(countryCode);
  const lines: TaxLine[] = [...byRate.entries()]
    .sort(([a], [b]) => (b ?? -1) - (a ?? -1))
    .map(([rate, l]) => ({ kind: 'tax', label, rate_bp: rate, base_minor: l.base, amount_minor: l.amount }));
  if (stamp !== 0)
    lines.push({
      kind: 'stamp_duty',
      label: 'taxes.lines.stamp_duty',
      count: stampCount,
      amount_minor: stamp,
    });
  return lines;
}

/** The stamp duty a credit note does not give back: how many policies, and their duty. */
export interface StampDutyNotRefunded {
  count: number;
  amount_minor: number;
}

/**
 * What a cancellation's credit note leaves of its policies' stamp duty (taxes.ts: the duty is not
 * refundable): per cancelled policy, the duty it was charged less any the note credits. Null when none
 * is left, so only a note that keeps stamp duty says so.
 */
export function stampDutyNotRefunded(
  policies: readonly { charged_minor: number; credited_minor: number }[],
): StampDutyNotRefunded | null {
  let count = 0;
  let amount = 0;
  for (const p of policies) {
    const kept = p.charged_minor - p.credited_minor;
    if (kept <= 0) continue;
    count += 1;
    amount += kept;
  }
  return count ? { count, amount_minor: amount } : null;
}
