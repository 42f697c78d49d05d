import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, contracts } from '../../drizzle/schema';
import { buildContract, buildProduct } from '../../drizzle/seed/contracts';
import {
  addContract,
  cloneContract,
  contractActivities,
  contractsSummary,
  getContract,
  listContracts,
  productsAvailableForCampus,
  updateContractStatus,
} from '../../workers/domain/contracts/service';
import { addContractSchema, contractListQuerySchema } from '../../workers/domain/contracts/schema';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, asSenior, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

let w: ContractsWorld;

beforeAll(async () => {
  w = await seedContractsWorld();
}, SETUP_TIMEOUT_MS);

/** The English texts of a validation failure, keyed by field. */
async function failure(run: Promise<unknown>): Promise<Record<string, string>> {
  const e = await run.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return Object.fromEntries((e as ValidationFailed).errors.map((x) => [x.key, formatMessage(x.message)]));
}

const listQuery = (q: Record<string, unknown> = {}) => contractListQuerySchema.parse(q);

describe('products available for a campus', () => {
  let campus: { id: number; name: string };
  let ids: Record<string, number>;

  beforeAll(async () => {
    const d = db();
    const [row] = await d
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: 'avail-campus-1', client_id: w.oakwood.id, name: 'Availability Campus' })
      .returning();
    campus = row;
    const make = (
      name: string,
      startDate: string,
      endDate: string | null,
      status: 'active' | 'archived' = 'active',
    ) => buildContract(d, { campusId: campus.id, productId: w.product.id, name, startDate, endDate, status });
    ids = {
      current: (await make('current', day(-30), day(30))).id,
      openEnded: (await make('open ended', day(-1), null)).id,
      startsToday: (await make('starts today', day(0), day(20))).id,
      endsToday: (await make('ends today', day(-20), day(0))).id,
      future: (await make('future', day(1), day(40))).id,
      expired: (await make('expired', day(-40), day(-1))).id,
      archived: (await make('archived', day(-30), day(30), 'archived')).id,
    };
  });

  it('offers the active contracts that are current today, including open-ended and boundary days', async () => {
    const list = await productsAvailableForCampus(await asSenior(), campus.id);
    expect(list.map((c) => c.name).sort()).toEqual(['current', 'ends today', 'open ended', 'starts today']);
    expect(list.every((c) => c.source === 'contract')).toBe(true);
    expect(list[0]).toMatchObject({
      product_code: 'TEST_STUDENT',
      net_price: 50,
      sale_price: 75,
      currency: 'GBP',
    });
  });

  it('leaves out future, expired and archived contracts', async () => {
    const list = await productsAvailableForCampus(await asSenior(), campus.id);
    const offered = list.map((c) => c.contract_id);
    expect(offered).not.toContain(ids.future);
    expect(offered).not.toContain(ids.expired);
    expect(offered).not.toContain(ids.archived);
  });

  it('merges the contracts of the campus open cart batches, de-duplicated by contract id', async () => {
    const list = await productsAvailableForCampus(await asSenior(), campus.id, {
      cartContractIds: [ids.expired, ids.current, ids.expired],
    });
    const offered = list.map((c) => c.contract_id);
    expect(offered.filter((id) => id === ids.current)).toHaveLength(1);
    expect(offered.filter((id) => id === ids.expired)).toHaveLength(1);
    expect(list.find((c) => c.contract_id === ids.expired)?.source).toBe('cart');
    expect(list.find((c) => c.contract_id === ids.current)?.source).toBe('contract');
    expect(list).toHaveLength(5);
  });

  it('ignores cart contracts of another campus', async () => {
    const other = await buildContract(db(), {
      campusId: w.south.id,
      productId: w.product.id,
      startDate: day(-3),
    });
    const list = await productsAvailableForCampus(await asSenior(), campus.id, {
      cartContractIds: [other.id],
    });
    expect(list.map((c) => c.contract_id)).not.toContain(other.id);
  });

  it('accepts the campus public id as well as its id', async () => {
    const list = await productsAvailableForCampus(await asSenior(), 'avail-campus-1');
    expect(list).toHaveLength(4);
  });

  it("refuses with the spec's message when the campus has no current contract", async () => {
    const [empty] = await db()
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: 'avail-campus-2', client_id: w.oakwood.id, name: 'Empty Campus' })
      .returning();
    await buildContract(db(), {
      campusId: empty.id,
      productId: w.product.id,
      startDate: day(5),
      endDate: day(50),
    });
    const errors = await failure(productsAvailableForCampus(await asSenior(), empty.id));
    expect(errors.campus_id).toBe(
      'No contract found for any product for campus Empty Campus. Please review the service agreements for client.',
    );
  });

  it('still offers the cart contracts of a campus without current contracts', async () => {
    const [cartOnly] = await db()
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: 'avail-campus-3', client_id: w.oakwood.id, name: 'Cart Campus' })
      .returning();
    const old = await buildContract(db(), {
      campusId: cartOnly.id,
      productId: w.product.id,
      startDate: day(-60),
      endDate: day(-2),
    });
    const list = await productsAvailableForCampus(await asSenior(), cartOnly.id, {
      cartContractIds: [old.id],
    });
    expect(list.map((c) => c.contract_id)).toEqual([old.id]);
  });

  it('answers not found for a campus of another company or outside a school user campuses', async () => {
    await expect(productsAvailableForCampus(await asSenior(), w.highlandCampus.id)).rejects.toBeInstanceOf(
      NotFound,
    );
    const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    await expect(productsAvailableForCampus(employee, w.south.id)).rejects.toBeInstanceOf(NotFound);
    await expect(
      productsAvailableForCampus(await actorCtx(STRANGER.schoolUser), campus.id),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('lets a school employee who orders for a campus read its products', async () => {
    await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-1),
      name: 'north',
    });
    const list = await productsAvailableForCampus(await actorCtx(DEMO_ACCOUNTS.campusEmployee), w.north.id);
    expect(list.map((c) => c.name)).toContain('north');
  });
});

