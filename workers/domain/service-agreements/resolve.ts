/**
 * An agreement input resolved inside the client's tenant: the insurer and products of its company, the
 * campuses of the client, and the rules that need the database or the clock.
 */
import { and, eq } from 'drizzle-orm';
import { inJson } from '../../platform/db';
import { campuses, insurers, products } from '../../../drizzle/schema';
import type { ClientRow } from '../access/finders';
import type { ActorCtx } from '../context';
import { contractDateErrors } from '../contracts/schema';
import { ValidationFailed, type FieldError } from '../errors';
import { msg, todayIso } from '../validation';
import type { AgreementRowInput, CreateAgreementInput } from './schema';
import type { RowRow, ProductRow } from './records';

// ---------------------------------------------------------------- saving

export interface Resolved {
  client: ClientRow;
  insurerId: number;
  defaultProductId: number | null;
  rows: (AgreementRowInput & { productRow: ProductRow; campusId: number })[];
}

/**
 * Resolves the public ids of an agreement input inside the client's tenant (insurer and products of its
 * company, campuses of the client) and checks the rules that need the database or the clock. All
 * problems at once, each on its field (`rows.2.campus_id`).
 */
export async function resolveInput(
  ctx: ActorCtx,
  client: ClientRow,
  input: Pick<CreateAgreementInput, 'insurer_id' | 'default_product_id' | 'rows'>,
  existingRows: Map<number, RowRow>,
  rowKey: (i: number) => string = (i) => `rows.${i}`,
): Promise<Resolved> {
  const productIds = [
    ...new Set([...input.rows.map((r) => r.product_id), input.default_product_id].filter(Boolean)),
  ] as string[];
  const campusIds = [...new Set(input.rows.map((r) => r.campus_id))];
  const [insurerRows, productRows, campusRows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(insurers)
      .where(and(eq(insurers.public_id, input.insurer_id), eq(insurers.company_id, client.company_id))),
    ctx.db
      .select()
      .from(products)
      .where(and(inJson(products.public_id, productIds), eq(products.company_id, client.company_id))),
    ctx.db
      .select()
      .from(campuses)
      .where(and(inJson(campuses.public_id, campusIds), eq(campuses.client_id, client.id))),
  ]);
  const productOf = new Map(productRows.map((p) => [p.public_id, p]));
  const campusOf = new Map(campusRows.map((c) => [c.public_id, c]));
  const errors: FieldError[] = [];
  if (!insurerRows[0])
    errors.push({ key: 'insurer_id', message: msg('service_agreements.errors.insurer_not_found') });
  if (input.default_product_id && !productOf.has(input.default_product_id))
    errors.push({ key: 'default_product_id', message: msg('contracts.errors.product_not_found') });
  const today = todayIso(ctx.now);
  const rows: Resolved['rows'] = [];
  input.rows.forEach((r, i) => {
    const key = rowKey(i);
    const product = productOf.get(r.product_id);
    const campus = campusOf.get(r.campus_id);
    const before = r.id ? existingRows.get(r.id) : undefined;
    if (r.id && !before)
      errors.push({ key: `${key}.id`, message: msg('service_agreements.errors.row_not_found') });
    if (!product)
      errors.push({ key: `${key}.product_id`, message: msg('contracts.errors.product_not_found') });
    else if (product.status !== 'active' && before?.product_id !== product.id)
      errors.push({ key: `${key}.product_id`, message: msg('service_agreements.errors.product_archived') });
    if (!campus) errors.push({ key: `${key}.campus_id`, message: msg('contracts.errors.campus_not_found') });
    // A row already saved keeps its start date even once it is past; a new or moved start may not be.
    errors.push(
      ...contractDateErrors(r, {
        today,
        product,
        endRequired: false,
        allowPastStart: !!before && before.start_date === r.start_date,
        keys: { start: `${key}.start_date`, end: `${key}.end_date` },
      }).filter(
        (e) =>
          e.message !== msg('contracts.errors.end_not_past') || !before || before.end_date !== r.end_date,
      ),
    );
    if (product && campus) rows.push({ ...r, productRow: product, campusId: campus.id });
  });
  if (errors.length) throw new ValidationFailed(errors);
  return {
    client,
    insurerId: insurerRows[0].id,
    defaultProductId: input.default_product_id ? productOf.get(input.default_product_id)!.id : null,
    rows,
  };
}
