import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { enrollments, policyBatches, settings, taxRates } from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import { buildContract, buildProduct } from '../../drizzle/seed/contracts';
import { createBatch, type BatchRow } from '../../workers/domain/enrollments/batches';
import { openBatch, stageEnrollments, type StagedRow } from '../../workers/domain/enrollments/staging';
import {
  addApplicant,
  addEnrollments,
  assignGroupLeader,
  confirmBatch,
  deleteBatch,
  deleteEnrollments,
  setDependency,
  setWelcomeEmail,
  updateEnrollment,
  updatePlan,
  validateApplicants,
} from '../../workers/domain/enrollments/service';
import { orderChoices, startSingleOrder, unfinishedOrders } from '../../workers/domain/enrollments/order';
import {
  batchOverview,
  getBatch,
  getEnrollment,
  listEnrollments,
} from '../../workers/domain/enrollments/queries';
import { cartCount, cartEnrollments, cartOverview } from '../../workers/domain/enrollments/cart';
import type { ActorCtx } from '../../workers/domain/context';
import { Conflict, NotFound, ValidationFailed } from '../../workers/domain/errors';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, asSenior, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

let w: ContractsWorld;
let contractId: string;
let secondContractId: string;
let FR: string;
let GB: string;

const school = () => actorCtx(DEMO_ACCOUNTS.schoolAdmin);

beforeAll(async () => {
  w = await seedContractsWorld();
  const d = db();
  const contract = await buildContract(d, {
    campusId: w.north.id,
    productId: w.product.id,
    startDate: day(-30),
    endDate: day(400),
    saleMinor: 9500,
    netMinor: 6000,
  });
  contractId = contract.public_id;
  const euro = await buildProduct(d, {
    companyId: w.albion.id,
    code: 'TEST_EURO',
    name: 'Euro Cover',
    currency: 'EUR',
  });
  const second = await buildContract(d, {
    campusId: w.north.id,
    productId: euro.id,
    startDate: day(-30),
    saleMinor: 12000,
  });
  secondContractId = second.public_id;
  FR = String(await countryId(d, 'FR'));
  GB = String(await countryId(d, 'GB'));
  await d.insert(taxRates).values({
    country_id: Number(GB),
    rate_bp: 1000,
    start_date: day(-100),
    active: true,
  });
}, SETUP_TIMEOUT_MS);

const person = (first: string, over: Record<string, unknown> = {}) => ({
  type: 'student',
  first_name: first,
  last_name: 'Okafor',
  date_of_birth: '2007-05-06',
  residence_country_id: FR,
  destination_country_id: GB,
  start_date: day(10),
  end_date: day(30),
  ...over,
});

async function draft(ctx?: ActorCtx, contract = contractId): Promise<BatchRow> {
  return createBatch(ctx ?? (await school()), {
    campus_id: w.north.public_id,
    contract_id: contract,
    source: 'single',
  });
}

async function rowsOf(batchId: number) {
  return db()
    .select()
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId))
    .orderBy(asc(enrollments.position));
}

const fieldsOf = (e: unknown) => (e as ValidationFailed).errors.map((x) => x.key);