describe('adding a contract (contract dates rule)', () => {
  const base = () => ({
    campus_id: w.south.public_id,
    product_id: w.bounded.public_id,
    start_date: day(1),
    end_date: day(60),
    net_price: '40.00',
    sale_price: '55.50',
    min_days: '7',
    po_number: 'PO-1',
  });
  const parse = (over: Record<string, unknown> = {}) => addContractSchema.parse({ ...base(), ...over });

  it('creates an active contract with prices in minor units and logs it', async () => {
    const c = await addContract(await asSenior(), parse());
    expect(c).toMatchObject({
      status: 'active',
      net_price: 40,
      sale_price: 55.5,
      min_days: 7,
      po_number: 'PO-1',
      campus: { id: w.south.public_id },
      product: { code: 'TEST_BOUNDED' },
      name: 'Bounded Cover',
    });
    const [row] = await db().select().from(contracts).where(eq(contracts.public_id, c.id));
    expect(row.net_minor).toBe(4000);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'contract'), eq(activityLogs.entity_id, row.id)));
    expect(logs.map((l) => l.action)).toEqual(['created']);
  });

  it('requires the start and end dates', () => {
    const r = addContractSchema.safeParse({ ...base(), start_date: '', end_date: undefined });
    expect(r.success).toBe(false);
    const keys = r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]);
    expect(keys).toEqual([
      ['start_date', 'This field is required'],
      ['end_date', 'This field is required'],
    ]);
  });

  it('refuses a start date in the past', async () => {
    const errors = await failure(addContract(await asSenior(), parse({ start_date: day(-1) })));
    expect(errors.start_date).toBe('Start date should not be in the past');
  });

  it('refuses an end date in the past', async () => {
    const errors = await failure(
      addContract(await asSenior(), parse({ start_date: day(-3), end_date: day(-1) })),
    );
    expect(errors.end_date).toBe('End date should not be in the past');
  });

  it('refuses an end date that is not after the start date', async () => {
    expect((await failure(addContract(await asSenior(), parse({ end_date: day(1) })))).end_date).toBe(
      'End date should be after the start date',
    );
    expect(
      (await failure(addContract(await asSenior(), parse({ start_date: day(5), end_date: day(4) }))))
        .end_date,
    ).toBe('End date should be after the start date');
  });

  it("refuses dates outside the product's effective start and end dates", async () => {
    const late = await failure(addContract(await asSenior(), parse({ end_date: day(201) })));
    expect(late.end_date).toBe(`End date cannot be after the product's effective end date (${day(200)})`);
    const future = await buildProduct(db(), {
      companyId: w.albion.id,
      code: 'LATER',
      name: 'Later Cover',
      effectiveStart: day(30),
    });
    const early = await failure(
      addContract(await asSenior(), parse({ product_id: future.public_id, start_date: day(29) })),
    );
    expect(early.start_date).toBe(
      `Start date cannot be before the product's effective start date (${day(30)})`,
    );
  });

  it('refuses a sale price below the net price and fewer than 6 minimum days', () => {
    const r = addContractSchema.safeParse({ ...base(), sale_price: '39.99', min_days: '5' });
    const messages = r.success
      ? {}
      : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]));
    expect(messages).toEqual({
      sale_price: 'Sale price cannot be lower than the net price',
      min_days: 'Minimum days must be at least 6',
    });
  });

  it('refuses prices that are not numbers and min days that are not whole numbers', () => {
    const r = addContractSchema.safeParse({ ...base(), net_price: 'abc', sale_price: '', min_days: '6.5' });
    const messages = r.success
      ? {}
      : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]));
    expect(messages).toEqual({
      net_price: 'Value must be numeric',
      sale_price: 'This field is required',
      min_days: 'Value must be digit',
    });
  });

  it('refuses a product of another company as not found, and writes nothing', async () => {
    const before = await db().select().from(contracts);
    const errors = await failure(
      addContract(await asSenior(), parse({ product_id: w.strangerProduct.public_id })),
    );
    expect(errors.product_id).toBe('Product not found');
    expect(await db().select().from(contracts)).toHaveLength(before.length);
  });

  it('refuses a campus the actor cannot see', async () => {
    const errors = await failure(
      addContract(await asSenior(), parse({ campus_id: w.highlandCampus.public_id })),
    );
    expect(errors.campus_id).toBe('Campus not found');
  });

  it('needs the create_contract permission', async () => {
    await expect(addContract(await actorCtx(DEMO_ACCOUNTS.finance), parse())).rejects.toThrow(
      'You do not have permission to do this.',
    );
  });
});

