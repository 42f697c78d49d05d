/**
 * The demo's product groups: the main company's catalogue gathered into student travel, short summer
 * stays, staff who travel with the students and work placements (one of them archived), and a group of
 * the second company, so "all companies" lists groups of both. The products the groups need beside the
 * demo's two student products are made here, named so that they sort after those two in every product
 * list. The groups go through the domain (the rules and the log row "created"), acting as the senior
 * admin, so each group page opens with its history.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { companies, products } from '../schema';
import type { DB } from '../../workers/platform/db';
import { buildProduct } from './contracts';
import { WEEKLY_PRODUCT_CODE } from './amendments';

const STUDENT_PRODUCT_CODE = 'OAK_STUDENT';

interface GroupSeed {
  name: string;
  scheme: string;
  type: string;
  description: string;
  productCodes: string[];
}

/** Products of a company by code, made when missing. */
async function productsByCode(
  db: DB,
  companyId: number,
  wanted: { code: string; name: string; status?: 'active' | 'archived'; effectiveEnd?: string }[],
) {
  const found = await db
    .select({ id: products.id, public_id: products.public_id, code: products.code })
    .from(products)
    .where(
      and(
        eq(products.company_id, companyId),
        inArray(
          products.code,
          wanted.map((w) => w.code),
        ),
      ),
    );
  const byCode = new Map(found.map((p) => [p.code, p.public_id]));
  for (const w of wanted) {
    if (byCode.has(w.code)) continue;
    const row = await buildProduct(db, {
      companyId,
      code: w.code,
      name: w.name,
      status: w.status,
      effectiveEnd: w.effectiveEnd,
    });
    byCode.set(w.code, row.public_id);
  }
  return byCode;
}

export async function seedDemoProductGroups(
  db: DB,
  input: { mainCompanyId: number; secondCompanyId: number; actingUserId: number },
) {
  const [{ loadActor }, { createProductGroup }, { productGroupSchema }] = await Promise.all([
    import('../../workers/domain/access/actor'),
    import('../../workers/domain/products/groups'),
    import('../../workers/domain/products/schema'),
  ]);
  const main = await productsByCode(db, input.mainCompanyId, [
    { code: STUDENT_PRODUCT_CODE, name: 'Student Travel Cover' },
    { code: WEEKLY_PRODUCT_CODE, name: 'Student Cover (weekly)' },
    { code: 'SUMMER_PROGRAMME', name: 'Summer Programme Cover' },
    { code: 'YEAR_ABROAD', name: 'University Year Abroad Cover' },
    { code: 'GROUP_LEADER', name: 'Teacher and Group Leader Cover' },
    { code: 'WORK_PLACEMENT', name: 'Work Placement Cover' },
    { code: 'WORK_PLACEMENT_2019', name: 'Work Placement Cover (2019 wording)', status: 'archived' },
  ]);
  const second = await productsByCode(db, input.secondCompanyId, [
    { code: 'GAP_YEAR', name: 'Gap Year Backpacker Cover' },
    { code: 'GAP_YEAR_WINTER', name: 'Winter Sports Extension' },
  ]);
  const groups: { companyId: number; codes: Map<string, string>; seeds: GroupSeed[] }[] = [
    {
      companyId: input.mainCompanyId,
      codes: main,
      seeds: [
        {
          name: 'Student travel',
          scheme: 'International students',
          type: 'Travel and medical',
          description:
            'Cover for students who come to study with our partner schools, from a two-week course to a ' +
            'full academic year.\nSchools order these under their service agreements.',
          productCodes: [STUDENT_PRODUCT_CODE, WEEKLY_PRODUCT_CODE, 'YEAR_ABROAD'],
        },
        {
          name: 'Summer programmes',
          scheme: 'Short stays',
          type: 'Travel and medical',
          description:
            'Short stays of one to eight weeks between June and September, priced per started week.',
          productCodes: ['SUMMER_PROGRAMME', WEEKLY_PRODUCT_CODE],
        },
        {
          name: 'Staff and group leaders',
          scheme: 'Accompanying staff',
          type: 'Travel, medical and liability',
          description: 'Teachers and group leaders travelling with a group of students.',
          productCodes: ['GROUP_LEADER'],
        },
        {
          name: 'Work placements',
          scheme: 'Internships',
          type: 'Medical and liability',
          description:
            'Students on an internship or work placement during their stay. The 2019 wording is archived ' +
            'and kept for the policies issued under it.',
          productCodes: ['WORK_PLACEMENT', 'WORK_PLACEMENT_2019'],
        },
      ],
    },
    {
      companyId: input.secondCompanyId,
      codes: second,
      seeds: [
        {
          name: 'Gap year',
          scheme: 'Independent travellers',
          type: 'Travel and medical',
          description:
            'Young people travelling on their own for up to twelve months, with optional winter sports.',
          productCodes: ['GAP_YEAR', 'GAP_YEAR_WINTER'],
        },
      ],
    },
  ];
  const now = new Date();
  for (const { companyId, codes, seeds } of groups) {
    const actor = await loadActor(db, input.actingUserId, { selectedCompanyId: companyId });
    if (!actor) throw new Error('The acting user of the demo product groups cannot act');
    const [company] = await db
      .select({ public_id: companies.public_id })
      .from(companies)
      .where(eq(companies.id, companyId));
    for (const g of seeds) {
      await createProductGroup(
        { db, env: {} as never, now, actor },
        productGroupSchema.parse({
          company_id: company.public_id,
          name: g.name,
          scheme: g.scheme,
          type: g.type,
          description: g.description,
          product_ids: g.productCodes.map((code) => codes.get(code)),
        }),
      );
    }
  }
}