describe('the order page', () => {
  it('fixes a school user to their client and offers the products available for the chosen campus', async () => {
    const choices = await orderChoices(await school(), { campus_id: w.north.public_id });
    expect(choices.staff).toBe(false);
    expect(choices.clients).toEqual([]);
    expect(choices.client?.name).toBe('Oakwood International School');
    expect(choices.campuses.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Oakwood North Campus', 'Oakwood South Campus']),
    );
    expect(choices.campus?.id).toBe(w.north.public_id);
    expect(choices.products.map((p) => p.id)).toEqual(expect.arrayContaining([contractId, secondContractId]));
    expect(choices.no_contract).toBeNull();
  });

  it("says so when the campus has no contract, in the spec's words", async () => {
    const choices = await orderChoices(await school(), { campus_id: w.south.public_id });
    expect(choices.products).toEqual([]);
    expect(choices.no_contract).toBe(
      'contracts.errors.no_contract_for_campus|{"campus":"Oakwood South Campus"}',
    );
  });

  it("lets staff choose among the clients they can see, and not another company's", async () => {
    const senior = await asSenior();
    const choices = await orderChoices(senior, { client_id: w.oakwood.public_id });
    expect(choices.staff).toBe(true);
    expect(choices.clients.map((c) => c.id)).toContain(w.oakwood.public_id);
    expect(choices.clients.map((c) => c.id)).not.toContain(w.highland.public_id);
    expect(choices.client?.id).toBe(w.oakwood.public_id);
    const stranger = await orderChoices(senior, { client_id: w.highland.public_id });
    expect(stranger.client).toBeNull();
    expect(stranger.campuses).toEqual([]);
  });

  it('takes up an empty one-by-one draft again instead of making another, and lists unfinished drafts', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    const first = await startSingleOrder(ctx, { campus_id: w.north.public_id, contract_id: contractId });
    const again = await startSingleOrder(ctx, { campus_id: w.north.public_id, contract_id: contractId });
    expect(again.id).toBe(first.id);
    await addApplicant(ctx, first.public_id, { raw: person('Dara') });
    const third = await startSingleOrder(ctx, { campus_id: w.north.public_id, contract_id: contractId });
    expect(third.id).not.toBe(first.id);
    const { drafts } = await unfinishedOrders(ctx);
    expect(drafts.find((d) => d.id === first.public_id)).toMatchObject({
      count: 1,
      campus_name: 'Oakwood North Campus',
      source: 'single',
    });
  });
});