describe('contract status (archive and reactivate)', () => {
  it('archives, refuses to archive twice, reactivates, and logs each change', async () => {
    const ctx = await asSenior();
    const c = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-2),
    });
    expect((await updateContractStatus(ctx, c.public_id, 'archived')).status).toBe('archived');
    const twice = await failure(updateContractStatus(ctx, c.public_id, 'archived'));
    expect(twice.status).toBe('This contract is already archived.');
    expect((await updateContractStatus(ctx, c.public_id, 'active')).status).toBe('active');
    const logs = await contractActivities(ctx, c.public_id);
    expect(logs.items.map((l) => l.action)).toEqual(['activated', 'archived']);
    expect(logs.items[0].actor).toBe('Sarah Senior');
    expect(logs.items[1].changes).toEqual([{ field: 'status', before: 'active', after: 'archived' }]);
  });

  it('an archived contract is no longer available to order', async () => {
    const ctx = await asSenior();
    const [campus] = await db()
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: 'status-campus', client_id: w.oakwood.id, name: 'Status Campus' })
      .returning();
    const c = await buildContract(db(), { campusId: campus.id, productId: w.product.id, startDate: day(-2) });
    expect(await productsAvailableForCampus(ctx, campus.id)).toHaveLength(1);
    await updateContractStatus(ctx, c.public_id, 'archived');
    await expect(productsAvailableForCampus(ctx, campus.id)).rejects.toBeInstanceOf(ValidationFailed);
  });

  it('is refused to an account manager, who holds no archive right', async () => {
    const c = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-2),
    });
    await expect(
      updateContractStatus(await actorCtx(DEMO_ACCOUNTS.accountManager), c.public_id, 'archived'),
    ).rejects.toThrow('You do not have permission to do this.');
  });
});

describe('cloning a contract', () => {
  it('copies product, prices and min days to another campus of the same client with new dates', async () => {
    const ctx = await asSenior();
    const source = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-100),
      endDate: day(-10),
      netMinor: 1234,
      saleMinor: 2345,
      minDays: 9,
      name: 'Summer school',
    });
    const copy = await cloneContract(ctx, source.public_id, {
      campus_id: w.south.public_id,
      start_date: day(2),
      end_date: day(90),
    });
    expect(copy).toMatchObject({
      name: 'Summer school',
      status: 'active',
      net_price: 12.34,
      sale_price: 23.45,
      min_days: 9,
      start_date: day(2),
      end_date: day(90),
      campus: { id: w.south.public_id },
      service_agreement: null,
    });
    expect(copy.id).not.toBe(source.public_id);
    const [cloned] = (await contractActivities(ctx, copy.id)).items;
    expect(cloned.action).toBe('cloned');
    expect(cloned.changes).toContainEqual({ field: 'cloned_from', before: null, after: source.public_id });
  });

  it('applies the contract dates rule to the copy (a past contract needs new dates)', async () => {
    const source = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-100),
      endDate: day(-10),
    });
    const errors = await failure(cloneContract(await asSenior(), source.public_id));
    expect(errors).toMatchObject({
      start_date: 'Start date should not be in the past',
      end_date: 'End date should not be in the past',
    });
  });

  it('refuses a campus of another client', async () => {
    const ctx = await asSenior();
    const { buildClient, buildCampus } = await import('../../drizzle/seed/builders');
    const other = await buildClient(db(), { name: 'Other School', companyId: w.albion.id });
    const otherCampus = await buildCampus(db(), { name: 'Other Campus', clientId: other.id });
    const source = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(1),
      endDate: day(30),
    });
    const errors = await failure(cloneContract(ctx, source.public_id, { campus_id: otherCampus.public_id }));
    expect(errors.campus_id).toBe('The contract can only be copied to a campus of the same client');
  });
});

