/**
 * Service agreements (spec 001 s.3, s.4, s.5; spec 002 s.7): what a client has agreed with an insurer,
 * as product rows (product, campus, net and sale price, min days, dates, PO number). Approving or
 * activating an agreement creates or updates one contract per row (contracts.service_agreement_row_id is
 * unique) in the same batch as the agreement itself; deactivating it archives them.
 *
 * Scope: an agreement belongs to a client (access/scope.ts agreementScope); its rows' campuses must be the client's and its
 * products and insurer the client's company's.
 */
import { and, asc, eq, getTableColumns, inArray, max, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  activityLogs,
  campuses,
  clients,
  contracts,
  insurers,
  products,
  serviceAgreementDocuments,
  serviceAgreementRows,
  serviceAgreements,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { runBatch, type Statement } from '../../platform/db';
import {
  checkUpload,
  deleteFiles,
  fileKey,
  fileResponse,
  putFile,
  type CheckedFile,
} from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { agreementScope } from '../access/scope';
import { diff, logActivity } from '../audit/activity-log';
import { findClient, type ClientRow } from '../access/finders';
import type { ActorCtx } from '../context';
import { contractDateErrors, type ContractListQuery } from '../contracts/schema';
import { queryContracts } from '../contracts/service';
import { activityFeed } from '../activity/feed';
import { NotFound, ValidationFailed, type FieldError } from '../errors';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { major, msg, todayIso } from '../validation';
import {
  AGREEMENT_DOCUMENT_KINDS,
  AGREEMENT_DOCUMENT_MAX_MB,
  MAX_AGREEMENT_DOCUMENTS,
  isValidAgreement,
  type AgreementListQuery,
  type AgreementRowInput,
  type CreateAgreementInput,
  type UpdateAgreementInput,
} from './schema';

type AgreementRow = typeof serviceAgreements.$inferSelect;
type RowRow = typeof serviceAgreementRows.$inferSelect;
type ContractRow = typeof contracts.$inferSelect;
type ProductRow = typeof products.$inferSelect;

export const AGREEMENT_SAVED = msg('service_agreements.saved');

function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

/**
 * The select list of an insert ... select: every column of the table, in its order (drizzle checks),
 * taking the given expressions and null for the others (the id, optional columns).
 */
function allColumns(table: Parameters<typeof getTableColumns>[0], provided: Record<string, unknown>) {
  return Object.fromEntries(
    Object.keys(getTableColumns(table)).map((k) => [k, (provided[k] ?? sql`null`) as SQL]),
  ) as Record<string, SQL>;
}

/** The id of an agreement written earlier in the same batch (its public id is known, its id not yet). */
const agreementIdOf = (pid: string) => sql`(select id from service_agreements where public_id = ${pid})`;

function visibleAgreements(ctx: ActorCtx): SQL {
  return agreementScope(ctx.actor);
}

async function findAgreement(ctx: ActorCtx, id: string): Promise<AgreementRow> {
  const [row] = await ctx.db
    .select()
    .from(serviceAgreements)
    .where(and(eq(serviceAgreements.public_id, id), visibleAgreements(ctx)))
    .limit(1);
  if (!row) throw new NotFound(msg('service_agreements.errors.not_found'));
  return row;
}

// ---------------------------------------------------------------- reading

/** service-agreements?client_id=: a client's agreements (or all visible), paged. */
export async function listServiceAgreements(ctx: ActorCtx, q: AgreementListQuery) {
  requirePermission(ctx.actor, 'read_service_agreement');
  const today = todayIso(ctx.now);
  const where = and(
    visibleAgreements(ctx),
    q.client_id ? eq(clients.public_id, q.client_id) : undefined,
    q.status ? eq(serviceAgreements.status, q.status) : undefined,
    likeAny([serviceAgreements.name, insurers.name, clients.name], q.search),
  );
  const rowCount = sql<number>`(select count(*) from ${serviceAgreementRows} where ${serviceAgreementRows.service_agreement_id} = ${serviceAgreements.id})`;
  const contractCount = sql<number>`(select count(*) from ${contracts} where ${contracts.service_agreement_id} = ${serviceAgreements.id} and ${contracts.status} = 'active')`;
  const page = await paginate<{
    agreement: AgreementRow;
    client_public_id: string;
    client_name: string;
    insurer_public_id: string | null;
    insurer_name: string | null;
    rows: number;
    active_contracts: number;
  }>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          agreement: serviceAgreements,
          client_public_id: as<string>(clients.public_id, 'client_public_id'),
          client_name: as<string>(clients.name, 'client_name'),
          insurer_public_id: as<string | null>(insurers.public_id, 'insurer_public_id'),
          insurer_name: as<string | null>(insurers.name, 'insurer_name'),
          rows: rowCount.as('row_count'),
          active_contracts: contractCount.as('active_contracts'),
        })
        .from(serviceAgreements)
        .innerJoin(clients, eq(clients.id, serviceAgreements.client_id))
        .leftJoin(insurers, eq(insurers.id, serviceAgreements.insurer_id))
        .where(where)
        .orderBy(
          ...orderBy(
            q.order,
            {
              name: serviceAgreements.name,
              start_date: serviceAgreements.start_date,
              end_date: serviceAgreements.end_date,
              status: serviceAgreements.status,
              created_at: serviceAgreements.created_at,
            },
            'start_date_desc',
            serviceAgreements.id,
          ),
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(serviceAgreements)
      .innerJoin(clients, eq(clients.id, serviceAgreements.client_id))
      .leftJoin(insurers, eq(insurers.id, serviceAgreements.insurer_id))
      .where(where),
  });
  return {
    items: page.items.map((r) => ({
      id: r.agreement.public_id,
      name: r.agreement.name,
      status: r.agreement.status,
      start_date: r.agreement.start_date,
      end_date: r.agreement.end_date,
      valid: isValidAgreement(r.agreement.start_date, today),
      started: r.agreement.start_date <= today,
      client: { id: r.client_public_id, name: r.client_name },
      insurer: r.insurer_public_id ? { id: r.insurer_public_id, name: r.insurer_name } : null,
      rows_count: Number(r.rows),
      active_contracts: Number(r.active_contracts),
      approved_at: r.agreement.approved_at,
      created_at: r.agreement.created_at,
    })),
    meta: page.meta,
  };
}
export type AgreementListItem = Awaited<ReturnType<typeof listServiceAgreements>>['items'][number];

