/**
 * A logged change as a person reads it: the field's label and its values by the field's kind
 * (workers/domain/audit/fields.ts): money in its currency, days in the portal's date format, enums by
 * their names, yes/no, lists and nested values in words. The one wording of the audit trail, every logs
 * tab and the audit export; `t` is the page's translator or the server's.
 */
import { loggedFieldKind, loggedFieldName, type LoggedFieldKind } from '@server/domain/audit/fields';
import { groupOf, isPermission } from '@server/domain/access/permissions';
import { permissionVerb } from '@server/domain/roles/verbs';
import { formatMinor, formatMoney } from './money';
import { formatDate, formatDateTime } from './dates';

/** A translator that answers the key itself when the locale has no text for it (i18next's and the server's). */
export type Translate = (key: string) => string;

export interface LoggedChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

/**
 * A change in words. `before` is null when there was nothing before (a new record, a value first set)
 * or it did not change.
 */
export interface LoggedChangeText {
  field: string;
  label: string;
  before: string | null;
  after: string;
}

export function humanize(key: string): string {
  const text = key.replace(/[._]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The first of `keys` the locale has, else `fallback`. */
export function firstOf(t: Translate, keys: string[], fallback: string): string {
  for (const key of keys) {
    const text = t(key);
    if (text && text !== key) return text;
  }
  return fallback;
}

function valueOf(t: Translate, kind: LoggedFieldKind, value: unknown, currency: string | null): string {
  if (isEmpty(value)) return t('activity.empty_value');
  if (typeof value === 'boolean') return value ? t('activity.yes') : t('activity.no');
  if (Array.isArray(value)) return value.map((v) => valueOf(t, kind, v, currency)).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => !isEmpty(v))
      .map(([k, v]) => `${humanize(k)}: ${valueOf(t, { kind: 'text' }, v, currency)}`)
      .join('; ');
  switch (kind.kind) {
    case 'money':
      if (typeof value !== 'number' || !currency) break;
      return kind.minor ? formatMinor(value, currency) : formatMoney(value, currency);
    case 'percent_bp':
      if (typeof value !== 'number') break;
      return `${(value / 100).toLocaleString('en-GB', { maximumFractionDigits: 2 })} %`;
    case 'date':
    case 'datetime': {
      const moment = typeof value === 'number' ? new Date(value) : new Date(String(value));
      if (Number.isNaN(moment.getTime())) break;
      return kind.kind === 'date' || (typeof value === 'string' && DAY.test(value))
        ? formatDate(typeof value === 'string' && DAY.test(value) ? value : moment)
        : formatDateTime(moment);
    }
    case 'permission':
      if (typeof value !== 'string' || !isPermission(value)) break;
      return `${t(`roles.groups.${groupOf(value)}`)}: ${t(`roles.verbs.${permissionVerb(groupOf(value), value)}`)}`;
    case 'enum':
      if (typeof value !== 'string') break;
      return firstOf(t, [`${kind.labels}.${value}`], humanize(value));
  }
  return String(value);
}

/**
 * One logged change in words. `labels` are an area's own field names (a product's price columns), taken
 * before the shared ones (`activity.fields.*`, then the audit trail's `audit.fields.*`).
 */
export function describeChange(
  t: Translate,
  change: LoggedChange,
  row: { entity_type?: string | null; currency?: string | null },
  labels: Record<string, string> = {},
): LoggedChangeText {
  const { field } = change;
  const kind = loggedFieldKind(row.entity_type, field);
  const name = loggedFieldName(field);
  const label =
    labels[field] ??
    firstOf(
      t,
      [`activity.fields.${field}`, `audit.fields.${field}`, `activity.fields.${name}`],
      humanize(name),
    );
  const currency = row.currency ?? null;
  // Nothing before (a new record, a value first set), or the same as after (a value logged for
  // context): the value reads once.
  const unchanged = JSON.stringify(change.before) === JSON.stringify(change.after);
  return {
    field,
    label,
    before: isEmpty(change.before) || unchanged ? null : valueOf(t, kind, change.before, currency),
    after: valueOf(t, kind, change.after, currency),
  };
}
