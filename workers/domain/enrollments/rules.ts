/**
 * Every rule an applicant must pass before it can be bought (spec 001 section 5), as pure functions so
 * the single add form, the API's validate calls and the spreadsheet staging job (5000 rows at a time)
 * run the very same code:
 * - the applicant's own fields (schema.ts);
 * - the product's and the contract's limits: minimum purchase, maximum term, age at the start of the
 *   trip, how far ahead a trip may start, the contract's and the product's periods, past start dates
 *   only with `allow_past_start_date`, the passport where the destination country requires one;
 * - the rules across the applicants of one batch: duplicates with the same trip dates, family members
 *   linked to a student of the batch, group leaders that are group leaders of the batch.
 * Each problem is an EnrollmentError (field and message key), stored with the enrollment.
 */
import type { EnrollmentError } from '../../../drizzle/schema/ordering-enums';
import { britishDate, msg, parseMessage } from '../validation';
import { dayNumber, tripDays } from './values';

export { tripDays };
import {
  applicantCrossIssues,
  applicantFields,
  applicantSchema,
  fieldFastAccept,
  type ApplicantInput,
} from './schema';

/** What the rules need to know about the product, the contract and the countries. */
export interface RuleContext {
  today: string;
  allowPastStartDate: boolean;
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
  /** Ids of the countries an applicant may name (active countries). */
  countryIds: ReadonlySet<number>;
  /** Ids of the countries that require a passport number. */
  passportCountryIds: ReadonlySet<number>;
}

export interface CheckedApplicant {
  /** The parsed applicant when its own fields are valid; otherwise null. */
  value: ApplicantInput | null;
  errors: EnrollmentError[];
}

/** The day number (days since 1970-01-01) of a YYYY-MM-DD date: calendar arithmetic with no time zone. */
/** Age in whole years on a date. */
export function ageOn(dateOfBirth: string, on: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

const error = (field: string, message: string): EnrollmentError => {
  const { key, params } = parseMessage(message);
  return Object.keys(params).length ? { field, message: key, params } : { field, message: key };
};

/** The applicant's own fields, then the product's and the contract's limits. */
export function checkApplicant(raw: unknown, rc: RuleContext): CheckedApplicant {
  const parsed = applicantSchema.safeParse(raw);
  if (!parsed.success) {
    const seen = new Set<string>();
    const errors: EnrollmentError[] = [];
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'row');
      if (seen.has(field)) continue;
      seen.add(field);
      errors.push(error(field, issue.message));
    }
    return { value: null, errors };
  }
  return { value: parsed.data, errors: limitErrors(parsed.data, rc) };
}

const FIELD_NAMES = Object.keys(applicantFields) as (keyof typeof applicantFields)[];
type FieldResult = { success: true; data: unknown } | { success: false };
/** Each rule context's memo of field results by field and value (see checkApplicantFast). */
const fieldMemos = new WeakMap<RuleContext, Map<string, Map<unknown, FieldResult>>>();
const MAX_MEMO = 20_000;

/**
 * checkApplicant for many applicants checked against the same rules (a spreadsheet's 5000 rows): each
 * field is parsed by its own schema and its result remembered by value, since most values repeat down a
 * sheet (types, countries, trip dates, empty cells). A row whose fields all parse and pass the rules
 * between them is the result the whole schema would give; any other row is checked by the whole schema,
 * so its errors are exactly checkApplicant's.
 */
export function checkApplicantFast(raw: unknown, rc: RuleContext): CheckedApplicant {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return checkApplicant(raw, rc);
  let memo = fieldMemos.get(rc);
  if (!memo) fieldMemos.set(rc, (memo = new Map(FIELD_NAMES.map((f) => [f, new Map()]))));
  const input = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const value = input[field];
    if (typeof value === 'string' && fieldFastAccept[field]?.(value)) {
      out[field] = value;
      continue;
    }
    // Remembered by the value itself: strings, numbers, booleans and nullish values compare by value
    // (and "1" is not 1); objects are parsed every time.
    const keyed = value == null || typeof value !== 'object';
    const results = memo.get(field)!;
    let result = keyed ? results.get(value) : undefined;
    if (!result) {
      const parsed = applicantFields[field].safeParse(value);
      result = parsed.success ? { success: true, data: parsed.data } : { success: false };
      if (keyed && results.size < MAX_MEMO) results.set(value, result);
    }
    if (!result.success) return checkApplicant(raw, rc);
    if (result.data !== undefined || field in input) out[field] = result.data;
  }
  if (applicantCrossIssues(out).length) return checkApplicant(raw, rc);
  const value = out as ApplicantInput;
  return { value, errors: limitErrors(value, rc) };
}

