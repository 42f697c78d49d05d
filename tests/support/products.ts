/**
 * Test world of products: the UK demo seed, insurers of its companies, and a stranger company (Dunmore)
 * with its own insurer, product, price, document and group, and two users of its own: a company
 * administrator and a school user whose role is given every product permission (so that only the
 * tenant scope, not a missing permission, can keep them out).
 */
import { inArray } from 'drizzle-orm';
import { ZodError, type ZodTypeAny } from 'zod';
import { companies, insurers, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { publicId } from '../../workers/platform/crypto';
import type { DB } from '../../workers/platform/db';
import type { ActorCtx } from '../../workers/domain/context';
import { ValidationFailed, type FieldError } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { createProduct } from '../../workers/domain/products/service';
import { addPrice } from '../../workers/domain/products/prices';
import { addDocument } from '../../workers/domain/products/documents';
import { createProductGroup } from '../../workers/domain/products/groups';
import {
  createProductSchema,
  documentSchema,
  priceSchema,
  productGroupSchema,
} from '../../workers/domain/products/schema';
import { actorCtx, DEMO_ACCOUNTS, seedUk } from './world';
import { fileOf, pdfBytes } from './files';

export const DUNMORE = {
  companyUser: 'dunmore.admin@dunmore.test',
  schoolUser: 'dunmore.school@dunmore.test',
} as const;

/** YYYY-MM-DD `days` from today (UTC). */
export function day(days: number, from = new Date()): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

let codeCounter = 0;
/** A product code not used before in this test file. */
export function nextCode(prefix = 'P'): string {
  codeCounter += 1;
  return `${prefix}${String(codeCounter).padStart(4, '0')}`;
}

/** The raw fields of a valid product, as a form or an API client sends them. */
export function productInput(overrides: Record<string, unknown> = {}) {
  return {
    code: nextCode(),
    name: 'Student Travel Plus',
    effective_start_date: day(1),
    effective_end_date: day(400),
    currency: 'GBP',
    min_purchase_days: '6',
    territorial_limit: 'international',
    ...overrides,
  };
}

export function priceInput(overrides: Record<string, unknown> = {}) {
  return { min_days: 6, max_days: 30, net: '10.00', sale: '12.50', ...overrides };
}

export function documentInput(overrides: Record<string, unknown> = {}) {
  return {
    type: 'policy_wording',
    language: 'en',
    title: 'Policy wording',
    visibility: 'clients',
    ...overrides,
  };
}

export const makeProduct = (ctx: ActorCtx, raw: Record<string, unknown> = {}) =>
  createProduct(ctx, createProductSchema.parse(productInput(raw)));
export const makePrice = (ctx: ActorCtx, productId: string, raw: Record<string, unknown> = {}) =>
  addPrice(ctx, productId, priceSchema.parse(priceInput(raw)));
export const makeDocument = (ctx: ActorCtx, productId: string, raw: Record<string, unknown> = {}) =>
  addDocument(ctx, productId, documentSchema.parse(documentInput(raw)), fileOf(pdfBytes(), 'wording.pdf'));
export const makeGroup = (ctx: ActorCtx, raw: Record<string, unknown> = {}) =>
  createProductGroup(ctx, productGroupSchema.parse({ name: 'Summer schools', ...raw }));

export async function buildInsurer(
  d: DB,
  companyId: number,
  name: string,
  status: 'active' | 'archived' = 'active',
) {
  const [row] = await d
    .insert(insurers)
    .values({ public_id: publicId(), company_id: companyId, name, status, email: 'claims@example.test' })
    .returning();
  return row;
}

/** A role of any family holding the given permissions (for scope tests only). */
export async function buildRole(d: DB, slug: string, family: 'company' | 'school', names: string[]) {
  const [role] = await d.insert(roles).values({ slug, name: slug, family }).returning();
  const perms = await d.select().from(permissions).where(inArray(permissions.name, names));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
  return role;
}

export const PRODUCT_PERMISSIONS = [
  'read_product',
  'create_product',
  'update_product',
  'archive_product',
  'read_product_group',
  'create_product_group',
  'update_product_group',
  'delete_product_group',
];

export interface ProductsWorld {
  albionId: number;
  britanniaId: number;
  albionInsurer: typeof insurers.$inferSelect;
  britanniaInsurer: typeof insurers.$inferSelect;
  dunmoreId: number;
  dunmoreProduct: { id: string };
}

/** Seeds the demo data, insurers, and the stranger company Dunmore with its records and users. */
export async function seedProductsWorld(): Promise<ProductsWorld> {
  const d = await seedUk();
  const all = await d.select().from(companies);
  const albion = all.find((c) => c.name.startsWith('Albion'))!;
  const britannia = all.find((c) => c.name.startsWith('Britannia'))!;
  const albionInsurer = await buildInsurer(d, albion.id, 'Lloyds Syndicate 1234');
  const britanniaInsurer = await buildInsurer(d, britannia.id, 'Britannia Mutual');

  const dunmore = await buildCompany(d, { name: 'Dunmore Cover Ltd', country: 'IE', currency: 'EUR' });
  const dunmoreSchool = await buildClient(d, { name: 'Dunmore Academy', companyId: dunmore.id });
  await buildInsurer(d, dunmore.id, 'Dunmore Underwriting');
  await buildRole(d, 'school_product_reader', 'school', PRODUCT_PERMISSIONS);
  await buildUser(d, {
    email: DUNMORE.companyUser,
    first_name: 'Dana',
    last_name: 'Dunmore',
    roles: ['administrator'],
    companyIds: [dunmore.id],
  });
  await buildUser(d, {
    email: DUNMORE.schoolUser,
    first_name: 'Sean',
    last_name: 'School',
    roles: ['school_product_reader'],
    clientId: dunmoreSchool.id,
    canAccessAllCampuses: true,
  });
  const dunmoreCtx = await actorCtx(DUNMORE.companyUser);
  const dunmoreProduct = await makeProduct(dunmoreCtx, { name: 'Dunmore Plan', currency: 'EUR' });
  await makePrice(dunmoreCtx, dunmoreProduct.id);
  await makeDocument(dunmoreCtx, dunmoreProduct.id);
  await makeGroup(dunmoreCtx, { name: 'Dunmore group', product_ids: [dunmoreProduct.id] });
  return {
    albionId: albion.id,
    britanniaId: britannia.id,
    albionInsurer,
    britanniaInsurer,
    dunmoreId: dunmore.id,
    dunmoreProduct: { id: dunmoreProduct.id },
  };
}

/** The senior admin looking at the first demo company (Albion). */
export const senior = () => actorCtx(DEMO_ACCOUNTS.seniorAdmin);

/** The field errors a call fails with (a zod parse or a service rule), in English as the API says them. */
export async function errorsOf(run: () => unknown): Promise<{ key: string; text: string }[]> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors.map(english);
    if (e instanceof ZodError)
      return e.issues.map((i) => english({ key: i.path.join('.'), message: i.message }));
    throw e;
  }
  throw new Error('Expected the call to fail validation, and it succeeded');
}

const english = (e: FieldError) => ({ key: e.key, text: formatMessage(e.message) });

/** Parses with a schema and runs the service, as both doors do. */
export function via<S extends ZodTypeAny, R>(schema: S, run: (input: S['_output']) => R) {
  return (raw: unknown) => run(schema.parse(raw));
}

/** A logs-tab row as one object: its action, who, and the changed fields' values before and after. */
export function sides(row: {
  action: string;
  actor: string | null;
  changes: { field: string; before: unknown; after: unknown }[];
}) {
  return {
    action: row.action,
    actor: row.actor,
    before: Object.fromEntries(row.changes.map((c) => [c.field, c.before])),
    after: Object.fromEntries(row.changes.map((c) => [c.field, c.after])),
  };
}
