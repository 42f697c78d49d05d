import { inJson } from '../../platform/db';
/** What the logs of an agreement and its contracts show: names instead of ids, rows as the page lists them. */

import { campuses, insurers, products } from '../../../drizzle/schema';
import type { ActorCtx } from '../context';
import { major } from '../validation';
import type { AgreementRow, RowRow, ContractRow } from './records';
import type { Resolved } from './resolve';

/** Names of the insurers, products and campuses a log row mentions (logs show names, not ids). */
export interface LogNames {
  insurer: Map<number, string>;
  product: Map<number, string>;
  campus: Map<number, string>;
}

export async function logNames(
  ctx: ActorCtx,
  ids: { insurers?: (number | null)[]; products?: (number | null)[]; campuses?: (number | null)[] },
): Promise<LogNames> {
  const clean = (list?: (number | null)[]) => {
    return [...new Set((list ?? []).filter((x): x is number => !!x))];
  };
  const [insurerRows, productRows, campusRows] = await ctx.db.batch([
    ctx.db
      .select({ id: insurers.id, name: insurers.name })
      .from(insurers)
      .where(inJson(insurers.id, clean(ids.insurers))),
    ctx.db
      .select({ id: products.id, name: products.name, code: products.code })
      .from(products)
      .where(inJson(products.id, clean(ids.products))),
    ctx.db
      .select({ id: campuses.id, name: campuses.name })
      .from(campuses)
      .where(inJson(campuses.id, clean(ids.campuses))),
  ]);
  return {
    insurer: new Map(insurerRows.map((r) => [r.id, r.name])),
    product: new Map(productRows.map((r) => [r.id, `${r.name} (${r.code})`])),
    campus: new Map(campusRows.map((r) => [r.id, r.name])),
  };
}

export function agreementForLog(a: Partial<AgreementRow>, names: LogNames) {
  return {
    name: a.name,
    insurer: a.insurer_id ? (names.insurer.get(a.insurer_id) ?? null) : null,
    start_date: a.start_date,
    end_date: a.end_date ?? null,
    default_product: a.default_product_id ? (names.product.get(a.default_product_id) ?? null) : null,
    status: a.status,
  };
}

type LogRow = {
  product_id: number;
  campus_id: number;
  net_minor: number;
  sale_minor: number;
  min_days: number;
  start_date: string;
  end_date: string | null;
  po_number: string | null;
};

export function rowsForLog(rows: LogRow[], names: LogNames) {
  const out: Record<string, string> = {};
  rows.forEach((r, i) => {
    out[`row_${i + 1}`] = [
      names.product.get(r.product_id) ?? `product ${r.product_id}`,
      names.campus.get(r.campus_id) ?? `campus ${r.campus_id}`,
      `net ${(r.net_minor / 100).toFixed(2)}`,
      `sale ${(r.sale_minor / 100).toFixed(2)}`,
      `min ${r.min_days} days`,
      `${r.start_date} to ${r.end_date ?? 'open'}`,
      r.po_number ? `PO ${r.po_number}` : null,
    ]
      .filter(Boolean)
      .join(', ');
  });
  return out;
}

/** The rows of a resolved input in log form. */
export function resolvedLogRows(rows: Resolved['rows']): LogRow[] {
  return rows.map((r) => ({
    product_id: r.productRow.id,
    campus_id: r.campusId,
    net_minor: r.net_price,
    sale_minor: r.sale_price,
    min_days: r.min_days,
    start_date: r.start_date,
    end_date: r.end_date ?? null,
    po_number: r.po_number ?? null,
  }));
}

/** The names every log row of a save may mention: the resolved input's and, on update, the saved state's. */
export function namesOf(
  ctx: ActorCtx,
  resolved: Resolved,
  sa?: Pick<AgreementRow, 'insurer_id' | 'default_product_id'>,
  state?: { rows: RowRow[]; contracts: ContractRow[] },
) {
  return logNames(ctx, {
    insurers: [resolved.insurerId, sa?.insurer_id ?? null],
    products: [
      resolved.defaultProductId,
      sa?.default_product_id ?? null,
      ...resolved.rows.map((r) => r.productRow.id),
      ...(state?.rows ?? []).map((r) => r.product_id),
      ...(state?.contracts ?? []).map((c) => c.product_id),
    ],
    campuses: [
      ...resolved.rows.map((r) => r.campusId),
      ...(state?.rows ?? []).map((r) => r.campus_id),
      ...(state?.contracts ?? []).map((c) => c.campus_id),
    ],
  });
}

export function contractLogValues(c: Partial<ContractRow>, names: LogNames) {
  return {
    name: c.name,
    status: c.status,
    campus: c.campus_id ? (names.campus.get(c.campus_id) ?? null) : null,
    product: c.product_id ? (names.product.get(c.product_id) ?? null) : null,
    start_date: c.start_date,
    end_date: c.end_date ?? null,
    net_price: major(c.net_minor ?? null),
    sale_price: major(c.sale_minor ?? null),
    min_days: c.min_days,
    po_number: c.po_number ?? null,
    is_default: c.is_default,
  };
}
