/**
 * Test world of policy documents: the checkout world with issued policies (names in several scripts:
 * Łukasz, Seán, Zoë, 王芳), a product with its claims and medical assistance contacts and insurer, a
 * product document, and strangers for the isolation matrix. Each test file has its own storage.
 */
import { eq, inArray } from 'drizzle-orm';
import {
  insurers,
  permissions,
  policies,
  productDocuments,
  products,
  rolePermissions,
  roles,
  users,
} from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { PERMISSION_GROUPS } from '../../workers/domain/access/permissions';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import {
  asSchool,
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  trip,
  type CheckoutWorld,
} from './checkout';
import { STRANGER } from './contracts';
import { pdfBytes } from './files';

export type PolicyRow = typeof policies.$inferSelect;

export interface DocumentsWorld extends CheckoutWorld {
  /** Issued on the North campus: Łukasz Nowak, Seán Ó Briain, Zoë Müller, 王芳 (no email). */
  north: CheckoutWorld['north'];
  lukasz: PolicyRow;
  sean: PolicyRow;
  zoe: PolicyRow;
  wang: PolicyRow;
  /** Issued on the South campus (the North campus employee may not see it). */
  southPolicy: PolicyRow;
  productDocumentId: number;
}

export const ACCOUNT_MANAGER_ELSEWHERE = 'am@caledonia.test';

/** Issues the world's policies through the real checkout. */
export async function seedDocumentsWorld(): Promise<DocumentsWorld> {
  const w = await seedCheckoutWorld();
  const d = db();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  const [insurer] = await d
    .insert(insurers)
    .values({
      public_id: 'ins-docs-test',
      company_id: w.albion.id,
      name: 'Albion Underwriting Ltd',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning();
  await d
    .update(products)
    .set({
      insurer_id: insurer.id,
      master_certificate_number: 'MC-2026-0042',
      claim_phone: '+44 20 7946 0001',
      claim_email: 'claims@albion.example',
      medical_assistance_phone: '+44 20 7946 0999',
      medical_assistance_email: 'assist@albion.example',
    })
    .where(eq(products.id, w.product.id));
  const key = 'products/test/wording.pdf';
  const bytes = pdfBytes();
  const { env } = await import('cloudflare:test');
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: 'application/pdf' } });
  const [doc] = await d
    .insert(productDocuments)
    .values({
      product_id: w.product.id,
      type: 'policy_wording',
      language: 'en',
      title: 'Policy wording',
      visibility: 'clients',
      file_key: key,
      file_name: 'Policy wording.pdf',
      content_type: 'application/pdf',
      size: bytes.length,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning();

  await openBatch(w, [
    { first_name: 'Łukasz', last_name: 'Nowak', ...trip(20), email: 'lukasz@example.test' },
    { first_name: 'Seán', last_name: 'Ó Briain', ...trip(20), email: 'sean@example.test' },
    { first_name: 'Zoë', last_name: 'Müller', ...trip(20), email: 'zoe@example.test' },
    { first_name: '芳', last_name: '王', ...trip(20), email: null },
  ]);
  await openBatch(
    w,
    [{ first_name: 'Sasha', last_name: 'South', ...trip(20), email: 'sasha@example.test' }],
    {
      campus: 'south',
    },
  );
  await confirmOpenBatches(
    await asSchool(),
    confirmOpenSchema.parse({ checkout_key: checkoutKey(), payment_method: 'invoiced_directly' }),
  );
  const issued = await d.select().from(policies).orderBy(policies.id);
  const by = (first: string) => issued.find((p) => p.first_name === first)!;

  // Strangers: the stranger school user's role also gets every policy right, so only the scope keeps
  // them out; an account manager of the other company.
  const [schoolRole] = await d.select().from(roles).where(eq(roles.slug, 'school_contracts_all'));
  const perms = await d
    .select()
    .from(permissions)
    .where(inArray(permissions.name, [...PERMISSION_GROUPS.policy]));
  await d
    .insert(rolePermissions)
    .values(perms.map((p) => ({ role_id: schoolRole.id, permission_id: p.id })))
    .onConflictDoNothing();
  const [existing] = await d.select().from(users).where(eq(users.email, ACCOUNT_MANAGER_ELSEWHERE));
  if (!existing)
    await buildUser(d, {
      email: ACCOUNT_MANAGER_ELSEWHERE,
      first_name: 'Angus',
      last_name: 'Manager',
      roles: ['account_manager'],
      companyIds: [w.caledonia.id],
    });
  return {
    ...w,
    lukasz: by('Łukasz'),
    sean: by('Seán'),
    zoe: by('Zoë'),
    wang: by('芳'),
    southPolicy: by('Sasha'),
    productDocumentId: doc.id,
  };
}

/** Moves a policy to another version (as any change to it does). */
export async function bumpVersion(policyId: number) {
  const [row] = await db().select().from(policies).where(eq(policies.id, policyId));
  await db()
    .update(policies)
    .set({ version: row.version + 1, end_date: day(45) })
    .where(eq(policies.id, policyId));
}

export { STRANGER, day, db };
