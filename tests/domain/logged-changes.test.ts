/**
 * A logged change as the audit trail, the logs tabs and the export show it: money in its currency from
 * minor units, days in the portal's date format, enum codes by their translated names, and a new
 * record's values without an empty "before".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { describeChange } from '../../app/lib/logged-changes';
import { loadLanguages, translate } from '../../workers/platform/i18n';

const en = (key: string) => translate('en', key);
const de = (key: string) => translate('de', key);

describe('describeChange', () => {
  beforeAll(() => loadLanguages(['de']));

  it('shows money stored in minor units in the row currency, labelled by the amount', () => {
    const gbp = describeChange(
      en,
      { field: 'paid_minor', before: 0, after: 22800 },
      {
        entity_type: 'invoice',
        currency: 'GBP',
      },
    );
    expect(gbp).toEqual({ field: 'paid_minor', label: 'Paid', before: '£0.00', after: '£228.00' });
    const eur = describeChange(
      en,
      { field: 'total_minor', after: 123456 },
      { entity_type: 'invoice', currency: 'EUR' },
    );
    expect(eur.after).toBe('€1,234.56');
    expect(eur.label).toBe('Total');
  });

  it('shows a day as a date and a moment as a date and time', () => {
    expect(
      describeChange(en, { field: 'paid_on', after: '2026-11-21' }, { entity_type: 'invoice' }),
    ).toMatchObject({
      label: 'Payment date',
      after: '21/11/2026',
    });
    expect(
      describeChange(en, { field: 'due_at', after: '2026-12-05' }, { entity_type: 'invoice' }).after,
    ).toBe('05/12/2026');
  });

  it("shows a role's permissions by their labels, as the privileges matrix names them", () => {
    const change = { field: 'removed', after: ['read_billing', 'read_monthly_policy_report'] };
    expect(describeChange(en, change, { entity_type: 'role' }).after).toBe(
      'Billing: View, Reports: Monthly policy report and admin reports',
    );
    const german = describeChange(de, { field: 'added', after: ['read_billing'] }, { entity_type: 'role' });
    expect(german.after).toBe(`${de('roles.groups.billing')}: ${de('roles.verbs.read')}`);
    expect(german.after).not.toContain('read_billing');
  });

  it('shows enum codes by their names, in the reader language', () => {
    const method = { field: 'method', before: 'cheque', after: 'bank_transfer' };
    expect(describeChange(en, method, { entity_type: 'invoice' })).toMatchObject({
      label: 'Received via',
      before: 'Cheque',
      after: 'Bank transfer',
    });
    expect(describeChange(de, method, { entity_type: 'invoice' }).after).toBe('Banküberweisung');
    expect(
      describeChange(en, { field: 'status', after: 'partly_paid' }, { entity_type: 'invoice' }).after,
    ).toBe('Partly paid');
    // A client's payment terms come from the client's own names.
    expect(
      describeChange(en, { field: 'payment_terms', after: 'invoiced_directly' }, { entity_type: 'client' })
        .after,
    ).toBe('Invoiced directly');
  });

  it('lists a new record values with nothing before', () => {
    const created = describeChange(
      en,
      { field: 'number', before: null, after: 'INV-0001' },
      { entity_type: 'invoice' },
    );
    expect(created).toEqual({ field: 'number', label: 'Number', before: null, after: 'INV-0001' });
    const absent = describeChange(
      en,
      { field: 'note', after: 'Paid by the school' },
      { entity_type: 'invoice' },
    );
    expect(absent.before).toBeNull();
  });

  it('humanises what has no name yet and keeps a value it cannot format', () => {
    expect(describeChange(en, { field: 'some_flag', after: true }, {})).toEqual({
      field: 'some_flag',
      label: 'Some flag',
      before: null,
      after: 'Yes',
    });
    expect(describeChange(en, { field: 'amount_minor', after: 500 }, { currency: null }).after).toBe('500');
  });
});