/** service-agreements/{id}: the agreement with its rows, documents and contract counts. */
export async function getServiceAgreement(ctx: ActorCtx, id: string) {
  requirePermission(ctx.actor, 'read_service_agreement');
  const sa = await findAgreement(ctx, id);
  const today = todayIso(ctx.now);
  const [[client], [insurer], [defaultProduct], rows, documents, contractRows] = await ctx.db.batch([
    ctx.db
      .select({ public_id: clients.public_id, name: clients.name })
      .from(clients)
      .where(eq(clients.id, sa.client_id)),
    ctx.db
      .select({ public_id: insurers.public_id, name: insurers.name })
      .from(insurers)
      .where(eq(insurers.id, sa.insurer_id ?? 0)),
    ctx.db
      .select({ public_id: products.public_id, code: products.code, name: products.name })
      .from(products)
      .where(eq(products.id, sa.default_product_id ?? 0)),
    ctx.db
      .select({
        row: serviceAgreementRows,
        product_public_id: as<string>(products.public_id, 'product_public_id'),
        product_code: as<string>(products.code, 'product_code'),
        product_name: as<string>(products.name, 'product_name'),
        campus_public_id: as<string>(campuses.public_id, 'campus_public_id'),
        campus_name: as<string>(campuses.name, 'campus_name'),
      })
      .from(serviceAgreementRows)
      .innerJoin(products, eq(products.id, serviceAgreementRows.product_id))
      .innerJoin(campuses, eq(campuses.id, serviceAgreementRows.campus_id))
      .where(eq(serviceAgreementRows.service_agreement_id, sa.id))
      .orderBy(asc(serviceAgreementRows.position), asc(serviceAgreementRows.id)),
    ctx.db
      .select()
      .from(serviceAgreementDocuments)
      .where(eq(serviceAgreementDocuments.service_agreement_id, sa.id))
      .orderBy(asc(serviceAgreementDocuments.position), asc(serviceAgreementDocuments.id)),
    ctx.db
      .select({
        row_id: contracts.service_agreement_row_id,
        contract_public_id: contracts.public_id,
        contract_status: contracts.status,
      })
      .from(contracts)
      .where(eq(contracts.service_agreement_id, sa.id)),
  ]);
  const contractOfRow = new Map(contractRows.filter((c) => c.row_id).map((c) => [c.row_id!, c]));
  return {
    id: sa.public_id,
    name: sa.name,
    status: sa.status,
    start_date: sa.start_date,
    end_date: sa.end_date,
    valid: isValidAgreement(sa.start_date, today),
    started: sa.start_date <= today,
    approved_at: sa.approved_at,
    client: { id: client.public_id, name: client.name },
    insurer: insurer ? { id: insurer.public_id, name: insurer.name } : null,
    default_product: defaultProduct
      ? { id: defaultProduct.public_id, code: defaultProduct.code, name: defaultProduct.name }
      : null,
    rows: rows.map((r) => ({
      id: r.row.id,
      product: { id: r.product_public_id, code: r.product_code, name: r.product_name },
      campus: { id: r.campus_public_id, name: r.campus_name },
      net_price: major(r.row.net_minor)!,
      sale_price: major(r.row.sale_minor)!,
      min_days: r.row.min_days,
      start_date: r.row.start_date,
      end_date: r.row.end_date,
      po_number: r.row.po_number,
      contract: contractOfRow.get(r.row.id)
        ? {
            id: contractOfRow.get(r.row.id)!.contract_public_id,
            status: contractOfRow.get(r.row.id)!.contract_status,
          }
        : null,
    })),
    files: documents.map((d, index) => ({
      index,
      name: d.file_name,
      content_type: d.content_type,
      size: d.size,
      created_at: d.created_at,
    })),
    contracts_count: contractRows.length,
    active_contracts: contractRows.filter((c) => c.contract_status === 'active').length,
    created_at: sa.created_at,
    updated_at: sa.updated_at,
  };
}
export type AgreementView = Awaited<ReturnType<typeof getServiceAgreement>>;

