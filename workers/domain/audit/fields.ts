/**
 * What kind of value each logged field holds, so the audit trail, every logs tab and the export show it
 * the way the rest of the portal does: money in its currency, days as dates, an enum by its name. Pure
 * (no database, no zod): the browser loads it with the logs.
 *
 * A field's kind is found in its entity's own entries, then in the shared ones, then by its name's
 * ending (`_minor` money in minor units, `_bp` basis points, `_date`/`_on` days, `_at` moments).
 * Anything else is shown as it was stored.
 */

export type LoggedFieldKind =
  /** Money: `minor` in minor units (pence, cents) as stored; otherwise already in major units. */
  | { kind: 'money'; minor: boolean }
  | { kind: 'date' }
  /** A moment; a bare YYYY-MM-DD day in such a field reads as a date. */
  | { kind: 'datetime' }
  | { kind: 'percent_bp' }
  /** A permission's code shown by its group and verb, as the privileges matrix names it ("Billing: View"). */
  | { kind: 'permission' }
  /** A stored code shown by its name: `labels` is the locale key prefix of its values. */
  | { kind: 'enum'; labels: string }
  /** An invoice's or credit note's number, shown as a link to it. */
  | { kind: 'invoice_number' }
  | { kind: 'text' };

const minor = { kind: 'money', minor: true } as const;
const major = { kind: 'money', minor: false } as const;
const date = { kind: 'date' } as const;
const enumOf = (labels: string) => ({ kind: 'enum', labels }) as const;
const permission = { kind: 'permission' } as const;

/** Fields whose kind holds whatever entity logged them. */
const SHARED: Record<string, LoggedFieldKind> = {
  period_from: date,
  period_to: date,
  valid_from: date,
  valid_to: date,
  language: enumOf('clients.languages'),
  preferred_lang: enumOf('clients.languages'),
  note_type: enumOf('notes.types'),
  note_source: enumOf('notes.sources'),
};

/** Fields whose kind depends on the entity (a client's status is not an invoice's). */
const BY_ENTITY: Record<string, Record<string, LoggedFieldKind>> = {
  invoice: {
    status: enumOf('invoices.statuses'),
    invoice_status: enumOf('invoices.statuses'),
    type: enumOf('invoices.types'),
    payment_method: enumOf('invoices.methods'),
    method: enumOf('payments.methods'),
    kind: enumOf('payments.kinds'),
    outcome: enumOf('payments.statuses'),
    // A credit note and the invoice it credits name each other by number.
    credit_note: { kind: 'invoice_number' },
    credit_for: { kind: 'invoice_number' },
  },
  client: {
    type: enumOf('clients.types'),
    status: enumOf('clients.statuses'),
    payment_terms: enumOf('clients.payment_terms'),
    payment_method: enumOf('clients.payment_methods'),
    payment_frequency: enumOf('clients.payment_frequencies'),
    invoice_rule: enumOf('clients.invoice_rules'),
    fact_find_typical_trip_length: enumOf('clients.fact_find.options'),
    fact_find_renewal_month: enumOf('clients.fact_find.options'),
    fact_find_group_trips_abroad: enumOf('clients.fact_find.options'),
  },
  campus: {
    status: enumOf('campuses.statuses'),
    payment_terms: enumOf('clients.payment_terms'),
  },
  contract: { status: enumOf('contracts.statuses') },
  // A credit allocated to an invoice by hand names the invoice by its number.
  bank_statement: { invoice: { kind: 'invoice_number' } },
  policy: { status: enumOf('insureds.statuses') },
  // A role's permissions: the whole lists, and what was added and removed.
  role: { permissions: permission, added: permission, removed: permission },
  product: {
    status: enumOf('products.statuses'),
    net: major,
    sale: major,
    custom: major,
    max_coverage_amount: major,
  },
};

/** The kind of a field `entityType` logged. */
export function loggedFieldKind(entityType: string | null | undefined, field: string): LoggedFieldKind {
  const own = entityType ? BY_ENTITY[entityType]?.[field] : undefined;
  if (own) return own;
  if (SHARED[field]) return SHARED[field];
  if (field.endsWith('_minor')) return minor;
  if (field.endsWith('_bp')) return { kind: 'percent_bp' };
  if (field.endsWith('_date') || field.endsWith('_on') || field === 'date_of_birth') return date;
  if (field.endsWith('_at')) return { kind: 'datetime' };
  return { kind: 'text' };
}

/** The name a field reads by: money in minor units is named by the amount ("paid_minor" → "paid"). */
export function loggedFieldName(field: string): string {
  return field.endsWith('_minor') ? field.slice(0, -'_minor'.length) : field;
}
