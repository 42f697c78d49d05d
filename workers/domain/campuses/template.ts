/**
 * The enrolment template of a campus (campuses/{id}/enrollment-template): an .xlsx made with exceljs.
 * Kept apart from service.ts so that pages importing the campus services never pull exceljs in.
 */
import { asc, eq } from 'drizzle-orm';
import { countries } from '../../../drizzle/schema';
import { translate } from '../../platform/i18n';
import { buildWorkbook } from '../../platform/xlsx';
import type { ActorCtx } from '../context';
import { findCampus } from '../access/finders';
import { APPLICANT_TYPES, GENDERS, TEMPLATE_COLUMNS } from './schema';

/**
 * campuses/{id}/enrollment-template: an .xlsx with the applicant columns (first sheet, headers only) and
 * a second sheet that explains each column's accepted values, and a third with the country names and
 * codes. Headers are English (campuses.json `template.*`), the language the import matches columns in.
 */
export async function enrollmentTemplate(
  ctx: ActorCtx,
  id: string,
): Promise<{ fileName: string; body: ArrayBuffer }> {
  const { campus } = await findCampus(ctx, id, 'read_campus');
  const en = (key: string, params?: Record<string, string | number>) =>
    translate('en', `campuses.template.${key}`, params);
  const countryRows = await ctx.db
    .select({ name: countries.name, code: countries.abbreviation })
    .from(countries)
    .where(eq(countries.status, 'active'))
    .orderBy(asc(countries.name));
  const accepted: Record<string, string> = {
    type: APPLICANT_TYPES.join(', '),
    gender: GENDERS.map((g) => g.replace(/_/g, ' ')).join(', '),
    date_of_birth: en('accepted.date'),
    trip_start_date: en('accepted.date'),
    trip_end_date: en('accepted.date'),
    group_leader: en('accepted.yes_no'),
    country_of_residence: en('accepted.country'),
    country_of_destination: en('accepted.country'),
    mobile_number_country: en('accepted.dial_country'),
  };
  const body = await buildWorkbook([
    {
      name: en('sheet_applicants'),
      columns: TEMPLATE_COLUMNS.map((c) => ({ header: en(`columns.${c.key}`), key: c.key, width: 22 })),
      rows: [],
    },
    {
      name: en('sheet_values'),
      columns: [
        { header: en('column'), key: 'column', width: 26 },
        { header: en('required'), key: 'required', width: 12 },
        { header: en('accepted_values'), key: 'accepted', width: 70 },
        { header: en('notes'), key: 'notes', width: 70 },
      ],
      rows: TEMPLATE_COLUMNS.map((c) => ({
        column: en(`columns.${c.key}`),
        required: c.required ? en('yes') : en('no'),
        accepted: accepted[c.key] ?? en('accepted.text'),
        notes: en(`hints.${c.key}`),
      })),
    },
    {
      name: en('sheet_countries'),
      columns: [
        { header: en('country'), key: 'name', width: 40 },
        { header: en('code'), key: 'code', width: 10 },
      ],
      rows: countryRows,
    },
  ]);
  const safe =
    campus.name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'campus';
  return { fileName: `enrolment-template-${safe}.xlsx`, body };
}