describe('contract list, detail and summary', () => {
  let listCampus: { id: number; public_id: string };
  beforeAll(async () => {
    const [row] = await db()
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: 'list-campus', client_id: w.oakwood.id, name: 'List Campus' })
      .returning();
    listCampus = row;
    await buildContract(db(), {
      campusId: row.id,
      productId: w.product.id,
      startDate: day(-5),
      endDate: day(5),
      name: 'L current',
    });
    await buildContract(db(), {
      campusId: row.id,
      productId: w.product.id,
      startDate: day(5),
      endDate: day(25),
      name: 'L future',
    });
    await buildContract(db(), {
      campusId: row.id,
      productId: w.product.id,
      startDate: day(-50),
      endDate: day(-5),
      name: 'L expired',
    });
    await buildContract(db(), {
      campusId: row.id,
      productId: w.product.id,
      startDate: day(-5),
      status: 'archived',
      name: 'L archived',
    });
  });

  it('filters by campus, status and period, and pages', async () => {
    const ctx = await asSenior();
    const all = await listContracts(ctx, listQuery({ campus_id: 'list-campus', order: 'name_asc' }));
    expect(all.items.map((c) => c.name)).toEqual(['L archived', 'L current', 'L expired', 'L future']);
    expect(all.items.map((c) => c.period)).toEqual(['current', 'current', 'expired', 'future']);
    const active = await listContracts(
      ctx,
      listQuery({ campus_id: 'list-campus', status: 'active', period: 'current' }),
    );
    expect(active.items.map((c) => c.name)).toEqual(['L current']);
    const paged = await listContracts(
      ctx,
      listQuery({ campus_id: 'list-campus', items: 3, page: 2, order: 'name_asc' }),
    );
    expect(paged.items.map((c) => c.name)).toEqual(['L future']);
    expect(paged.meta).toMatchObject({ total: 4, current_page: 2, last_page: 2, from: 4, to: 4 });
    const searched = await listContracts(ctx, listQuery({ campus_id: 'list-campus', search: 'futu' }));
    expect(searched.items.map((c) => c.name)).toEqual(['L future']);
  });

  it('shows a school employee only the contracts of their own campus', async () => {
    const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    // The employee's role may not read contracts; the school master user does and sees the client's.
    const master = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const seen = await listContracts(master, listQuery({ items: 500 }));
    expect(seen.items.some((c) => c.campus.id === 'list-campus')).toBe(true);
    expect(seen.items.every((c) => c.client.id === w.oakwood.public_id)).toBe(true);
    await expect(listContracts(employee, listQuery())).rejects.toThrow(
      'You do not have permission to do this.',
    );
  });

  it('never lists a contract of another company', async () => {
    const seen = await listContracts(await asSenior(), listQuery({ items: 500 }));
    expect(seen.items.some((c) => c.company.name.startsWith('Caledonia'))).toBe(false);
    const stranger = await listContracts(await actorCtx(STRANGER.companyUser), listQuery({ items: 500 }));
    expect(stranger.items.map((c) => c.product.code)).toEqual(['HIGHLAND_PLAN']);
  });

  it('shows one contract with its product unit and the campus country tax rate', async () => {
    const ctx = await asSenior();
    const [first] = (await listContracts(ctx, listQuery({ campus_id: 'list-campus', search: 'L current' })))
      .items;
    const detail = await getContract(ctx, first.id);
    expect(detail).toMatchObject({ name: 'L current', client: { name: 'Oakwood International School' } });
    expect(detail).toHaveProperty('tax_rate');
    expect(detail).toHaveProperty('unit');
  });

  it('counts contracts by status and period', async () => {
    const summary = await contractsSummary(await asSenior(), { campusId: listCampus.id });
    expect(summary).toEqual({ total: 4, active: 3, archived: 1, current: 1, expiring_within_30_days: 1 });
  });
});
