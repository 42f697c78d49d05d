/**
 * Days as people type them (docs/decisions/platform.md, "One date format"): a date field takes
 * DD/MM/YYYY (also D/M/YYYY), the forms and the lists' address read it into YYYY-MM-DD before their
 * schema checks it, MM/DD is never read, and the JSON API takes YYYY-MM-DD only.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lenientQuery } from '../../app/lib/lists.server';
import { readDay } from '../../workers/domain/formats';
import { policyListQuerySchema } from '../../workers/domain/policies/list-query';
import { dayFieldsOf, readTypedDays, readTypedDaysOf } from '../../workers/domain/typed-days';
import { isoDate, optional } from '../../workers/domain/validation';
import { noteSchema } from '../../workers/domain/notes/schema';
import { applicantFormSchema } from '../../workers/domain/enrollments/inputs';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

describe('reading a typed day', () => {
  it('reads DD/MM/YYYY and D/M/YYYY into YYYY-MM-DD', () => {
    expect(readDay('27/03/2027')).toBe('2027-03-27');
    expect(readDay('3/4/2027')).toBe('2027-04-03');
    expect(readDay(' 03/04/2027 ')).toBe('2027-04-03');
    expect(readDay('27.03.2027')).toBe('2027-03-27');
    expect(readDay('27-03-2027')).toBe('2027-03-27');
    expect(readDay('31/12/2027')).toBe('2027-12-31');
  });

  it('takes a stored day (YYYY-MM-DD) as it is', () => {
    expect(readDay('2027-03-27')).toBe('2027-03-27');
    expect(readDay('2027-02-30')).toBeNull();
  });

  it('reads 29 February only in a leap year', () => {
    expect(readDay('29/02/2028')).toBe('2028-02-29');
    expect(readDay('29/02/2000')).toBe('2000-02-29');
    expect(readDay('29/02/2027')).toBeNull();
    expect(readDay('29/02/2100')).toBeNull();
  });

  it('refuses a day its month does not have', () => {
    expect(readDay('31/04/2027')).toBeNull();
    expect(readDay('31/02/2027')).toBeNull();
    expect(readDay('00/01/2027')).toBeNull();
    expect(readDay('01/13/2027')).toBeNull();
  });

  it('never reads MM/DD: the day comes first', () => {
    expect(readDay('12/31/2027')).toBeNull();
    expect(readDay('03/04/2027')).toBe('2027-04-03');
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '   ',
      'yesterday',
      '27/03/27',
      '27/03',
      '2027/03/27',
      '27 March 2027',
      '27/03/2027x',
    ])
      expect(readDay(text), text).toBeNull();
    expect(readDay(null)).toBeNull();
    expect(readDay('01/01/1899')).toBeNull();
    expect(readDay('01/01/3001')).toBeNull();
  });
});

describe('a day in a schema', () => {
  const message = (value: unknown) => isoDate.safeParse(value).error?.issues[0].message;

  it('says the format is wrong for text of another shape, and the day not valid when it does not exist', () => {
    expect(isoDate.safeParse('2027-03-27').success).toBe(true);
    expect(message('yesterday')).toBe('validation.date_format');
    expect(message(20270327)).toBe('validation.date_format');
    expect(message('2027-02-31')).toBe('validation.date_invalid');
    // What a form leaves as typed because it is no day.
    expect(message('31/02/2027')).toBe('validation.date_invalid');
    expect(message('')).toBe('validation.required');
  });

  it('takes YYYY-MM-DD only: a typed day is read by the forms, not by the schema (the API)', () => {
    expect(message('27/03/2027')).toBe('validation.date_format');
  });
});

describe("the forms' reading", () => {
  const rowsSchema = z.object({
    title: z.string(),
    start: z.preprocess((v) => v, isoDate.optional()),
    until: optional(isoDate),
    rows: z.array(z.object({ on: isoDate.nullable(), note: z.string() })),
    picked: z.union([z.object({ kind: z.literal('a'), when: isoDate }), z.object({ kind: z.literal('b') })]),
  });

  it('finds every day field of a schema, however it is wrapped', () => {
    expect([...dayFieldsOf(rowsSchema)].sort()).toEqual(['picked.when', 'rows[].on', 'start', 'until']);
    expect([...dayFieldsOf(noteSchema)]).toEqual(['date']);
    expect([...dayFieldsOf(applicantFormSchema)].sort()).toEqual(['date_of_birth', 'end_date', 'start_date']);
    expect(dayFieldsOf(z.object({ name: z.string() })).size).toBe(0);
  });

  it('reads the typed days of a form and leaves everything else as it was posted', () => {
    const form = new FormData();
    form.append('title', '27/03/2027');
    form.append('start', '27/03/2027');
    form.append('until', '31/02/2027');
    form.append('rows[0].on', '1/2/2028');
    form.append('rows[0].note', '1/2/2028');
    form.append('rows[1].on', '2028-02-29');
    form.append('picked.when', 'soon');
    const file = new File(['x'], 'a.txt');
    form.append('file', file);
    const read = readTypedDays(form, rowsSchema);
    expect(Object.fromEntries([...read].filter(([k]) => k !== 'file'))).toEqual({
      title: '27/03/2027',
      start: '2027-03-27',
      until: '31/02/2027',
      'rows[0].on': '2028-02-01',
      'rows[0].note': '1/2/2028',
      'rows[1].on': '2028-02-29',
      'picked.when': 'soon',
    });
    expect(read.get('file')).toBeInstanceOf(File);
  });

  it("reads a list's address: a typed day filters, a day that does not exist is dropped", () => {
    expect(
      readTypedDaysOf({ start_from: '1/4/2027', first_name: '1/4/2027' }, policyListQuerySchema),
    ).toEqual({
      start_from: '2027-04-01',
      first_name: '1/4/2027',
    });
    const query = lenientQuery(policyListQuerySchema, {
      start_from: '01/04/2027',
      start_to: '31/04/2027',
      end_from: '2027-05-01',
    });
    expect(query).toMatchObject({ start_from: '2027-04-01', end_from: '2027-05-01' });
    expect(query.start_to).toBeUndefined();
  });
});
