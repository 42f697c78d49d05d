import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, contracts, insurers, serviceAgreements } from '../../drizzle/schema';
import { buildProduct } from '../../drizzle/seed/contracts';
import { publicId } from '../../workers/platform/crypto';
import {
  addAgreementDocuments,
  downloadAgreementDocument,
  removeAgreementDocument,
} from '../../workers/domain/service-agreements/documents';
import {
  getServiceAgreement,
  listServiceAgreements,
  serviceAgreementContracts,
} from '../../workers/domain/service-agreements/queries';
import {
  addServiceAgreementContract,
  createServiceAgreement,
  setDefaultProduct,
  setServiceAgreementStatus,
  updateServiceAgreement,
} from '../../workers/domain/service-agreements/service';
import {
  agreementListQuerySchema,
  agreementRowSchema,
  createAgreementSchema,
  isValidAgreement,
  updateAgreementSchema,
} from '../../workers/domain/service-agreements/schema';
import { contractListQuerySchema } from '../../workers/domain/contracts/schema';
import { productsAvailableForCampus } from '../../workers/domain/contracts/service';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { exeBytes, pdfBytes } from '../support/files';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { asSenior, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

let w: ContractsWorld;
let insurer: typeof insurers.$inferSelect;
let strangerInsurer: typeof insurers.$inferSelect;

beforeAll(async () => {
  w = await seedContractsWorld();
  [insurer] = await db()
    .insert(insurers)
    .values({ public_id: publicId(), company_id: w.albion.id, name: 'Test Underwriters' })
    .returning();
  [strangerInsurer] = await db()
    .insert(insurers)
    .values({ public_id: publicId(), company_id: w.caledonia.id, name: 'Stranger Underwriters' })
    .returning();
}, SETUP_TIMEOUT_MS);

async function failure(run: Promise<unknown>): Promise<Record<string, string>> {
  const e = await run.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return Object.fromEntries((e as ValidationFailed).errors.map((x) => [x.key, formatMessage(x.message)]));
}

function zodMessages(r: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}) {
  return r.success
    ? {}
    : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]));
}

const row = (over: Record<string, unknown> = {}) => ({
  product_id: w.product.public_id,
  campus_id: w.north.public_id,
  net_price: '50',
  min_days: '6',
  sale_price: '70',
  start_date: day(1),
  end_date: day(120),
  po_number: 'PO-77',
  ...over,
});

const agreement = (over: Record<string, unknown> = {}) =>
  createAgreementSchema.parse({
    client_id: w.oakwood.public_id,
    name: 'Agreement 2026',
    insurer_id: insurer.public_id,
    start_date: day(0),
    end_date: day(365),
    rows: [row(), row({ campus_id: w.south.public_id, product_id: w.bounded.public_id, end_date: day(100) })],
    ...over,
  });

async function contractsOf(agreementPublicId: string) {
  const [sa] = await db()
    .select()
    .from(serviceAgreements)
    .where(eq(serviceAgreements.public_id, agreementPublicId));
  return db().select().from(contracts).where(eq(contracts.service_agreement_id, sa.id));
}