describe('adding applicants one by one', () => {
  it('refuses an applicant with errors, on their fields, and stores nothing', async () => {
    const batch = await draft();
    const refused = await addApplicant(await school(), batch.public_id, {
      raw: person('Ch1oe', { end_date: day(12) }),
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect(fieldsOf(refused)).toEqual(expect.arrayContaining(['first_name']));
    expect(await rowsOf(batch.id)).toHaveLength(0);
    const limits = await addApplicant(await school(), batch.public_id, {
      raw: person('Chloe', { end_date: day(12) }),
    }).catch((e) => e);
    expect((limits as ValidationFailed).errors).toEqual([
      { key: 'end_date', message: 'enrollments.errors.min_days|{"days":6}' },
    ]);
    expect(await rowsOf(batch.id)).toHaveLength(0);
  });

  it('stores a valid applicant with its fee, and numbers them in order', async () => {
    const batch = await draft();
    const ctx = await school();
    const ana = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    expect(ana).toMatchObject({ first_name: 'Ana', position: 1, error_count: 0, errors: [] });
    // 95.00 per trip, 10 % tax in the campus's country.
    expect(ana.fee).toMatchObject({
      premium_minor: 9500,
      tax_minor: 950,
      total_minor: 10450,
      currency: 'GBP',
    });
    const ben = await addApplicant(ctx, batch.public_id, { raw: person('Ben') });
    expect(ben.position).toBe(2);
  });

  it('refuses a duplicate with the same trip dates as a row error', async () => {
    const batch = await draft();
    const ctx = await school();
    await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const twin = await addApplicant(ctx, batch.public_id, { raw: person('Ana') }).catch((e) => e);
    expect(twin).toBeInstanceOf(ValidationFailed);
    expect((twin as ValidationFailed).errors[0]!.key).toBe('row');
    expect((twin as ValidationFailed).errors[0]!.message).toMatch(/^enrollments\.errors\.duplicate\|/);
    const [only] = await rowsOf(batch.id);
    expect(only!.error_count).toBe(0);
  });

  it('needs a student of the order for a family member', async () => {
    const batch = await draft();
    const ctx = await school();
    const alone = await addApplicant(ctx, batch.public_id, {
      raw: person('Eva', { type: 'immediate_family' }),
    }).catch((e) => e);
    expect(fieldsOf(alone)).toEqual(['dependency_id']);
    const student = await addApplicant(ctx, batch.public_id, { raw: person('Luis') });
    const family = await addApplicant(ctx, batch.public_id, {
      raw: person('Eva', { type: 'immediate_family', date_of_birth: '1980-01-01' }),
      dependency_id: student.id,
    });
    expect(family).toMatchObject({
      dependency_id: student.id,
      dependency_name: 'Luis Okafor',
      error_count: 0,
    });
    const notFamily = await addApplicant(ctx, batch.public_id, {
      raw: person('Ivo'),
      dependency_id: student.id,
    }).catch((e) => e);
    expect((notFamily as ValidationFailed).errors).toEqual([
      { key: 'dependency_id', message: 'enrollments.errors.dependency_only_family' },
    ]);
  });

  it('checks the applicant again when it is edited, and refuses the edit with errors when asked', async () => {
    const batch = await draft();
    const ctx = await school();
    const ana = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const longer = await updateEnrollment(ctx, ana.id, { end_date: day(60) }, { validateFirst: true });
    expect(longer).toMatchObject({ end_date: day(60), first_name: 'Ana', error_count: 0 });
    const refused = await updateEnrollment(ctx, ana.id, { first_name: 'An4' }, { validateFirst: true }).catch(
      (e) => e,
    );
    expect(fieldsOf(refused)).toEqual(['first_name']);
    expect((await getEnrollment(ctx, ana.id)).first_name).toBe('Ana');
    // Without validate-first the change is kept with its error, and the fee is gone until fixed.
    const kept = await updateEnrollment(ctx, ana.id, { first_name: 'An4' }, { validateFirst: false });
    expect(kept).toMatchObject({ first_name: 'An4', error_count: 1, fee: null });
    const fixed = await updateEnrollment(ctx, ana.id, { first_name: 'Ana' }, { validateFirst: true });
    expect(fixed).toMatchObject({ error_count: 0, fee: { premium_minor: 9500 } });
  });

  it('flags both twins when an edit makes a duplicate, and clears them when it is undone', async () => {
    const batch = await draft();
    const ctx = await school();
    const ana = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const ben = await addApplicant(ctx, batch.public_id, { raw: person('Ben') });
    await updateEnrollment(ctx, ben.id, { first_name: 'Ana' }, { validateFirst: false });
    expect((await getEnrollment(ctx, ana.id)).error_count).toBe(1);
    await updateEnrollment(ctx, ben.id, { first_name: 'Ben' }, { validateFirst: false });
    expect((await getEnrollment(ctx, ana.id)).error_count).toBe(0);
    expect((await getEnrollment(ctx, ben.id)).error_count).toBe(0);
  });
});

describe('family links and group leaders', () => {
  it('links only a family member, and only to a student of the same batch', async () => {
    const batch = await draft();
    const ctx = await school();
    const student = await addApplicant(ctx, batch.public_id, { raw: person('Luis') });
    const leader = await addApplicant(ctx, batch.public_id, {
      raw: person('Gita', { type: 'group_leader', date_of_birth: '1979-02-02' }),
    });
    const other = await draft();
    const elsewhere = await addApplicant(ctx, other.public_id, { raw: person('Omar') });
    const eva = (
      await addEnrollments(ctx, batch.public_id, {
        items: [{ ...person('Eva', { type: 'immediate_family', date_of_birth: '1981-01-01' }) }],
        validate_first: false,
      })
    ).items[0]!;
    expect(eva.errors).toEqual([
      { field: 'dependency_id', message: 'enrollments.errors.dependency_required' },
    ]);
    await expect(
      setDependency(ctx, { enrollment_id: student.id, dependency_id: student.id }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    await expect(
      setDependency(ctx, { enrollment_id: eva.id, dependency_id: leader.id }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    await expect(
      setDependency(ctx, { enrollment_id: eva.id, dependency_id: elsewhere.id }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    const linked = await setDependency(ctx, { enrollment_id: eva.id, dependency_id: student.id });
    expect(linked).toMatchObject({ dependency_id: student.id, error_count: 0 });
  });

  it('gives selected applicants a group leader of their batch, and takes it away again', async () => {
    const batch = await draft();
    const ctx = await school();
    const a = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const b = await addApplicant(ctx, batch.public_id, { raw: person('Ben') });
    const lead = await addApplicant(ctx, batch.public_id, {
      raw: person('Gita', { type: 'group_leader', date_of_birth: '1979-02-02' }),
    });
    expect(await assignGroupLeader(ctx, { group_leader_id: lead.id, enrollment_ids: [a.id, b.id] })).toEqual({
      updated: 2,
    });
    expect(await getEnrollment(ctx, a.id)).toMatchObject({
      group_leader_id: lead.id,
      group_leader_name: 'Gita Okafor',
      error_count: 0,
    });
    // Not a group leader, a leader of itself, or a leader of another batch: refused.
    expect(
      fieldsOf(
        await assignGroupLeader(ctx, { group_leader_id: b.id, enrollment_ids: [a.id] }).catch((e) => e),
      ),
    ).toEqual(['group_leader_id']);
    expect(
      fieldsOf(
        await assignGroupLeader(ctx, { group_leader_id: lead.id, enrollment_ids: [lead.id] }).catch((e) => e),
      ),
    ).toEqual(['policies']);
    const other = await draft();
    const otherLead = await addApplicant(ctx, other.public_id, {
      raw: person('Hal', { type: 'group_leader', date_of_birth: '1975-02-02' }),
    });
    expect(
      fieldsOf(
        await assignGroupLeader(ctx, { group_leader_id: otherLead.id, enrollment_ids: [a.id] }).catch(
          (e) => e,
        ),
      ),
    ).toEqual(['group_leader_id']);
    await assignGroupLeader(ctx, { group_leader_id: null, enrollment_ids: [a.id] });
    expect((await getEnrollment(ctx, a.id)).group_leader_id).toBeNull();
    expect((await getEnrollment(ctx, b.id)).group_leader_id).toBe(lead.id);
  });
});

describe('adding many and validating through the API calls', () => {
  it('validates applicants for a campus and contract without storing anything', async () => {
    const ctx = await school();
    const before = await db().select().from(enrollments);
    const results = await validateApplicants(ctx, w.north.public_id, {
      contract_id: contractId,
      items: [
        person('Ana'),
        person('B3n'),
        person('Ana'),
        { ...person('Eva', { type: 'immediate_family' }), dependency_index: 0 },
      ],
    });
    expect(results.map((r) => r.valid)).toEqual([false, false, false, true]);
    expect(results[1]!.errors.map((e) => e.field)).toEqual(['first_name']);
    expect(results[0]!.errors[0]!.message).toBe('enrollments.errors.duplicate');
    expect(results[3]!.fee).toMatchObject({ total_minor: 10450 });
    expect(await db().select().from(enrollments)).toHaveLength(before.length);
  });

  it('with validate-first refuses all applicants when one is wrong; without, stores them with errors', async () => {
    const batch = await draft();
    const ctx = await school();
    const refused = await addEnrollments(ctx, batch.public_id, {
      items: [person('Ana'), person('B3n')],
      validate_first: true,
    }).catch((e) => e);
    expect(fieldsOf(refused)).toEqual(['items.1.first_name']);
    expect(await rowsOf(batch.id)).toHaveLength(0);
    const stored = await addEnrollments(ctx, batch.public_id, {
      items: [
        person('Ana'),
        person('B3n'),
        { ...person('Eva', { type: 'immediate_family' }), dependency_index: 0 },
      ],
      validate_first: false,
    });
    expect(stored).toMatchObject({ inserted: 3, with_errors: 1 });
    const rows = await rowsOf(batch.id);
    expect(rows[2]!.dependency_id).toBe(rows[0]!.id);
    expect(
      fieldsOf(
        await addEnrollments(ctx, batch.public_id, {
          items: [{ ...person('Zoe'), group_leader_id: 'nope' }],
          validate_first: false,
        }).catch((e) => e),
      ),
    ).toEqual(['items.0.group_leader_id']);
  });

  it('moves applicants to another product of the campus and prices them again', async () => {
    const ctx = await school();
    const from = await draft();
    const to = await draft(ctx, secondContractId);
    const ana = await addApplicant(ctx, from.public_id, { raw: person('Ana') });
    const ben = await addApplicant(ctx, from.public_id, { raw: person('Ben') });
    const result = await updatePlan(ctx, { batch_id: to.public_id, enrollment_ids: [ana.id] });
    expect(result.moved).toBe(1);
    const moved = await getEnrollment(ctx, ana.id);
    expect(moved).toMatchObject({ batch_id: to.public_id, fee: { premium_minor: 12000, currency: 'EUR' } });
    expect((await getEnrollment(ctx, ben.id)).batch_id).toBe(from.public_id);
    const southContract = await buildContract(db(), {
      campusId: w.south.id,
      productId: w.product.id,
      startDate: day(-1),
    });
    const south = await createBatch(ctx, {
      campus_id: w.south.public_id,
      contract_id: southContract.public_id,
      source: 'single',
    });
    expect(
      fieldsOf(
        await updatePlan(ctx, { batch_id: south.public_id, enrollment_ids: [ben.id] }).catch((e) => e),
      ),
    ).toEqual(['enrollment_ids']);
  });
});

describe('deleting', () => {
  it('deletes a student with its family members, and unlinks those its group leader led', async () => {
    const batch = await draft();
    const ctx = await school();
    const luis = await addApplicant(ctx, batch.public_id, { raw: person('Luis') });
    await addApplicant(ctx, batch.public_id, {
      raw: person('Eva', { type: 'immediate_family', date_of_birth: '1981-01-01' }),
      dependency_id: luis.id,
    });
    const ana = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const lead = await addApplicant(ctx, batch.public_id, {
      raw: person('Gita', { type: 'group_leader', date_of_birth: '1979-02-02' }),
    });
    await assignGroupLeader(ctx, { group_leader_id: lead.id, enrollment_ids: [ana.id] });
    const result = await deleteEnrollments(ctx, [luis.id, lead.id]);
    expect(result).toEqual({ deleted: 3, batches_deleted: [] });
    const left = await rowsOf(batch.id);
    expect(left.map((r) => r.first_name)).toEqual(['Ana']);
    expect(left[0]!.group_leader_id).toBeNull();
    // The draft stays even when empty: the user goes on adding.
    await deleteEnrollments(ctx, [ana.id]);
    expect(await getBatch(ctx, batch.public_id)).toMatchObject({ status: 'draft' });
  });

  it('deletes a batch and its applicants, but not one already checked out', async () => {
    const batch = await draft();
    const ctx = await school();
    await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    await deleteBatch(ctx, batch.public_id);
    await expect(getBatch(ctx, batch.public_id)).rejects.toBeInstanceOf(NotFound);
    expect(await rowsOf(batch.id)).toHaveLength(0);
    const done = await draft();
    await db().update(policyBatches).set({ status: 'confirmed' }).where(eq(policyBatches.id, done.id));
    await expect(deleteBatch(ctx, done.public_id)).rejects.toBeInstanceOf(Conflict);
  });

  it('stores the welcome-email choice on the batch', async () => {
    const batch = await draft();
    const ctx = await school();
    await setWelcomeEmail(ctx, batch.public_id, true);
    expect((await getBatch(ctx, batch.public_id)).send_welcome_email).toBe(true);
  });
});

describe('the cart', () => {
  it('counts, lists and totals what the user put in it, per batch and per currency', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    const before = await cartCount(ctx);
    const gbp = await draft(ctx);
    const eur = await draft(ctx, secondContractId);
    await addApplicant(ctx, gbp.public_id, { raw: person('Ana') });
    await addApplicant(ctx, gbp.public_id, { raw: person('Ben') });
    await addApplicant(ctx, eur.public_id, { raw: person('Cleo') });
    expect(await cartCount(ctx)).toBe(before);
    await setWelcomeEmail(ctx, gbp.public_id, true);
    await confirmBatch(ctx, gbp.public_id);
    const opened = await confirmBatch(ctx, eur.public_id);
    expect(opened.status).toBe('open');
    expect(await cartCount(ctx)).toBe(before + 3);
    // Someone else's cart is not counted in this one.
    expect(await cartCount(await school())).not.toBe(before + 3);
    const overview = await cartOverview(ctx);
    const mine = overview.batches.filter((b) => [gbp.public_id, eur.public_id].includes(b.id));
    expect(mine.map((b) => [b.count, b.fees.total_minor, b.fees.currency])).toEqual(
      expect.arrayContaining([
        [2, 20900, 'GBP'],
        [1, 13200, 'EUR'],
      ]),
    );
    expect(overview.summary.totals.map((t) => t.currency)).toEqual(['EUR', 'GBP']);
    expect(overview.summary.count).toBe(before + 3);
    const page = await cartEnrollments(ctx, { page: 1 });
    expect(page.meta).toMatchObject({ total: before + 3, per_page: 500 });
  });

  it('pages 1200 enrollments 500 at a time to the end', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.admin);
    const batch = await createBatch(ctx, {
      campus_id: w.north.public_id,
      contract_id: contractId,
      source: 'import',
    });
    const rows: StagedRow[] = Array.from({ length: 1200 }, (_, i) => ({
      position: i + 1,
      raw: person(
        `Name${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}`,
        {
          last_name: `Family${String.fromCharCode(97 + Math.floor(i / 676))}`,
        },
      ),
    }));
    await stageEnrollments(ctx, batch, rows);
    await openBatch(ctx, batch);
    expect(await cartCount(ctx)).toBe(1200);
    const seen: number[] = [];
    for (let p = 1; ; p++) {
      const page = await cartEnrollments(ctx, { page: p });
      seen.push(page.items.length);
      if (p >= page.meta.last_page) break;
    }
    expect(seen).toEqual([500, 500, 200]);
    const third = await listEnrollments(ctx, { page: 3, items: 500, policy_batch: batch.public_id });
    expect(third.meta).toMatchObject({ from: 1001, to: 1200, per_page: 500, total: 1200 });
    expect(third.items[0]!.position).toBe(1001);
  });

  it('deleting the last enrollments of a batch in the cart deletes the batch', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    const batch = await draft(ctx);
    const a = await addApplicant(ctx, batch.public_id, { raw: person('Quin') });
    const b = await addApplicant(ctx, batch.public_id, { raw: person('Rhea') });
    await confirmBatch(ctx, batch.public_id);
    const count = await cartCount(ctx);
    expect(await deleteEnrollments(ctx, [a.id])).toEqual({ deleted: 1, batches_deleted: [] });
    expect(await cartCount(ctx)).toBe(count - 1);
    expect(await deleteEnrollments(ctx, [b.id])).toEqual({ deleted: 1, batches_deleted: [batch.public_id] });
    await expect(getBatch(ctx, batch.public_id)).rejects.toBeInstanceOf(NotFound);
    expect(await cartCount(ctx)).toBe(count - 2);
  });

  it('says when the cart is cleared: the configured GMT time, 23:00 by default', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.campusEmployee, { now: new Date('2026-11-21T22:30:00Z') });
    expect((await cartOverview(ctx)).clearing).toEqual({
      time: '23:00',
      next_clear_at: '2026-11-21T23:00:00.000Z',
    });
    await db().insert(settings).values({ key: 'cart_clear_time_gmt', value: '18:30' });
    expect((await cartOverview(ctx)).clearing).toEqual({
      time: '18:30',
      next_clear_at: '2026-11-22T18:30:00.000Z',
    });
    await db().delete(settings).where(eq(settings.key, 'cart_clear_time_gmt'));
  });
});

describe('tenant isolation', () => {
  it('answers NotFound to a stranger for every call that takes an id', async () => {
    const ctx = await school();
    const batch = await draft();
    const a = await addApplicant(ctx, batch.public_id, { raw: person('Ana') });
    const lead = await addApplicant(ctx, batch.public_id, {
      raw: person('Gita', { type: 'group_leader', date_of_birth: '1979-02-02' }),
    });
    for (const email of [STRANGER.schoolUser, STRANGER.companyUser]) {
      const s = await actorCtx(email);
      const calls: [string, () => Promise<unknown>][] = [
        ['getBatch', () => getBatch(s, batch.public_id)],
        ['batchOverview', () => batchOverview(s, batch.public_id)],
        ['listEnrollments', () => listEnrollments(s, { page: 1, items: 500, policy_batch: batch.public_id })],
        ['getEnrollment', () => getEnrollment(s, a.id)],
        ['updateEnrollment', () => updateEnrollment(s, a.id, { first_name: 'X' }, { validateFirst: false })],
        ['deleteEnrollments', () => deleteEnrollments(s, [a.id])],
        [
          'assignGroupLeader',
          () => assignGroupLeader(s, { group_leader_id: lead.id, enrollment_ids: [a.id] }),
        ],
        ['setDependency', () => setDependency(s, { enrollment_id: a.id, dependency_id: null })],
        ['deleteBatch', () => deleteBatch(s, batch.public_id)],
        ['setWelcomeEmail', () => setWelcomeEmail(s, batch.public_id, true)],
        ['confirmBatch', () => confirmBatch(s, batch.public_id)],
        ['addApplicant', () => addApplicant(s, batch.public_id, { raw: person('Zed') })],
        [
          'addEnrollments',
          () => addEnrollments(s, batch.public_id, { items: [person('Zed')], validate_first: false }),
        ],
        ['updatePlan', () => updatePlan(s, { batch_id: batch.public_id, enrollment_ids: [a.id] })],
        [
          'validateApplicants',
          () => validateApplicants(s, w.north.public_id, { contract_id: contractId, items: [person('Zed')] }),
        ],
        [
          'startSingleOrder',
          () => startSingleOrder(s, { campus_id: w.north.public_id, contract_id: contractId }),
        ],
        ['cartEnrollments', () => cartEnrollments(s, { page: 1, policy_batch: batch.public_id })],
        ['cartOverview', () => cartOverview(s, { campusId: w.north.public_id })],
      ];
      for (const [name, run] of calls) {
        const outcome = await run().then(
          () => 'answered',
          (e) => (e instanceof NotFound ? 'not found' : `${e?.constructor?.name}: ${e?.message}`),
        );
        expect(`${email} ${name}: ${outcome}`).toBe(`${email} ${name}: not found`);
      }
    }
    // Nothing changed.
    expect(await getEnrollment(ctx, a.id)).toMatchObject({ first_name: 'Ana', group_leader_id: null });
    expect((await getBatch(ctx, batch.public_id)).status).toBe('draft');
  });

  it("keeps a stranger's ids out of one's own calls", async () => {
    const stranger = await actorCtx(STRANGER.schoolUser);
    const strangerContract = (await orderChoices(stranger, { campus_id: w.highlandCampus.public_id }))
      .products[0]!;
    const theirs = await startSingleOrder(stranger, {
      campus_id: w.highlandCampus.public_id,
      contract_id: strangerContract.id,
    });
    const their = await addApplicant(stranger, theirs.public_id, { raw: person('Iona') });
    const ctx = await school();
    const mine = await draft();
    const a = await addApplicant(ctx, mine.public_id, { raw: person('Ana') });
    await expect(
      assignGroupLeader(ctx, { group_leader_id: null, enrollment_ids: [a.id, their.id] }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      updatePlan(ctx, { batch_id: mine.public_id, enrollment_ids: [their.id] }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      addApplicant(ctx, mine.public_id, {
        raw: person('Eva', { type: 'immediate_family' }),
        dependency_id: their.id,
      }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    expect((await getEnrollment(stranger, their.id)).first_name).toBe('Iona');
  });
});
