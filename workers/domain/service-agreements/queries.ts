/**
 * Reading service agreements: the list, one agreement with its rows and documents, its contracts and
 * logs, and the choices of the agreement form.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  contracts,
  insurers,
  products,
  serviceAgreementDocuments,
  serviceAgreementRows,
  serviceAgreements,
} from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findClient } from '../access/finders';
import type { ActorCtx } from '../context';
import type { ContractListQuery } from '../contracts/schema';
import { queryContracts } from '../contracts/service';
import { activityFeed } from '../activity/feed';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { major, todayIso } from '../validation';
import { isValidAgreement, type AgreementListQuery } from './schema';
import { type AgreementRow, as, visibleAgreements, findAgreement } from './records';

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
