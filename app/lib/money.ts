/** Money as the portal shows it: en-GB formatting in the amount's own currency (spec 000 s.1). */

/** 1234.5 GBP → "£1,234.50"; '—' for no amount; an unknown currency code after the number. */
export function formatMoney(amount: number | null | undefined, currency: string): string {
  if (amount == null) return '—';
  try {
    let f = formats.get(currency);
    if (!f) formats.set(currency, (f = new Intl.NumberFormat('en-GB', { style: 'currency', currency })));
    return f.format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

// One formatter per currency: making one is far dearer than formatting (a page of 200 amounts).
const formats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units (pence, cents), as stored for orders and invoices: 9500 GBP → "£95.00". */
export function formatMinor(minor: number | null | undefined, currency: string): string {
  return formatMoney(minor == null ? minor : minor / 100, currency);
}
