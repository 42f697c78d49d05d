import { describe, expect, it } from 'vitest';
import {
  batchErrors,
  checkApplicant,
  checkApplicantFast,
  tripDays,
  type BatchMember,
  type RuleContext,
} from '@server/domain/enrollments/rules';
import { feeFor } from '@server/domain/enrollments/fees';
import { applicantFields, fieldFastAccept } from '@server/domain/enrollments/schema';

const GB = 1;
const FR = 2;
const US = 3;
const rc = (over: Partial<RuleContext> = {}, product: Partial<RuleContext['product']> = {}): RuleContext => ({
  today: '2026-11-21',
  allowPastStartDate: false,
  product: {
    min_purchase_days: 6,
    max_term_days: 365,
    insured_age_min: 10,
    insured_age_max: 70,
    max_enrolment_period_days: 400,
    effective_start_date: '2026-01-01',
    effective_end_date: null,
    ...product,
  },
  contract: { start_date: '2026-01-01', end_date: '2027-12-31', min_days: 6 },
  countryIds: new Set([GB, FR, US]),
  passportCountryIds: new Set([US]),
  ...over,
});

const applicant = {
  type: 'student',
  first_name: 'Ana',
  last_name: 'Silva',
  date_of_birth: '2008-03-04',
  gender: 'female',
  email: 'ana@example.com',
  residence_country_id: String(FR),
  destination_country_id: String(GB),
  start_date: '2027-01-10',
  end_date: '2027-06-30',
};

const fieldsOf = (raw: Record<string, unknown>, ctx = rc()) =>
  Object.fromEntries(checkApplicant(raw, ctx).errors.map((e) => [e.field, e.message]));

describe('applicant rules', () => {
  it('accepts a complete student', () => {
    const r = checkApplicant(applicant, rc());
    expect(r.errors).toEqual([]);
    expect(r.value).toMatchObject({ type: 'student', residence_country_id: FR, destination_country_id: GB });
  });

  it('needs names, date of birth, countries and trip dates', () => {
    expect(fieldsOf({})).toEqual({
      first_name: 'validation.required',
      last_name: 'validation.required',
      date_of_birth: 'validation.required',
      residence_country_id: 'validation.required',
      destination_country_id: 'validation.required',
      start_date: 'validation.required',
      end_date: 'validation.required',
    });
  });

  it('refuses digits in names, an unknown type and bad passport and student numbers', () => {
    expect(
      fieldsOf({
        ...applicant,
        first_name: 'An4',
        type: 'teacher',
        passport_number: 'AB',
        student_number: 'x-1',
      }),
    ).toEqual({
      first_name: 'validation.name_invalid',
      type: 'validation.type_invalid',
      passport_number: 'validation.passport',
      student_number: 'validation.student_number',
    });
  });

  it('refuses the same country of residence and destination', () => {
    expect(fieldsOf({ ...applicant, destination_country_id: String(FR) })).toEqual({
      destination_country_id: 'enrollments.errors.same_country',
    });
  });

  it('refuses an end date on or before the start date', () => {
    expect(fieldsOf({ ...applicant, end_date: '2027-01-10' })).toEqual({
      end_date: 'validation.end_after_start',
    });
  });

  it('refuses a date of birth today or later', () => {
    expect(fieldsOf({ ...applicant, date_of_birth: '2026-11-21' })).toMatchObject({
      date_of_birth: 'validation.dob_past',
    });
  });

  it('refuses a past start date unless the user may backdate', () => {
    const past = { ...applicant, start_date: '2026-11-01', end_date: '2026-12-31' };
    expect(fieldsOf(past)).toEqual({ start_date: 'validation.start_not_past' });
    expect(fieldsOf(past, rc({ allowPastStartDate: true }))).toEqual({});
  });

  it('needs the minimum purchase of the product or the contract, whichever is longer', () => {
    expect(checkApplicant({ ...applicant, end_date: '2027-01-14' }, rc()).errors).toEqual([
      { field: 'end_date', message: 'enrollments.errors.min_days', params: { days: 6 } },
    ]);
    expect(fieldsOf({ ...applicant, end_date: '2027-01-15' })).toEqual({});
    const longer = rc();
    longer.contract.min_days = 30;
    expect(fieldsOf({ ...applicant, end_date: '2027-01-20' }, longer)).toEqual({
      end_date: 'enrollments.errors.min_days',
    });
  });

  it('refuses a trip longer than the product covers', () => {
    expect(fieldsOf(applicant, rc({}, { max_term_days: 90 }))).toEqual({
      end_date: 'enrollments.errors.max_days',
    });
  });

  it('checks the age at the start of the trip against the product', () => {
    expect(fieldsOf(applicant, rc({}, { insured_age_min: 19 }))).toEqual({
      date_of_birth: 'enrollments.errors.age_min',
    });
    expect(fieldsOf(applicant, rc({}, { insured_age_max: 17 }))).toEqual({
      date_of_birth: 'enrollments.errors.age_max',
    });
  });

  it('refuses a trip starting further ahead than the enrolment period', () => {
    expect(fieldsOf(applicant, rc({}, { max_enrolment_period_days: 30 }))).toEqual({
      start_date: 'enrollments.errors.start_too_far',
    });
  });

  it('keeps the trip inside the contract and the product periods', () => {
    expect(fieldsOf({ ...applicant, end_date: '2028-01-05' })).toEqual({
      end_date: 'enrollments.errors.after_cover',
    });
    expect(fieldsOf(applicant, rc({}, { effective_start_date: '2027-02-01' }))).toEqual({
      start_date: 'enrollments.errors.before_cover',
    });
  });

  it('needs a passport number where the destination requires one, and known countries', () => {
    expect(fieldsOf({ ...applicant, destination_country_id: String(US) })).toEqual({
      passport_number: 'enrollments.errors.passport_required',
    });
    expect(fieldsOf({ ...applicant, destination_country_id: '999' })).toEqual({
      destination_country_id: 'enrollments.errors.country',
    });
  });
});