/** service-agreements/{id}/contracts: the contracts the agreement made (25 a page by default). */
export async function serviceAgreementContracts(ctx: ActorCtx, id: string, q: ContractListQuery) {
  requirePermission(ctx.actor, 'read_service_agreement');
  requirePermission(ctx.actor, 'read_contract');
  const sa = await findAgreement(ctx, id);
  return queryContracts(ctx, q, { agreementId: sa.id });
}

/** The agreement's activity log. */
export async function serviceAgreementActivities(ctx: ActorCtx, id: string, page = 1, perPage = 25) {
  requirePermission(ctx.actor, 'read_service_agreement');
  const sa = await findAgreement(ctx, id);
  return activityFeed(ctx.db, 'service_agreement', sa.id, page, perPage);
}

/** What the agreement form offers: the client's campuses, its company's insurers and products. */
export async function agreementFormOptions(ctx: ActorCtx, clientId: string) {
  const client = await findClient(ctx, clientId, 'read_service_agreement');
  const [campusRows, insurerRows, productRows] = await ctx.db.batch([
    ctx.db
      .select({ id: campuses.public_id, name: campuses.name, status: campuses.status })
      .from(campuses)
      .where(eq(campuses.client_id, client.id))
      .orderBy(asc(campuses.name)),
    ctx.db
      .select({ id: insurers.public_id, name: insurers.name, status: insurers.status })
      .from(insurers)
      .where(eq(insurers.company_id, client.company_id))
      .orderBy(asc(insurers.name)),
    ctx.db
      .select({
        id: products.public_id,
        code: products.code,
        name: products.name,
        status: products.status,
        currency: products.currency,
        effective_start_date: products.effective_start_date,
        effective_end_date: products.effective_end_date,
      })
      .from(products)
      .where(eq(products.company_id, client.company_id))
      .orderBy(asc(products.name)),
  ]);
  return {
    client: { id: client.public_id, name: client.name },
    campuses: campusRows,
    insurers: insurerRows,
    products: productRows,
  };
}
export type AgreementFormOptions = Awaited<ReturnType<typeof agreementFormOptions>>;

// ---------------------------------------------------------------- saving