describe('agreement product row rules (spec 001 s.5)', () => {
  it('requires product, campus, net price, min days, sale price and start date', () => {
    const r = agreementRowSchema.safeParse({
      product_id: '',
      campus_id: '',
      net_price: '',
      min_days: '',
      sale_price: '',
      start_date: '',
    });
    expect(zodMessages(r)).toEqual({
      product_id: 'This field is required',
      campus_id: 'This field is required',
      net_price: 'This field is required',
      min_days: 'This field is required',
      sale_price: 'This field is required',
      start_date: 'This field is required',
    });
  });

  it('requires numeric prices and whole min days', () => {
    const r = agreementRowSchema.safeParse(row({ net_price: 'x', sale_price: '1,0a', min_days: '7.5' }));
    expect(zodMessages(r)).toEqual({
      net_price: 'Value must be numeric',
      sale_price: 'Value must be numeric',
      min_days: 'Value must be digit',
    });
  });

  it('refuses a sale price below the net price, fewer than 6 min days and an end not after the start', () => {
    const r = agreementRowSchema.safeParse(
      row({ net_price: '80', sale_price: '79.99', min_days: '5', end_date: day(1) }),
    );
    expect(zodMessages(r)).toEqual({
      sale_price: 'Sale price cannot be lower than the net price',
      min_days: 'Minimum days must be at least 6',
      end_date: 'End date should be after the start date',
    });
  });

  it('leaves the end date and PO number optional, and drops rows left blank', () => {
    const parsed = createAgreementSchema.parse({
      client_id: 'x',
      name: 'A',
      insurer_id: 'i',
      start_date: day(0),
      rows: [row({ end_date: '', po_number: '' }), { product_id: '', campus_id: '', net_price: '', id: '' }],
    });
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.rows[0]).toMatchObject({ end_date: undefined, po_number: undefined, net_price: 5000 });
  });

  it('keeps a blank row index so errors land on the right row', () => {
    const r = createAgreementSchema.safeParse({
      client_id: 'x',
      name: 'A',
      insurer_id: 'i',
      start_date: day(0),
      rows: [{}, row({ sale_price: '' })],
    });
    expect(zodMessages(r)).toEqual({ 'rows.1.sale_price': 'This field is required' });
  });

  it('a valid agreement is one whose start date falls in the current calendar year', () => {
    expect(isValidAgreement('2026-01-01', '2026-11-21')).toBe(true);
    expect(isValidAgreement('2025-12-31', '2026-11-21')).toBe(false);
    expect(isValidAgreement('2027-01-01', '2026-11-21')).toBe(false);
  });
});

describe('saving an agreement', () => {
  it('save keeps it pending and makes no contract', async () => {
    const sa = await createServiceAgreement(await asSenior(), agreement());
    expect(sa).toMatchObject({ status: 'pending', valid: true, insurer: { name: 'Test Underwriters' } });
    expect(sa.rows.map((r) => [r.campus.id, r.product.code, r.net_price, r.sale_price, r.min_days])).toEqual([
      [w.north.public_id, 'TEST_STUDENT', 50, 70, 6],
      [w.south.public_id, 'TEST_BOUNDED', 50, 70, 6],
    ]);
    expect(await contractsOf(sa.id)).toHaveLength(0);
  });

  it('save and approve makes it active with one contract per row, in one go', async () => {
    const sa = await createServiceAgreement(
      await asSenior(),
      agreement({ approve: 'approve', default_product_id: w.bounded.public_id }),
    );
    expect(sa.status).toBe('active');
    expect(sa.approved_at).not.toBeNull();
    const made = await contractsOf(sa.id);
    expect(made).toHaveLength(2);
    expect(
      made
        .map((c) => [c.campus_id, c.net_minor, c.sale_minor, c.min_days, c.status, c.is_default, c.po_number])
        .sort(),
    ).toEqual(
      [
        [w.north.id, 5000, 7000, 6, 'active', false, 'PO-77'],
        [w.south.id, 5000, 7000, 6, 'active', true, 'PO-77'],
      ].sort(),
    );
    expect(sa.rows.every((r) => r.contract?.status === 'active')).toBe(true);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'contract'), eq(activityLogs.entity_id, made[0].id)));
    expect(logs.map((l) => l.action)).toEqual(['created']);
  });

  it('the approved contracts make the products available to the campus', async () => {
    const [campus] = await db()
      .insert((await import('../../drizzle/schema')).campuses)
      .values({ public_id: publicId(), client_id: w.oakwood.id, name: 'Approval Campus' })
      .returning();
    const ctx = await asSenior();
    await expect(productsAvailableForCampus(ctx, campus.id)).rejects.toBeInstanceOf(ValidationFailed);
    await createServiceAgreement(
      ctx,
      agreement({ approve: 'approve', rows: [row({ campus_id: campus.public_id, start_date: day(0) })] }),
    );
    const available = await productsAvailableForCampus(ctx, campus.id);
    expect(available.map((c) => c.product_code)).toEqual(['TEST_STUDENT']);
  });

  it('refuses an insurer, product or campus outside the client, each on its field, writing nothing', async () => {
    const before = (await db().select().from(serviceAgreements)).length;
    const errors = await failure(
      createServiceAgreement(
        await asSenior(),
        agreement({
          insurer_id: strangerInsurer.public_id,
          rows: [
            row({ product_id: w.strangerProduct.public_id }),
            row({ campus_id: w.highlandCampus.public_id }),
          ],
        }),
      ),
    );
    expect(errors).toEqual({
      insurer_id: 'Insurer not found',
      'rows.0.product_id': 'Product not found',
      'rows.1.campus_id': 'Campus not found',
    });
    expect(await db().select().from(serviceAgreements)).toHaveLength(before);
  });

  it("applies the contract dates rule to rows: not in the past, within the product's dates", async () => {
    const errors = await failure(
      createServiceAgreement(
        await asSenior(),
        agreement({
          rows: [
            row({ start_date: day(-1) }),
            row({ product_id: w.bounded.public_id, end_date: day(201) }),
            row({ product_id: w.bounded.public_id, end_date: '' }),
          ],
        }),
      ),
    );
    expect(errors).toEqual({
      'rows.0.start_date': 'Start date should not be in the past',
      'rows.1.end_date': `End date cannot be after the product's effective end date (${day(200)})`,
      'rows.2.end_date': `End date cannot be after the product's effective end date (${day(200)})`,
    });
  });

  it('refuses an archived product in a new row', async () => {
    const archived = await buildProduct(db(), {
      companyId: w.albion.id,
      code: 'OLD_PLAN',
      name: 'Old Plan',
      status: 'archived',
    });
    const errors = await failure(
      createServiceAgreement(
        await asSenior(),
        agreement({ rows: [row({ product_id: archived.public_id })] }),
      ),
    );
    expect(errors['rows.0.product_id']).toBe('This product is archived and cannot be added to an agreement');
  });

  it('answers not found for a client of another company, and needs the permission', async () => {
    const errors = await failure(
      createServiceAgreement(await asSenior(), agreement({ client_id: w.highland.public_id })),
    );
    expect(errors.client_id).toBe('Client not found');
    await expect(createServiceAgreement(await actorCtx(DEMO_ACCOUNTS.finance), agreement())).rejects.toThrow(
      'You do not have permission to do this.',
    );
  });
});