describe('rules across a batch', () => {
  const member = (key: number, over: Partial<BatchMember> = {}): BatchMember => ({
    key,
    type: 'student',
    first_name: 'Ana',
    last_name: 'Silva',
    date_of_birth: '2008-03-04',
    start_date: '2027-01-10',
    end_date: '2027-06-30',
    dependency_key: null,
    group_leader_key: null,
    ...over,
  });

  it('flags both rows of the same person with the same trip dates, with the spec message', () => {
    const errors = batchErrors([
      member(1),
      member(2, { first_name: ' ana ' }),
      member(3, { end_date: '2027-07-01' }),
    ]);
    const expected = [
      {
        field: 'row',
        message: 'enrollments.errors.duplicate',
        params: { start: '10/01/2027', end: '30/06/2027' },
      },
    ];
    expect(errors.get(1)).toEqual(expected);
    expect(errors.get(2)).toEqual(expected);
    expect(errors.has(3)).toBe(false);
  });

  it('needs a family member linked to a student of the batch, and group leaders that lead', () => {
    const errors = batchErrors([
      member(1),
      member(2, { type: 'immediate_family', first_name: 'Rui' }),
      member(3, { type: 'immediate_family', first_name: 'Eva', dependency_key: 1 }),
      member(4, { type: 'group_leader', first_name: 'Tom' }),
      member(5, { first_name: 'Zoe', group_leader_key: 4 }),
      member(6, { first_name: 'Max', group_leader_key: 1 }),
    ]);
    expect(errors.get(2)).toEqual([
      { field: 'dependency_id', message: 'enrollments.errors.dependency_required' },
    ]);
    expect(errors.has(3)).toBe(false);
    expect(errors.has(5)).toBe(false);
    expect(errors.get(6)).toEqual([
      { field: 'group_leader_id', message: 'enrollments.errors.group_leader_invalid' },
    ]);
  });
});

describe('fees', () => {
  const pricing = {
    sale_minor: 9500,
    custom_minor: null,
    net_minor: 6000,
    currency: 'GBP',
    unit_days: 7,
    min_days: 6,
    tax: { rate_bp: 1200, amount_minor: null },
  };

  it('counts both ends of the trip', () => {
    expect(tripDays('2027-01-01', '2027-01-06')).toBe(6);
  });

  it('charges the price per started unit, with the country tax on top', () => {
    // 10 to 30 January: 21 days, 3 weeks.
    expect(feeFor({ start_date: '2027-01-10', end_date: '2027-01-30' }, pricing)).toEqual({
      days: 21,
      units: 3,
      premium_minor: 28500,
      net_minor: 18000,
      tax_minor: 3420,
      tax_rate_bp: 1200,
      stamp_duty_minor: 0,
      total_minor: 31920,
      currency: 'GBP',
    });
    expect(feeFor({ start_date: '2027-01-10', end_date: '2027-01-31' }, pricing).units).toBe(4);
  });

  it('prefers the custom price, charges the minimum days, and takes a flat tax as it is', () => {
    const fee = feeFor(
      { start_date: '2027-01-10', end_date: '2027-01-12' },
      { ...pricing, custom_minor: 100, unit_days: 1, tax: { rate_bp: null, amount_minor: 250 } },
    );
    expect(fee).toMatchObject({ days: 3, units: 6, premium_minor: 600, tax_minor: 250, total_minor: 850 });
  });

  it('prices a product without a unit once per trip, and no tax when the country has none', () => {
    expect(
      feeFor(
        { start_date: '2027-01-10', end_date: '2027-06-30' },
        { ...pricing, unit_days: null, tax: null },
      ),
    ).toMatchObject({ units: 1, premium_minor: 9500, tax_minor: 0, total_minor: 9500 });
  });
});