interface Resolved {
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
async function resolveInput(
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
      .where(
        and(
          inArray(products.public_id, productIds.length ? productIds : ['']),
          eq(products.company_id, client.company_id),
        ),
      ),
    ctx.db
      .select()
      .from(campuses)
      .where(
        and(
          inArray(campuses.public_id, campusIds.length ? campusIds : ['']),
          eq(campuses.client_id, client.id),
        ),
      ),
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

/** Names of the insurers, products and campuses a log row mentions (logs show names, not ids). */
interface LogNames {
  insurer: Map<number, string>;
  product: Map<number, string>;
  campus: Map<number, string>;
}

async function logNames(
  ctx: ActorCtx,
  ids: { insurers?: (number | null)[]; products?: (number | null)[]; campuses?: (number | null)[] },
): Promise<LogNames> {
  const clean = (list?: (number | null)[]) => {
    const out = [...new Set((list ?? []).filter((x): x is number => !!x))];
    return out.length ? out : [0];
  };
  const [insurerRows, productRows, campusRows] = await ctx.db.batch([
    ctx.db
      .select({ id: insurers.id, name: insurers.name })
      .from(insurers)
      .where(inArray(insurers.id, clean(ids.insurers))),
    ctx.db
      .select({ id: products.id, name: products.name, code: products.code })
      .from(products)
      .where(inArray(products.id, clean(ids.products))),
    ctx.db
      .select({ id: campuses.id, name: campuses.name })
      .from(campuses)
      .where(inArray(campuses.id, clean(ids.campuses))),
  ]);
  return {
    insurer: new Map(insurerRows.map((r) => [r.id, r.name])),
    product: new Map(productRows.map((r) => [r.id, `${r.name} (${r.code})`])),
    campus: new Map(campusRows.map((r) => [r.id, r.name])),
  };
}

function agreementForLog(a: Partial<AgreementRow>, names: LogNames) {
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

function rowsForLog(rows: LogRow[], names: LogNames) {
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
function resolvedLogRows(rows: Resolved['rows']): LogRow[] {
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
function namesOf(
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

function contractLogValues(c: Partial<ContractRow>, names: LogNames) {
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

/**
 * The statements that write an agreement's rows: rows no longer present lose their contract (archived
 * and detached, so the row can go), kept rows are updated, new rows inserted, positions 0..n-1.
 */
function rowStatements(
  ctx: ActorCtx,
  saId: SQL | number,
  resolved: Resolved,
  existingRows: RowRow[],
  existingContracts: ContractRow[],
): Statement[] {
  const keep = new Set(resolved.rows.map((r) => r.id).filter(Boolean) as number[]);
  const removed = existingRows.filter((r) => !keep.has(r.id)).map((r) => r.id);
  const statements: Statement[] = [];
  if (removed.length) {
    for (const c of existingContracts.filter(
      (c) => c.service_agreement_row_id && removed.includes(c.service_agreement_row_id),
    )) {
      if (c.status === 'active')
        statements.push(
          logActivity(ctx, {
            entity_type: 'contract',
            entity_id: c.id,
            action: 'archived',
            before: { status: c.status },
            after: { status: 'archived', reason: 'row removed from service agreement' },
            company_id: c.company_id,
            client_id: c.client_id,
          }),
        );
    }
    statements.push(
      ctx.db
        .update(contracts)
        .set({ service_agreement_row_id: null, status: 'archived', updated_at: ctx.now })
        .where(inArray(contracts.service_agreement_row_id, removed)) as unknown as Statement,
      ctx.db
        .delete(serviceAgreementRows)
        .where(inArray(serviceAgreementRows.id, removed)) as unknown as Statement,
    );
  }
  resolved.rows.forEach((r, position) => {
    const values = {
      product_id: r.productRow.id,
      campus_id: r.campusId,
      net_minor: r.net_price,
      sale_minor: r.sale_price,
      min_days: r.min_days,
      start_date: r.start_date,
      end_date: r.end_date ?? null,
      po_number: r.po_number ?? null,
      position,
      updated_at: ctx.now,
    };
    if (r.id) {
      statements.push(
        ctx.db
          .update(serviceAgreementRows)
          .set(values)
          .where(eq(serviceAgreementRows.id, r.id)) as unknown as Statement,
      );
    } else {
      statements.push(
        ctx.db.insert(serviceAgreementRows).values({
          ...values,
          service_agreement_id: saId as unknown as number,
          created_at: ctx.now,
        }) as unknown as Statement,
      );
    }
  });
  return statements;
}

/**
 * The statements that create or update one contract per row (found by its position, since a new row's
 * id is only known inside the batch), each with its activity-log row. Contracts are active, named after
 * the product, marked default when their product is the agreement's default product.
 */
function contractSyncStatements(
  ctx: ActorCtx,
  sa: { publicId: string; companyId: number; clientId: number; defaultProductId: number | null },
  resolved: Resolved,
  existingContracts: ContractRow[],
  names: LogNames,
): Statement[] {
  const byRow = new Map(
    existingContracts.filter((c) => c.service_agreement_row_id).map((c) => [c.service_agreement_row_id!, c]),
  );
  const now = ctx.now.getTime();
  const statements: Statement[] = [];
  resolved.rows.forEach((r, position) => {
    const before = r.id ? byRow.get(r.id) : undefined;
    const after = {
      name: r.productRow.name,
      status: 'active' as const,
      campus_id: r.campusId,
      product_id: r.productRow.id,
      start_date: r.start_date,
      end_date: r.end_date ?? null,
      net_minor: r.net_price,
      sale_minor: r.sale_price,
      min_days: r.min_days,
      po_number: r.po_number ?? null,
      is_default: sa.defaultProductId === r.productRow.id,
    };
    const rowAt = and(
      eq(serviceAgreementRows.service_agreement_id, agreementIdOf(sa.publicId)),
      eq(serviceAgreementRows.position, position),
    );
    const provided: Record<string, unknown> = {
      public_id: sql`${publicId()}`,
      company_id: sql`${sa.companyId}`,
      client_id: sql`${sa.clientId}`,
      campus_id: serviceAgreementRows.campus_id,
      product_id: serviceAgreementRows.product_id,
      service_agreement_id: serviceAgreementRows.service_agreement_id,
      service_agreement_row_id: serviceAgreementRows.id,
      name: sql`${after.name}`,
      start_date: serviceAgreementRows.start_date,
      end_date: serviceAgreementRows.end_date,
      status: sql`'active'`,
      is_default: sql`${after.is_default ? 1 : 0}`,
      net_minor: serviceAgreementRows.net_minor,
      sale_minor: serviceAgreementRows.sale_minor,
      currency: sql`${r.productRow.currency}`,
      min_days: serviceAgreementRows.min_days,
      po_number: serviceAgreementRows.po_number,
      created_at: sql`${now}`,
      updated_at: sql`${now}`,
    };
    statements.push(
      ctx.db
        .insert(contracts)
        .select(
          ctx.db.select(allColumns(contracts, provided)).from(serviceAgreementRows).where(rowAt) as never,
        )
        .onConflictDoUpdate({
          target: contracts.service_agreement_row_id,
          set: Object.fromEntries(
            [
              'campus_id',
              'product_id',
              'name',
              'start_date',
              'end_date',
              'status',
              'is_default',
              'net_minor',
              'sale_minor',
              'currency',
              'min_days',
              'po_number',
              'updated_at',
            ].map((k) => [k, sql.raw(`excluded.${k}`)]),
          ),
        }) as unknown as Statement,
    );
    const change = before
      ? diff(contractLogValues(before, names), contractLogValues(after, names))
      : { before: null, after: contractLogValues(after, names) };
    if (before && Object.keys(change.after ?? {}).length === 0) return;
    const log: Record<string, unknown> = {
      actor_user_id: sql`${ctx.actor.user_id}`,
      entity_type: sql`'contract'`,
      entity_id: contracts.id,
      action: sql`${before ? 'updated' : 'created'}`,
      before: sql`${change.before ? JSON.stringify(change.before) : null}`,
      after: sql`${JSON.stringify({ ...change.after, service_agreement: sa.publicId })}`,
      company_id: sql`${sa.companyId}`,
      client_id: sql`${sa.clientId}`,
      created_at: sql`${now}`,
    };
    statements.push(
      ctx.db
        .insert(activityLogs)
        .select(
          ctx.db
            .select(allColumns(activityLogs, log))
            .from(contracts)
            .innerJoin(serviceAgreementRows, eq(serviceAgreementRows.id, contracts.service_agreement_row_id))
            .where(rowAt) as never,
        ) as unknown as Statement,
    );
  });
  return statements;
}

/**
 * service-agreements/add: save (pending) or save and approve (active: one contract per row, in the same
 * batch). Answers the saved agreement.
 */
export async function createServiceAgreement(
  ctx: ActorCtx,
  input: CreateAgreementInput,
): Promise<AgreementView> {
  const client = await findClient(ctx, input.client_id, 'create_service_agreement').catch((e) => {
    if (e instanceof NotFound)
      throw ValidationFailed.field('client_id', msg('campuses.errors.client_not_found'));
    throw e;
  });
  const resolved = await resolveInput(ctx, client, input, new Map());
  const approve = input.approve === 'approve';
  const pid = publicId();
  const values = {
    public_id: pid,
    client_id: client.id,
    company_id: client.company_id,
    insurer_id: resolved.insurerId,
    default_product_id: resolved.defaultProductId,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    status: approve ? ('active' as const) : ('pending' as const),
    approved_at: approve ? ctx.now : null,
    approved_by: approve ? ctx.actor.user_id : null,
    created_by: ctx.actor.user_id,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const saId = agreementIdOf(pid);
  const names = await namesOf(ctx, resolved);
  await runBatch(ctx.db, [
    ctx.db.insert(serviceAgreements).values(values),
    ...rowStatements(ctx, saId, resolved, [], []),
    ...(approve
      ? contractSyncStatements(
          ctx,
          {
            publicId: pid,
            companyId: client.company_id,
            clientId: client.id,
            defaultProductId: resolved.defaultProductId,
          },
          resolved,
          [],
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: saId as unknown as number,
      action: approve ? 'created_and_approved' : 'created',
      after: {
        ...agreementForLog(values, names),
        ...rowsForLog(resolvedLogRows(resolved.rows), names),
      },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getServiceAgreement(ctx, pid);
}

async function currentState(ctx: ActorCtx, sa: AgreementRow) {
  const [rows, contractRows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(serviceAgreementRows)
      .where(eq(serviceAgreementRows.service_agreement_id, sa.id))
      .orderBy(asc(serviceAgreementRows.position)),
    ctx.db.select().from(contracts).where(eq(contracts.service_agreement_id, sa.id)),
  ]);
  return { rows, contracts: contractRows, rowById: new Map(rows.map((r) => [r.id, r])) };
}

/**
 * service-agreements/{id}/update: update (an active agreement's contracts follow its rows), or update
 * and approve/activate (pending or inactive becomes active, contracts made or updated).
 */
export async function updateServiceAgreement(
  ctx: ActorCtx,
  id: string,
  input: UpdateAgreementInput,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
  const state = await currentState(ctx, sa);
  const resolved = await resolveInput(ctx, client, input, state.rowById);
  const approve = input.approve === 'approve';
  const status = approve ? 'active' : sa.status;
  const values = {
    insurer_id: resolved.insurerId,
    default_product_id: resolved.defaultProductId,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    status,
    approved_at: approve && !sa.approved_at ? ctx.now : sa.approved_at,
    approved_by: approve && !sa.approved_by ? ctx.actor.user_id : sa.approved_by,
    updated_at: ctx.now,
  };
  const names = await namesOf(ctx, resolved, sa, state);
  await runBatch(ctx.db, [
    ctx.db.update(serviceAgreements).set(values).where(eq(serviceAgreements.id, sa.id)),
    ...rowStatements(ctx, sa.id, resolved, state.rows, state.contracts),
    ...(status === 'active'
      ? contractSyncStatements(
          ctx,
          {
            publicId: sa.public_id,
            companyId: sa.company_id,
            clientId: sa.client_id,
            defaultProductId: resolved.defaultProductId,
          },
          resolved,
          state.contracts,
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action:
        approve && sa.status !== 'active' ? (sa.status === 'pending' ? 'approved' : 'activated') : 'updated',
      before: { ...agreementForLog(sa, names), ...rowsForLog(state.rows, names) },
      after: {
        ...agreementForLog({ ...sa, ...values }, names),
        ...rowsForLog(resolvedLogRows(resolved.rows), names),
      },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}

/** The agreement's saved rows as an input (for activating, adding a row, or setting the default). */
function savedRowsAsInput(
  rows: RowRow[],
  productById: Map<number, ProductRow>,
  campusPublicId: Map<number, string>,
): AgreementRowInput[] {
  return rows.map((r) => ({
    id: r.id,
    product_id: productById.get(r.product_id)!.public_id,
    campus_id: campusPublicId.get(r.campus_id)!,
    net_price: r.net_minor,
    sale_price: r.sale_minor,
    min_days: r.min_days,
    start_date: r.start_date,
    end_date: r.end_date ?? undefined,
    po_number: r.po_number ?? undefined,
  }));
}

async function savedAsInput(ctx: ActorCtx, sa: AgreementRow, rows: RowRow[]) {
  const productIds = [...new Set([...rows.map((r) => r.product_id), sa.default_product_id ?? 0])];
  const campusIds = [...new Set(rows.map((r) => r.campus_id))];
  const [productRows, campusRows, insurerRows] = await ctx.db.batch([
    ctx.db.select().from(products).where(inArray(products.id, productIds)),
    ctx.db
      .select({ id: campuses.id, public_id: campuses.public_id })
      .from(campuses)
      .where(inArray(campuses.id, campusIds.length ? campusIds : [0])),
    ctx.db
      .select({ public_id: insurers.public_id })
      .from(insurers)
      .where(eq(insurers.id, sa.insurer_id ?? 0)),
  ]);
  const productById = new Map(productRows.map((p) => [p.id, p]));
  return {
    name: sa.name,
    insurer_id: insurerRows[0]?.public_id ?? '',
    start_date: sa.start_date,
    end_date: sa.end_date ?? undefined,
    default_product_id: sa.default_product_id ? productById.get(sa.default_product_id)?.public_id : undefined,
    rows: savedRowsAsInput(rows, productById, new Map(campusRows.map((c) => [c.id, c.public_id]))),
  };
}

/**
 * service-agreements/{id}/status/update: activate (pending or inactive becomes active; its contracts are
 * made or reactivated) or deactivate (inactive; its active contracts are archived).
 */
export async function setServiceAgreementStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'inactive',
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  if (sa.status === status)
    throw ValidationFailed.field('status', msg(`service_agreements.errors.already_${status}`));
  if (status === 'active') {
    const state = await currentState(ctx, sa);
    const input = await savedAsInput(ctx, sa, state.rows);
    const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
    const resolved = await resolveInput(ctx, client, input, state.rowById);
    const names = await namesOf(ctx, resolved, sa, state);
    await runBatch(ctx.db, [
      ctx.db
        .update(serviceAgreements)
        .set({
          status: 'active',
          approved_at: sa.approved_at ?? ctx.now,
          approved_by: sa.approved_by ?? ctx.actor.user_id,
          updated_at: ctx.now,
        })
        .where(eq(serviceAgreements.id, sa.id)),
      ...contractSyncStatements(
        ctx,
        {
          publicId: sa.public_id,
          companyId: sa.company_id,
          clientId: sa.client_id,
          defaultProductId: sa.default_product_id,
        },
        resolved,
        state.contracts,
        names,
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: sa.status === 'pending' ? 'approved' : 'activated',
        before: { status: sa.status },
        after: { status: 'active' },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  } else {
    const active = await ctx.db
      .select()
      .from(contracts)
      .where(and(eq(contracts.service_agreement_id, sa.id), eq(contracts.status, 'active')));
    await runBatch(ctx.db, [
      ctx.db
        .update(serviceAgreements)
        .set({ status: 'inactive', updated_at: ctx.now })
        .where(eq(serviceAgreements.id, sa.id)),
      ctx.db
        .update(contracts)
        .set({ status: 'archived', updated_at: ctx.now })
        .where(and(eq(contracts.service_agreement_id, sa.id), eq(contracts.status, 'active'))),
      ...active.map((c) =>
        logActivity(ctx, {
          entity_type: 'contract',
          entity_id: c.id,
          action: 'archived',
          before: { status: 'active' },
          after: { status: 'archived', reason: 'service agreement deactivated' },
          company_id: c.company_id,
          client_id: c.client_id,
        }),
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: 'deactivated',
        before: { status: sa.status },
        after: { status: 'inactive' },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  }
  return getServiceAgreement(ctx, sa.public_id);
}

/**
 * service-agreements/{id}/contracts/add: one more product row; on an active agreement its contract is
 * made at once. Row errors are keyed by the row's field (`product_id`, ...).
 */
export async function addServiceAgreementContract(
  ctx: ActorCtx,
  id: string,
  row: AgreementRowInput,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const state = await currentState(ctx, sa);
  const saved = await savedAsInput(ctx, sa, state.rows);
  const input = { ...saved, rows: [...saved.rows, { ...row, id: undefined }] };
  const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
  const last = input.rows.length - 1;
  // Errors of the new row land on its own fields; the saved rows were checked when saved.
  const resolved = await resolveInput(ctx, client, input, state.rowById, (i) =>
    i === last ? '' : `rows.${i}`,
  ).catch((e) => {
    if (e instanceof ValidationFailed)
      throw new ValidationFailed(e.errors.map((x) => ({ ...x, key: x.key.replace(/^\./, '') })));
    throw e;
  });
  const names = await namesOf(ctx, resolved, sa, state);
  await runBatch(ctx.db, [
    ctx.db.update(serviceAgreements).set({ updated_at: ctx.now }).where(eq(serviceAgreements.id, sa.id)),
    ...rowStatements(ctx, sa.id, resolved, state.rows, state.contracts),
    ...(sa.status === 'active'
      ? contractSyncStatements(
          ctx,
          {
            publicId: sa.public_id,
            companyId: sa.company_id,
            clientId: sa.client_id,
            defaultProductId: sa.default_product_id,
          },
          resolved,
          state.contracts,
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'row_added',
      after: rowsForLog(resolvedLogRows([resolved.rows[last]]), names),
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}

/** service-agreements/{id}/default-product: the product marked default (null clears it). */
export async function setDefaultProduct(
  ctx: ActorCtx,
  id: string,
  productId: string | null | undefined,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  let product: ProductRow | null = null;
  if (productId) {
    [product] = await ctx.db
      .select()
      .from(products)
      .where(and(eq(products.public_id, productId), eq(products.company_id, sa.company_id)))
      .limit(1);
    if (!product) throw ValidationFailed.field('product_id', msg('contracts.errors.product_not_found'));
  }
  const names = await logNames(ctx, { products: [sa.default_product_id] });
  await runBatch(ctx.db, [
    ctx.db
      .update(serviceAgreements)
      .set({ default_product_id: product?.id ?? null, updated_at: ctx.now })
      .where(eq(serviceAgreements.id, sa.id)),
    ctx.db
      .update(contracts)
      .set({ is_default: sql`${contracts.product_id} = ${product?.id ?? 0}`, updated_at: ctx.now })
      .where(eq(contracts.service_agreement_id, sa.id)),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'default_product_set',
      before: { default_product: names.product.get(sa.default_product_id ?? 0) ?? null },
      after: { default_product: product ? `${product.name} (${product.code})` : null },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}

// ---------------------------------------------------------------- documents

/**
 * service-agreements/{id}/documents/add: several files (pdf, docx, xlsx, png, jpg; 10 MB each), checked
 * by content, stored in R2 under `service-agreements/<id>/`, listed after the ones already there.
 */
export async function addAgreementDocuments(
  ctx: ActorCtx,
  id: string,
  files: unknown[],
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const present = files.filter((f) => f instanceof Blob && !(f instanceof File && !f.name && f.size === 0));
  if (!present.length) throw ValidationFailed.field('documents', msg('validation.required'));
  const checked: CheckedFile[] = [];
  for (const [i, f] of present.entries()) {
    checked.push(
      await checkUpload(f, {
        field: present.length > 1 ? `documents.${i}` : 'documents',
        allowed: AGREEMENT_DOCUMENT_KINDS,
        maxMb: AGREEMENT_DOCUMENT_MAX_MB,
      }),
    );
  }
  const [{ count, last }] = await ctx.db
    .select({ count: sql<number>`count(*)`, last: max(serviceAgreementDocuments.position) })
    .from(serviceAgreementDocuments)
    .where(eq(serviceAgreementDocuments.service_agreement_id, sa.id));
  if (Number(count) + checked.length > MAX_AGREEMENT_DOCUMENTS)
    throw ValidationFailed.field(
      'documents',
      msg('service_agreements.errors.too_many_documents', { max: MAX_AGREEMENT_DOCUMENTS }),
    );
  const keys = checked.map((f) => fileKey(`service-agreements/${sa.public_id}`, f.name));
  await Promise.all(checked.map((f, i) => putFile(ctx.env.FILES, keys[i], f)));
  try {
    const start = (last ?? -1) + 1;
    await runBatch(ctx.db, [
      ...checked.map((f, i) =>
        ctx.db.insert(serviceAgreementDocuments).values({
          service_agreement_id: sa.id,
          position: start + i,
          file_key: keys[i],
          file_name: f.name,
          content_type: f.contentType,
          size: f.size,
          created_at: ctx.now,
          updated_at: ctx.now,
        }),
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: 'documents_added',
        after: { documents: checked.map((f) => f.name).join(', ') },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  } catch (e) {
    await deleteFiles(ctx.env.FILES, keys);
    throw e;
  }
  return getServiceAgreement(ctx, sa.public_id);
}

async function documentAt(ctx: ActorCtx, sa: AgreementRow, index: number) {
  const docs = await ctx.db
    .select()
    .from(serviceAgreementDocuments)
    .where(eq(serviceAgreementDocuments.service_agreement_id, sa.id))
    .orderBy(asc(serviceAgreementDocuments.position), asc(serviceAgreementDocuments.id));
  const doc = docs[index];
  if (!doc) throw new NotFound(msg('service_agreements.errors.document_not_found'));
  return doc;
}

/** service-agreements/{id}/documents/download: the file at `index` (0-based), streamed from R2. */
export async function downloadAgreementDocument(ctx: ActorCtx, id: string, index: number): Promise<Response> {
  requirePermission(ctx.actor, 'read_service_agreement');
  const sa = await findAgreement(ctx, id);
  const doc = await documentAt(ctx, sa, index);
  const response = await fileResponse(ctx.env.FILES, doc.file_key, {
    name: doc.file_name,
    contentType: doc.content_type,
  });
  if (!response) throw new NotFound(msg('service_agreements.errors.document_not_found'));
  return response;
}

/** Removes the document at `index`; the file leaves R2 once the row is gone. */
export async function removeAgreementDocument(
  ctx: ActorCtx,
  id: string,
  index: number,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const doc = await documentAt(ctx, sa, index);
  await runBatch(ctx.db, [
    ctx.db.delete(serviceAgreementDocuments).where(eq(serviceAgreementDocuments.id, doc.id)),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'document_removed',
      before: { document: doc.file_name },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  await deleteFiles(ctx.env.FILES, [doc.file_key]);
  return getServiceAgreement(ctx, sa.public_id);
}
