import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, clients, insurers, products, serviceAgreements } from '../../drizzle/schema';
import { publicId } from '../../workers/platform/crypto';
import { insurerListSchema, insurerSchema } from '../../workers/domain/insurers/schema';
import {
  createInsurer,
  deleteInsurer,
  getInsurer,
  insurerActivity,
  insurersSummary,
  listInsurers,
  updateInsurer,
  updateInsurerStatus,
} from '../../workers/domain/insurers/service';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, SETUP_TIMEOUT_MS } from '../support/world';
import { buildInsurer, chooseCompany, seedConfigWorld, type ConfigWorld } from '../support/config';

let w: ConfigWorld;
let admin: ActorCtx;
let executive: ActorCtx;
let finance: ActorCtx;

beforeAll(async () => {
  w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.albion.id);
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  executive = await actorCtx(DEMO_ACCOUNTS.executive);
  finance = await actorCtx(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

const input = (v: Record<string, unknown>) => insurerSchema.parse(v);
const fieldErrors = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors;
    throw e;
  }
  throw new Error('expected a validation failure');
};

describe('insurer rules', () => {
  it('requires a name, and a phone number and its country together', () => {
    const r = insurerSchema.safeParse({ name: '', phone_number: '2071234567' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).sort()).toEqual([
      'name: validation.required',
      'phone_country: validation.required',
    ]);
    const other = insurerSchema.safeParse({ name: 'X', phone_country: 'GB' });
    expect(other.error!.issues.map((i) => i.path.join('.'))).toEqual(['phone_number']);
  });

  it('checks email, website and code formats', () => {
    const r = insurerSchema.safeParse({ name: 'X', email: 'not-an-email', website: 'ftp://x', code: 'A B' });
    expect(r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).sort()).toEqual([
      'code: insurers.errors.code',
      'email: validation.email_invalid',
      'website: validation.url',
    ]);
  });

  it("refuses a phone country no country has: 'Dial code not found.'", async () => {
    const errors = await fieldErrors(
      createInsurer(admin, input({ name: 'Nowhere Mutual', phone_country: 'QQ', phone_number: '12345' })),
    );
    expect(errors).toEqual([{ key: 'phone_country', message: 'validation.phone_country' }]);
  });
});