describe('updating, approving, activating and deactivating', () => {
  it('approving a pending agreement creates its contracts; updating an active one updates them', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement());
    const input = (over: Record<string, unknown>) =>
      updateAgreementSchema.parse({
        name: sa.name,
        insurer_id: insurer.public_id,
        start_date: sa.start_date,
        end_date: sa.end_date,
        rows: sa.rows.map((r) => ({
          id: r.id,
          product_id: r.product.id,
          campus_id: r.campus.id,
          net_price: r.net_price,
          sale_price: r.sale_price,
          min_days: r.min_days,
          start_date: r.start_date,
          end_date: r.end_date,
          po_number: r.po_number,
        })),
        ...over,
      });
    const approved = await updateServiceAgreement(ctx, sa.id, input({ approve: 'approve' }));
    expect(approved.status).toBe('active');
    const first = await contractsOf(sa.id);
    expect(first).toHaveLength(2);

    // Change the first row's sale price and drop the second row.
    const changed = input({});
    changed.rows = [{ ...changed.rows[0], sale_price: 9900 }];
    const updated = await updateServiceAgreement(ctx, sa.id, changed);
    expect(updated.status).toBe('active');
    const after = await contractsOf(sa.id);
    const kept = after.find((c) => c.id === first.find((f) => f.campus_id === w.north.id)!.id)!;
    expect(kept).toMatchObject({ sale_minor: 9900, status: 'active' });
    const dropped = after.find((c) => c.campus_id === w.south.id)!;
    expect(dropped).toMatchObject({ status: 'archived', service_agreement_row_id: null });
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'contract'), eq(activityLogs.entity_id, kept.id)));
    expect(logs.map((l) => l.action)).toEqual(['created', 'updated']);
    expect(logs[1].after).toMatchObject({ sale_price: 99 });
  });

  it('deactivating archives its contracts; activating brings them back', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ approve: 'approve' }));
    expect((await setServiceAgreementStatus(ctx, sa.id, 'inactive')).status).toBe('inactive');
    expect((await contractsOf(sa.id)).map((c) => c.status)).toEqual(['archived', 'archived']);
    const again = await failure(setServiceAgreementStatus(ctx, sa.id, 'inactive'));
    expect(again.status).toBe('This service agreement is already inactive.');
    expect((await setServiceAgreementStatus(ctx, sa.id, 'active')).status).toBe('active');
    const back = await contractsOf(sa.id);
    expect(back.map((c) => c.status)).toEqual(['active', 'active']);
    expect(back).toHaveLength(2);
  });

  it('activating a pending agreement is its approval', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement());
    const active = await setServiceAgreementStatus(ctx, sa.id, 'active');
    expect(active.status).toBe('active');
    expect(await contractsOf(sa.id)).toHaveLength(2);
  });

  it('adds a product row; on an active agreement its contract is made at once', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ approve: 'approve' }));
    const more = await addServiceAgreementContract(
      ctx,
      sa.id,
      agreementRowSchema.parse(row({ campus_id: w.south.public_id, sale_price: '80' })),
    );
    expect(more.rows).toHaveLength(3);
    expect(more.rows[2].contract?.status).toBe('active');
    expect(await contractsOf(sa.id)).toHaveLength(3);
    const errors = await failure(
      addServiceAgreementContract(ctx, sa.id, agreementRowSchema.parse(row({ start_date: day(-2) }))),
    );
    expect(errors).toEqual({ start_date: 'Start date should not be in the past' });
  });

  it('sets the default product and marks its contracts default', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ approve: 'approve' }));
    const updated = await setDefaultProduct(ctx, sa.id, w.product.public_id);
    expect(updated.default_product?.code).toBe('TEST_STUDENT');
    const made = await contractsOf(sa.id);
    expect(made.map((c) => [c.product_id === w.product.id, c.is_default])).toEqual(
      made.map((c) => [c.product_id === w.product.id, c.product_id === w.product.id]),
    );
    const errors = await failure(setDefaultProduct(ctx, sa.id, w.strangerProduct.public_id));
    expect(errors.product_id).toBe('Product not found');
  });
});