describe('checking many applicants at once', () => {
  // Variations of each field, valid and not; every combination checked by checkApplicantFast (which
  // remembers field results by value) must give exactly what the whole schema gives.
  const variants: Record<string, unknown[]> = {
    type: ['student', 'Group_Leader', 'immediate_family', 'pupil', '', undefined, 3],
    first_name: ['Ana', 'R2D2', '', '  Zoë ', 'Ana  Maria', 'Ana\tMaria', 'x'.repeat(120), null],
    last_name: ['Silva', 'da Silva', 'Silva ', 'Sil5a', 'y'.repeat(101)],
    date_of_birth: ['2008-03-04', '31/02/2008', '2030-01-01', '', 20080304],
    email: [
      'ana@example.com',
      'Ana@Example.com',
      ' ana@example.com',
      'not-an-email',
      'a b@x.com',
      '',
      undefined,
    ],
    personal_email: ['home@example.org', 'HOME@example.org', 'x@y', undefined],
    phone_country: ['GB', '', 'G1'],
    phone_number: ['7700900123', '7700 900123', '', '12', '1'.repeat(19)],
    residence_country_id: [String(FR), String(GB), '999', 'France', '', FR],
    start_date: ['2027-01-10', '2026-11-01', '2027-06-30', 'soon'],
    end_date: ['2027-06-30', '2027-01-12', '2027-01-09', ''],
    passport_number: [undefined, 'P1234567', 'p1234567', ' P1234567', '***', 'AB'],
    student_number: ['S123', 's-123', '', 'S'.repeat(51)],
    destination_address: ['1 High Street', ' 1 High Street', '1  High Street', 'z'.repeat(256), ''],
    extra: [undefined, 'ignored'],
  };
  const rows: Record<string, unknown>[] = [];
  let seed = 7;
  // A fixed pseudo-random sequence (its high bits: the low bits of this generator repeat quickly).
  const pick = <T>(list: T[]) => list[((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) % list.length]!;
  for (let i = 0; i < 3000; i++) {
    const row: Record<string, unknown> = { ...applicant };
    for (const [field, values] of Object.entries(variants)) {
      if (pick([0, 1, 2, 3]) < 3) continue; // three fields in four keep the valid applicant's value
      const v = pick(values);
      if (v === undefined && i % 2) delete row[field];
      else row[field] = v;
    }
    rows.push(row);
  }

  it('gives the same value and errors as checking each alone, for 3000 mixed rows', () => {
    const ctx = rc();
    let withErrors = 0;
    for (const row of rows) {
      const fast = checkApplicantFast(row, ctx);
      expect(fast).toEqual(checkApplicant(row, ctx));
      if (fast.errors.length) withErrors++;
    }
    // The rows are a real mix: many pass, many do not.
    expect(withErrors).toBeGreaterThan(100);
    expect(rows.length - withErrors).toBeGreaterThan(100);
  });

  it("takes a value without its field's schema only where the schema would take it unchanged", () => {
    // Hand-picked edges and a fixed pseudo-random spread of strings over what trips the rules:
    // spaces and tabs, upper case, digits, @ and dots, accents.
    const alphabet = ['a', 'Z', 'é', '5', ' ', '  ', '\t', '@', '.', '-', '_', '+', 'x.y', '@b.co', '"'];
    const generated: string[] = [];
    for (let i = 0; i < 4000; i++) {
      let v = '';
      const length = 1 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) % 12);
      for (let k = 0; k < length; k++) v += pick(alphabet);
      generated.push(v);
    }
    const edges = [
      '',
      ' ',
      'a',
      'ab',
      'abc',
      'Ana Maria',
      'ana@x.io',
      'ana@-x.io',
      'a@b',
      '123',
      '1'.repeat(18),
    ];
    let accepted = 0;
    for (const [field, accept] of Object.entries(fieldFastAccept)) {
      const schema = applicantFields[field as keyof typeof applicantFields];
      for (const v of [...edges, ...generated, 'x'.repeat(300)]) {
        if (!accept!(v)) continue;
        accepted++;
        expect({ field, v, parsed: schema.safeParse(v) }).toEqual({
          field,
          v,
          parsed: { success: true, data: v },
        });
      }
    }
    expect(accepted).toBeGreaterThan(500);
  });

  it('checks what is not an object like the whole schema does', () => {
    for (const raw of [null, 'Ana', [applicant], 42])
      expect(checkApplicantFast(raw, rc())).toEqual(checkApplicant(raw, rc()));
  });
});