describe('insurers', () => {
  it('adds an insurer to the company chosen in the top bar, with a log row', async () => {
    const created = await createInsurer(
      admin,
      input({
        name: 'Thames Insurance plc',
        code: 'THAMES',
        email: 'claims@thames.test',
        phone_country: 'gb',
        phone_number: '2071234567',
        website: 'https://thames.test',
      }),
    );
    expect(created).toMatchObject({
      name: 'Thames Insurance plc',
      code: 'THAMES',
      phone_country: 'GB',
      status: 'active',
      company_id: w.albion.public_id,
    });
    const [row] = await db().select().from(insurers).where(eq(insurers.public_id, created.id));
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'insurer'), eq(activityLogs.entity_id, row.id)));
    expect(logs.map((l) => l.action)).toEqual(['created']);
    expect(logs[0].company_id).toBe(w.albion.id);
  });

  it('refuses a second insurer with the same code in the same company, whatever the case', async () => {
    const errors = await fieldErrors(createInsurer(admin, input({ name: 'Thames Two', code: 'thames' })));
    expect(errors).toEqual([{ key: 'code', message: 'insurers.errors.code_taken' }]);
  });

  it('with "all companies" chosen, asks which company unless one is given', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, 0);
    const all = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.albion.id);
    expect(await fieldErrors(createInsurer(all, input({ name: 'Which Co' })))).toEqual([
      { key: 'company_id', message: 'insurers.errors.company' },
    ]);
    const made = await createInsurer(all, input({ name: 'Britannia Re', company_id: w.britannia.public_id }));
    expect(made.company_id).toBe(w.britannia.public_id);
    // The same code is free in another company.
    const sameCode = await createInsurer(
      all,
      input({ name: 'Britannia Thames', code: 'THAMES', company_id: w.britannia.public_id }),
    );
    expect(sameCode.code).toBe('THAMES');
    // A company the user does not belong to cannot be named.
    expect(
      await fieldErrors(createInsurer(all, input({ name: 'Sneaky', company_id: w.stranger.public_id }))),
    ).toEqual([{ key: 'company_id', message: 'insurers.errors.company' }]);
  });

  it('needs create_insurer to add and read_insurer to list', async () => {
    await expect(createInsurer(executive, input({ name: 'Nope' }))).rejects.toBeInstanceOf(Forbidden);
    await expect(listInsurers(finance, insurerListSchema.parse({}))).rejects.toBeInstanceOf(Forbidden);
  });

  it('lists the insurers of the chosen company only, with search, status filter and summary', async () => {
    const list = await listInsurers(admin, insurerListSchema.parse({ items: 100 }));
    const names = list.items.map((i) => i.name);
    expect(names).toContain('Thames Insurance plc');
    expect(names).toContain('Albion Underwriting');
    expect(names).not.toContain('Britannia Re');
    expect(names).not.toContain('Dalriada Mutual');
    const found = await listInsurers(admin, insurerListSchema.parse({ search: 'thames' }));
    expect(found.items.map((i) => i.name)).toEqual(['Thames Insurance plc']);
    const summary = await insurersSummary(admin);
    expect(summary.total).toBe(list.meta.total);
  });

  it('updates an insurer and logs only what changed', async () => {
    const [thames] = (await listInsurers(admin, insurerListSchema.parse({ search: 'thames' }))).items;
    const updated = await updateInsurer(
      admin,
      thames.id,
      input({
        name: 'Thames Insurance plc',
        code: 'THAMES',
        email: 'new@thames.test',
        website: 'https://thames.test',
      }),
    );
    expect(updated).toMatchObject({ email: 'new@thames.test', phone_number: null, phone_country: null });
    const [row] = await db().select().from(insurers).where(eq(insurers.public_id, thames.id));
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_id, row.id),
          eq(activityLogs.entity_type, 'insurer'),
          eq(activityLogs.action, 'updated'),
        ),
      );
    expect(log.after).toEqual({ email: 'new@thames.test', phone_country: null, phone_number: null });
    const feed = await insurerActivity(admin, thames.id);
    expect(feed.items.map((r) => r.action)).toEqual(['updated', 'created']);
  });

  it('archives and reactivates an insurer', async () => {
    const archived = await updateInsurerStatus(admin, w.albionInsurer.public_id, 'archived');
    expect(archived.status).toBe('archived');
    const onlyArchived = await listInsurers(admin, insurerListSchema.parse({ status: 'archived' }));
    expect(onlyArchived.items.map((i) => i.id)).toEqual([w.albionInsurer.public_id]);
    expect((await updateInsurerStatus(admin, w.albionInsurer.public_id, 'active')).status).toBe('active');
  });

  it('refuses to delete an insurer a product uses', async () => {
    const used = await buildInsurer(db(), { companyId: w.albion.id, name: 'Product Insurer' });
    await db().insert(products).values({
      public_id: publicId(),
      company_id: w.albion.id,
      insurer_id: used.id,
      code: 'INS_USED',
      name: 'Uses an insurer',
      effective_start_date: '2026-01-01',
    });
    const refused = deleteInsurer(admin, used.public_id);
    await expect(refused).rejects.toBeInstanceOf(Conflict);
    await refused.catch((e: Conflict) => expect(e.message).toBe('insurers.errors.in_use'));
    expect(await db().select().from(insurers).where(eq(insurers.id, used.id))).toHaveLength(1);
  });

  it('refuses to delete an insurer a service agreement uses', async () => {
    const used = await buildInsurer(db(), { companyId: w.albion.id, name: 'Agreement Insurer' });
    const [oakwood] = await db().select().from(clients).where(eq(clients.company_id, w.albion.id)).limit(1);
    await db().insert(serviceAgreements).values({
      public_id: publicId(),
      client_id: oakwood.id,
      company_id: w.albion.id,
      insurer_id: used.id,
      name: 'Agreement 2026',
      start_date: '2026-01-01',
    });
    await expect(deleteInsurer(admin, used.public_id)).rejects.toBeInstanceOf(Conflict);
  });

  it('deletes an unused insurer with a log row; it is then not found', async () => {
    const unused = await buildInsurer(db(), { companyId: w.albion.id, name: 'Short Lived' });
    await deleteInsurer(admin, unused.public_id);
    await expect(getInsurer(admin, unused.public_id)).rejects.toBeInstanceOf(NotFound);
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'insurer'), eq(activityLogs.entity_id, unused.id)));
    expect(log.action).toBe('deleted');
  });

  it('needs delete_insurer to delete', async () => {
    const ac = await actorCtx(DEMO_ACCOUNTS.accountManager);
    await expect(deleteInsurer(ac, w.albionInsurer.public_id)).rejects.toBeInstanceOf(Forbidden);
  });
});