function limitErrors(a: ApplicantInput, rc: RuleContext): EnrollmentError[] {
  const out: EnrollmentError[] = [];
  const { product, contract, today } = rc;

  if (a.date_of_birth >= today) out.push(error('date_of_birth', msg('validation.dob_past')));
  else if (ageOn(a.date_of_birth, today) > 200)
    out.push(error('date_of_birth', msg('validation.date_invalid')));

  for (const field of ['residence_country_id', 'destination_country_id'] as const)
    if (!rc.countryIds.has(a[field])) out.push(error(field, msg('enrollments.errors.country')));
  if (!a.passport_number && rc.passportCountryIds.has(a.destination_country_id))
    out.push(error('passport_number', msg('enrollments.errors.passport_required')));

  if (a.start_date < today && !rc.allowPastStartDate)
    out.push(error('start_date', msg('validation.start_not_past')));
  if (product.max_enrolment_period_days != null) {
    const ahead = dayNumber(a.start_date) - dayNumber(today);
    if (ahead > product.max_enrolment_period_days)
      out.push(
        error(
          'start_date',
          msg('enrollments.errors.start_too_far', { days: product.max_enrolment_period_days }),
        ),
      );
  }
  const coverStart =
    contract.start_date > product.effective_start_date ? contract.start_date : product.effective_start_date;
  const ends = [contract.end_date, product.effective_end_date].filter((d): d is string => !!d).sort();
  const coverEnd = ends[0] ?? null;
  if (a.start_date < coverStart)
    out.push(error('start_date', msg('enrollments.errors.before_cover', { date: britishDate(coverStart) })));
  if (coverEnd && a.end_date > coverEnd)
    out.push(error('end_date', msg('enrollments.errors.after_cover', { date: britishDate(coverEnd) })));

  const days = tripDays(a.start_date, a.end_date);
  const minimum = Math.max(product.min_purchase_days, contract.min_days);
  if (days < minimum) out.push(error('end_date', msg('enrollments.errors.min_days', { days: minimum })));
  if (product.max_term_days != null && days > product.max_term_days)
    out.push(error('end_date', msg('enrollments.errors.max_days', { days: product.max_term_days })));

  if (a.date_of_birth < today) {
    const age = ageOn(a.date_of_birth, a.start_date);
    if (product.insured_age_min != null && age < product.insured_age_min)
      out.push(error('date_of_birth', msg('enrollments.errors.age_min', { age: product.insured_age_min })));
    if (product.insured_age_max != null && age > product.insured_age_max)
      out.push(error('date_of_birth', msg('enrollments.errors.age_max', { age: product.insured_age_max })));
  }
  return out;
}

/** One applicant of a batch as the rules across applicants see it. */
export interface BatchMember {
  key: number | string;
  type: string;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
  start_date: string | null;
  end_date: string | null;
  dependency_key: number | string | null;
  group_leader_key: number | string | null;
}

const personKey = (m: BatchMember) =>
  [m.first_name, m.last_name, m.date_of_birth].map((v) => (v ?? '').trim().toLowerCase()).join('|');

/**
 * The rules across the applicants of one batch, by member key: the same person (first name, last name
 * and date of birth) twice with the same trip dates is a duplicate (both rows get the spec's message);
 * a family member must depend on a student of the batch; a group leader link must name a group leader.
 */
export function batchErrors(members: readonly BatchMember[]): Map<number | string, EnrollmentError[]> {
  const out = new Map<number | string, EnrollmentError[]>();
  const add = (key: number | string, e: EnrollmentError) => {
    const list = out.get(key);
    if (list) list.push(e);
    else out.set(key, [e]);
  };
  const byTrip = new Map<string, BatchMember[]>();
  const byKey = new Map<number | string, BatchMember>();
  for (const m of members) {
    byKey.set(m.key, m);
    if (!m.first_name || !m.last_name || !m.date_of_birth || !m.start_date || !m.end_date) continue;
    const k = `${personKey(m)}|${m.start_date}|${m.end_date}`;
    const group = byTrip.get(k);
    if (group) group.push(m);
    else byTrip.set(k, [m]);
  }
  for (const group of byTrip.values()) {
    if (group.length < 2) continue;
    for (const m of group)
      add(m.key, {
        field: 'row',
        message: 'enrollments.errors.duplicate',
        params: { start: britishDate(m.start_date!), end: britishDate(m.end_date!) },
      });
  }
  for (const m of members) {
    if (m.type === 'immediate_family') {
      const student = m.dependency_key != null ? byKey.get(m.dependency_key) : undefined;
      if (!student || student.type !== 'student')
        add(m.key, { field: 'dependency_id', message: 'enrollments.errors.dependency_required' });
    } else if (m.dependency_key != null) {
      add(m.key, { field: 'dependency_id', message: 'enrollments.errors.dependency_only_family' });
    }
    if (m.group_leader_key != null) {
      const leader = byKey.get(m.group_leader_key);
      if (!leader || leader.type !== 'group_leader' || leader.key === m.key)
        add(m.key, { field: 'group_leader_id', message: 'enrollments.errors.group_leader_invalid' });
    }
  }
  return out;
}