describe('agreement lists and documents', () => {
  it("lists a client's agreements with the valid flag, and the agreement's contracts 25 a page", async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ name: 'Listed agreement', approve: 'approve' }));
    const list = await listServiceAgreements(
      ctx,
      agreementListQuerySchema.parse({ client_id: w.oakwood.public_id, search: 'Listed' }),
    );
    expect(list.items.map((i) => [i.name, i.valid, i.rows_count, i.active_contracts])).toEqual([
      ['Listed agreement', true, 2, 2],
    ]);
    const page = await serviceAgreementContracts(ctx, sa.id, contractListQuerySchema.parse({}));
    expect(page.meta.per_page).toBe(25);
    expect(page.items).toHaveLength(2);
    const stranger = await actorCtx('stranger.admin@caledonia.test');
    expect((await listServiceAgreements(stranger, agreementListQuerySchema.parse({}))).items).toHaveLength(0);
    await expect(getServiceAgreement(stranger, sa.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('stores several documents, downloads them by index, and removes one', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ name: 'Documents' }));
    const files = [
      new File([pdfBytes('first') as BlobPart], 'signed agreement.pdf'),
      new File([pdfBytes('second') as BlobPart], 'annex.pdf'),
    ];
    const saved = await addAgreementDocuments(ctx, sa.id, files);
    expect(saved.files.map((f) => [f.index, f.name])).toEqual([
      [0, 'signed agreement.pdf'],
      [1, 'annex.pdf'],
    ]);
    const download = await downloadAgreementDocument(ctx, sa.id, 1);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(await download.text()).toContain('second');
    await expect(downloadAgreementDocument(ctx, sa.id, 5)).rejects.toBeInstanceOf(NotFound);
    const after = await removeAgreementDocument(ctx, sa.id, 0);
    expect(after.files.map((f) => f.name)).toEqual(['annex.pdf']);
  });

  it('refuses a document of a wrong kind or too large', async () => {
    const ctx = await asSenior();
    const sa = await createServiceAgreement(ctx, agreement({ name: 'Bad documents' }));
    const wrong = await failure(
      addAgreementDocuments(ctx, sa.id, [new File([exeBytes() as BlobPart], 'setup.pdf')]),
    );
    expect(wrong.documents).toMatch(/pdf/);
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.pdf');
    const large = await failure(addAgreementDocuments(ctx, sa.id, [big]));
    expect(large.documents).toBe('File cannot be larger than 10MB');
    expect((await getServiceAgreement(ctx, sa.id)).files).toHaveLength(0);
  });
});
