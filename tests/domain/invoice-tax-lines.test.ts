/** The tax lines of an invoice (workers/domain/invoices/tax-lines.ts): by rate, labelled by region, stamp duty apart. */
import { describe, expect, it } from 'vitest';
import { invoiceTaxLines, taxLabel } from '../../workers/domain/invoices/tax-lines';

const item = (base: number, tax: number, rate: number | null, stamp = 0) => ({
  base_minor: base,
  tax_minor: tax,
  tax_rate_bp: rate,
  stamp_duty_minor: stamp,
});

describe('invoice tax lines', () => {
  it('names the tax by region', () => {
    expect(taxLabel('GB')).toBe('taxes.lines.ipt');
    expect(taxLabel('GBR')).toBe('taxes.lines.ipt');
    expect(taxLabel('ie')).toBe('taxes.lines.levy');
    expect(taxLabel('IRL')).toBe('taxes.lines.levy');
    expect(taxLabel('FR')).toBe('taxes.lines.tax');
    expect(taxLabel(null)).toBe('taxes.lines.tax');
  });

  it('groups items by the rate they used, highest first, flat taxes last, and adds the stamp duty', () => {
    const lines = invoiceTaxLines(
      [
        item(10_000, 300, 300, 100),
        item(5000, 150, 300, 100),
        item(1500, 0, 300, 0),
        item(4000, 200, 500),
        item(900, 50, null),
      ],
      'IE',
    );
    expect(lines).toEqual([
      { kind: 'tax', label: 'taxes.lines.levy', rate_bp: 500, base_minor: 4000, amount_minor: 200 },
      { kind: 'tax', label: 'taxes.lines.levy', rate_bp: 300, base_minor: 15_000, amount_minor: 450 },
      { kind: 'tax', label: 'taxes.lines.levy', rate_bp: null, base_minor: 900, amount_minor: 50 },
      { kind: 'stamp_duty', label: 'taxes.lines.stamp_duty', count: 2, amount_minor: 200 },
    ]);
  });

  it('gives no line for an invoice without tax', () => {
    expect(invoiceTaxLines([item(1000, 0, null)], 'GB')).toEqual([]);
  });
});
