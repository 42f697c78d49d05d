import { describe, expect, it } from 'vitest';
import {
  PRODUCT_CLAIM_KEYS,
  PRODUCT_DETAIL_KEYS,
  PRODUCT_REQUIRED_KEYS,
  PRODUCT_TABS,
  coverageLimitsSchema,
  documentAddSchema,
  priceUpdateSchema,
  productClaimSchema,
  productDetailsSchema,
  withCleared,
} from '../../workers/domain/products/tabs';

const details = {
  code: 'abc1',
  name: 'Study Abroad Cover',
  effective_start_date: '2030-01-01',
  min_purchase_days: '6',
  currency: 'GBP',
};

const failedPaths = (result: { success: boolean; error?: { issues: { path: (string | number)[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.path.join('.'));

describe('product tabs', () => {
  it('opens on the details tab and ends with the logs', () => {
    expect(PRODUCT_TABS[0]).toBe('details');
    expect(PRODUCT_TABS.at(-1)).toBe('logs');
    expect(new Set(PRODUCT_TABS).size).toBe(PRODUCT_TABS.length);
  });

  it('gives each editable field to one tab only', () => {
    const shared = PRODUCT_DETAIL_KEYS.filter((k) => (PRODUCT_CLAIM_KEYS as readonly string[]).includes(k));
    expect(shared).toEqual([]);
  });

  it('accepts the details with only the required fields', () => {
    const parsed = productDetailsSchema.safeParse(details);
    expect(failedPaths(parsed)).toEqual([]);
    expect(parsed.data?.code).toBe('ABC1');
  });

  it.each(PRODUCT_REQUIRED_KEYS)('refuses the details without %s', (key) => {
    const { [key]: _left, ...rest } = details;
    expect(failedPaths(productDetailsSchema.safeParse(rest))).toContain(key);
  });

  it('keeps the details rules between fields: the end date not before the start date', () => {
    const parsed = productDetailsSchema.safeParse({ ...details, effective_end_date: '2029-12-31' });
    expect(failedPaths(parsed)).toEqual(['effective_end_date']);
  });

  it('takes only its own fields in the claim tab', () => {
    const parsed = productClaimSchema.safeParse({ claim_email: 'claims@example.com', name: 'Other' });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ claim_email: 'claims@example.com' });
  });

  it('refuses more than 50 cover limits', () => {
    const row = { benefit: 'Medical', limit: '£1m' };
    expect(coverageLimitsSchema.safeParse({ coverage_limits: Array(50).fill(row) }).success).toBe(true);
    expect(failedPaths(coverageLimitsSchema.safeParse({ coverage_limits: Array(51).fill(row) }))).toEqual([
      'coverage_limits',
    ]);
  });

  it('names the price a price update changes', () => {
    expect(
      failedPaths(priceUpdateSchema.safeParse({ min_days: 6, max_days: 30, net: 10, sale: 12 })),
    ).toContain('price_id');
  });

  it('lets a document upload carry its file through to the documents service', () => {
    const file = new File(['%PDF-1.4'], 'wording.pdf', { type: 'application/pdf' });
    const parsed = documentAddSchema.safeParse({
      type: 'policy_wording',
      language: 'en',
      title: 'Wording',
      visibility: 'clients',
      file,
    });
    expect(failedPaths(parsed)).toEqual([]);
    expect(parsed.data?.file).toBe(file);
  });

  it('clears the optional fields a tab left empty instead of keeping them', () => {
    expect(withCleared({ code: 'A1', scheme: undefined }, ['code', 'scheme', 'type'])).toEqual({
      code: 'A1',
      scheme: null,
      type: null,
    });
  });
});
