/**
 * Bulk changes larger than D1's 100 bound parameters in a statement: a checkout of 101 and of 5,000 open
 * batches, the welcome emails of 101 and of 5,000 insureds, the group name and the group leader of 101 and
 * of 5,000 insureds, the documents ZIP of 101 and of 5,000 insureds, 101 and 5,000 rows deleted from a
 * cancellation sheet, and a service agreement of 100 rows that grows to 101. Each is tried at 101 values
 * and at the largest the call takes.
 *
 * The world is made by copies (tests/support/copies.ts): one batch or one policy issued through the real
 * checkout, copied by a few set-based statements.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import {
  campuses,
  contracts,
  enrollments,
  insurers,
  jobs,
  outbox,
  policies,
  policyBatches,
  policyDocuments,
  serviceAgreementRows,
} from '../../drizzle/schema';
import { publicId } from '../../workers/platform/crypto';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { sendWelcomeEmails } from '../../workers/domain/checkout/welcome';
import { assignGroupLeader, updateGroupName } from '../../workers/domain/policies/amendments/groups';
import { policyListQuerySchema } from '../../workers/domain/policies/list-query';
import { startDocumentsZipByPublicIds } from '../../workers/domain/policy-documents/bulk';
import { ensureCurrentDocument } from '../../workers/domain/policy-documents/documents';
import { MAX_ZIP_POLICIES } from '../../workers/domain/policy-documents/values';
import {
  cancelReviewPage,
  confirmCancelMapping,
  deleteCancelRows,
  uploadCancellation,
} from '../../workers/domain/cancellations/service';
import { getServiceAgreement } from '../../workers/domain/service-agreements/queries';
import {
  addServiceAgreementContract,
  createServiceAgreement,
  updateServiceAgreement,
} from '../../workers/domain/service-agreements/service';
import {
  agreementRowSchema,
  createAgreementSchema,
  updateAgreementSchema,
} from '../../workers/domain/service-agreements/schema';
import { MAX_AGREEMENT_ROWS } from '../../workers/domain/service-agreements/values';
import { formatMessage } from '../../workers/platform/i18n';
import { handleMessage } from '../../workers/jobs/consumer';
import { issuePolicies, seedAmendmentsWorld } from '../support/amendments';
import { quiet, runCancellationJob } from '../support/cancellations';
import { asSchool, checkoutKey, openBatch, type CheckoutWorld } from '../support/checkout';
import { COPY_NUMBER, FRESH_PUBLIC_ID, copyRow, oneOf } from '../support/copies';
import { day } from '../support/contracts';
import { csvOf, fileOf } from '../support/sheets';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx, db, testEnv } from '../support/world';
import type { Env } from '../../workers/env';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const MANY = 5000;

let w: CheckoutWorld;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
}, SETUP_TIMEOUT_MS);

/** `count` copies of one issued policy (the copies share its batch), named "Bulk <n>"; answers them in order. */
async function copiesOf(count: number, lastName: string) {
  const [template] = await issuePolicies(w, 1);
  const ids = await copyRow(policies, template.id, count - 1, {
    public_id: FRESH_PUBLIC_ID,
    policy_number: sql`${lastName.slice(0, 2).toUpperCase()} || printf('%07d', ${COPY_NUMBER})`,
    first_name: sql`'Bulk ' || ${COPY_NUMBER}`,
    last_name: sql`${lastName}`,
    email: sql`'bulk.' || ${COPY_NUMBER} || '@' || ${lastName.toLowerCase()} || '.test'`,
    enrollment_id: sql`NULL`,
    group_leader_id: sql`NULL`,
    dependency_id: sql`NULL`,
  });
  await db().update(policies).set({ last_name: lastName }).where(eq(policies.id, template.id));
  return db()
    .select({ id: policies.id, public_id: policies.public_id, policy_number: policies.policy_number })
    .from(policies)
    .where(sql`${policies.id} = ${template.id} OR ${policies.id} >= ${ids[0]}`)
    .orderBy(asc(policies.id));
}

describe('a checkout of many open batches', () => {
  for (const count of [101, MANY]) {
    it(
      `issues ${count} open batches of one applicant each in one checkout`,
      async () => {
        const { batch } = await openBatch(w, 1);
        const [applicant] = await db().select().from(enrollments).where(eq(enrollments.batch_id, batch.id));
        const batchIds = [
          batch.id,
          ...(await copyRow(policyBatches, batch.id, count - 1, { public_id: FRESH_PUBLIC_ID })),
        ];
        await copyRow(enrollments, applicant.id, count - 1, {
          public_id: FRESH_PUBLIC_ID,
          batch_id: oneOf(batchIds.slice(1)),
          email: sql`'checkout.' || ${COPY_NUMBER} || '@many.test'`,
        });
        await confirmOpenBatches(await asSchool(), confirmOpenSchema.parse({ checkout_key: checkoutKey() }));
        const confirmed = await db().all<{ n: number }>(
          sql`SELECT count(*) AS n FROM policy_batches WHERE id IN (SELECT value FROM json_each(${JSON.stringify(batchIds)})) AND status = 'confirmed'`,
        );
        expect(Number(confirmed[0].n)).toBe(count);
        const issued = await db().all<{ n: number }>(
          sql`SELECT count(*) AS n FROM policies WHERE batch_id IN (SELECT value FROM json_each(${JSON.stringify(batchIds)}))`,
        );
        expect(Number(issued[0].n)).toBe(count);
      },
      SETUP_TIMEOUT_MS,
    );
  }
});

describe('bulk changes of many insureds', () => {
  let copies: { id: number; public_id: string; policy_number: string }[];

  beforeAll(async () => {
    copies = await copiesOf(MANY, 'Bulkmany');
  }, SETUP_TIMEOUT_MS);

  it('sends the welcome email to 101 and to 5,000 insureds of a batch', async () => {
    const [{ batch_id: batchId }] = await db()
      .select({ batch_id: policies.batch_id })
      .from(policies)
      .where(eq(policies.id, copies[0].id));
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.id, batchId!));
    const ctx = quiet(await asSchool());
    // 101 of them have an address: the others' is taken away.
    await db()
      .update(policies)
      .set({ email: null })
      .where(and(eq(policies.batch_id, batch.id), sql`${policies.id} > ${copies[100].id}`));
    const before = await db().$count(outbox, like(outbox.recipient, '%@bulkmany.test'));
    expect(await sendWelcomeEmails(ctx, batch.public_id)).toEqual({ sent: 101, without_email: MANY - 101 });
    await db()
      .update(policies)
      .set({ email: sql`'bulk.' || ${policies.id} || '@bulkmany.test'` })
      .where(eq(policies.batch_id, batch.id));
    expect(await sendWelcomeEmails(ctx, batch.public_id)).toEqual({ sent: MANY, without_email: 0 });
    expect(await db().$count(outbox, like(outbox.recipient, '%@bulkmany.test'))).toBe(before + 100 + MANY);
  });

  it('renames the group of 101 and of 5,000 named insureds, and of all 5,000 matching', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const named = (n: number) => ({
      all_matching: false as const,
      ids: copies.slice(0, n).map((c) => c.public_id),
    });
    const none = policyListQuerySchema.parse({});
    expect(await updateGroupName(ctx, { selection: named(101), query: none, group_name: 'Hundred' })).toEqual(
      {
        updated: 101,
      },
    );
    expect(await updateGroupName(ctx, { selection: named(MANY), query: none, group_name: 'Many' })).toEqual({
      updated: MANY,
    });
    const matching = policyListQuerySchema.parse({ last_name: 'Bulkmany' });
    expect(
      await updateGroupName(ctx, { selection: { all_matching: true }, query: matching, group_name: 'All' }),
    ).toEqual({ updated: MANY });
    expect(await db().$count(policies, eq(policies.group_name, 'All'))).toBe(MANY);
  });

  it('gives 101 and 5,000 insureds a group leader, and takes it away', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const [leader] = await issuePolicies(w, [
      { type: 'group_leader', first_name: 'Lead', last_name: 'Er', start_date: day(10), end_date: day(29) },
    ]);
    const none = policyListQuerySchema.parse({});
    const named = (n: number) => ({
      all_matching: false as const,
      ids: copies.slice(0, n).map((c) => c.public_id),
    });
    const assign = (n: number, id: string | null) =>
      assignGroupLeader(ctx, { selection: named(n), query: none, group_leader_id: id });
    expect(await assign(101, leader.public_id)).toEqual({ updated: 101 });
    expect(await assign(MANY, leader.public_id)).toEqual({ updated: MANY - 101 });
    expect(await db().$count(policies, eq(policies.group_leader_id, leader.id))).toBe(MANY);
    expect(await assign(MANY, null)).toEqual({ updated: MANY });
    expect(await db().$count(policies, eq(policies.group_leader_id, leader.id))).toBe(0);
  });

  it(
    'starts the documents ZIP of 101 and of 5,000 insureds, and makes the one of 101',
    async () => {
      expect(MAX_ZIP_POLICIES).toBeGreaterThanOrEqual(MANY);
      const ctx = quiet(await asSchool());
      const zip = (n: number) =>
        startDocumentsZipByPublicIds(ctx, {
          policies: copies.slice(0, n).map((c) => c.public_id),
          document_types: ['insurance_card'],
        });
      const many = await zip(MANY);
      expect(many.total).toBe(MANY);
      // The 101 cards are made once and stored for every copy (a copy has its template's version), as a
      // school's second download finds them: the job packs 101 stored files. Making them across deliveries
      // is policy-documents.test.ts's.
      const card = await ensureCurrentDocument(db(), testEnv(), copies[0].id, 'insurance_card', new Date());
      await copyRow(policyDocuments, card.id, 100, {
        policy_id: oneOf(copies.slice(1, 101).map((c) => c.id)),
      });
      const hundred = await zip(101);
      expect(hundred.total).toBe(101);
      const [job] = await db().select().from(jobs).where(eq(jobs.public_id, hundred.id));
      // Delivery after delivery, as the queue runs it (each works for its time budget, then goes on);
      // the test is the queue, so the next delivery it is asked for is this loop's next turn.
      const env = {
        ...testEnv(),
        JOBS: { send: async () => {}, sendBatch: async () => {} },
      } as unknown as Env;
      let done = job;
      for (
        let delivery = 0;
        done.status !== 'done' && done.status !== 'failed' && delivery < 200;
        delivery++
      ) {
        await handleMessage(env, { type: 'job.run', id: job.id });
        [done] = await db().select().from(jobs).where(eq(jobs.id, job.id));
      }
      expect(done.status).toBe('done');
      expect(done.result).toMatchObject({ insureds: 101, files: 101 });
    },
    2 * SETUP_TIMEOUT_MS,
  );

  it(
    'deletes 101 and then 4,899 rows of a cancellation sheet of 5,000',
    async () => {
      const ctx = quiet(await asSchool());
      const sheet = [['Policy ID', 'Last name'], ...copies.map((c) => [c.policy_number, 'Bulkmany'])];
      const view = await uploadCancellation(ctx, fileOf(csvOf(sheet), 'cancel-many.csv', 'text/csv'));
      await confirmCancelMapping(ctx, view.id, {
        columns: view.headers.map((_, i) => view.mapping[String(i)] ?? null),
      });
      await runCancellationJob(view.id);
      // A row is named by its line in the sheet: the first below the headings is 2.
      const rows = (count: number) => Array.from({ length: count }, (_, i) => i + 2);
      expect(await deleteCancelRows(ctx, view.id, { rows: rows(101), errored: false })).toEqual({
        deleted: 101,
      });
      expect(await deleteCancelRows(ctx, view.id, { rows: rows(MANY - 1), errored: false })).toEqual({
        deleted: MANY - 1 - 101,
      });
      const page = await cancelReviewPage(ctx, view.id, { page: 1, errors_only: false });
      expect(page.counts.total).toBe(1);
    },
    SETUP_TIMEOUT_MS,
  );
});

describe('a service agreement past 100 rows', () => {
  it(
    'saves and approves 100 rows, refuses 101 in one form, grows to 101 and saves them again',
    async () => {
      const ctx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
      const places = [
        w.north.id,
        ...(await copyRow(campuses, w.north.id, MAX_AGREEMENT_ROWS, {
          public_id: FRESH_PUBLIC_ID,
          name: sql`'Agreement campus ' || ${COPY_NUMBER}`,
        })),
      ];
      const placeIds = (
        await db().all<{ public_id: string }>(
          sql`SELECT public_id FROM campuses WHERE id IN (SELECT value FROM json_each(${JSON.stringify(places)})) ORDER BY id`,
        )
      ).map((r) => r.public_id);
      const [insurer] = await db()
        .insert(insurers)
        .values({ public_id: publicId(), company_id: w.albion.id, name: 'Many Rows Underwriters' })
        .returning();
      const row = (campusId: string) => ({
        product_id: w.product.public_id,
        campus_id: campusId,
        net_price: '50',
        min_days: '6',
        sale_price: '70',
        start_date: day(1),
        end_date: day(120),
        po_number: '',
      });
      const fields = {
        name: 'Agreement of many rows',
        insurer_id: insurer.public_id,
        start_date: day(0),
        end_date: day(365),
      };
      const tooMany = createAgreementSchema.safeParse({
        client_id: w.oakwood.public_id,
        ...fields,
        rows: placeIds.map(row),
      });
      expect(tooMany.error?.issues.map((i) => formatMessage(i.message))).toEqual([
        `An agreement can have at most ${MAX_AGREEMENT_ROWS} product rows`,
      ]);
      const created = await createServiceAgreement(
        ctx,
        createAgreementSchema.parse({
          client_id: w.oakwood.public_id,
          ...fields,
          approve: 'approve',
          rows: placeIds.slice(0, MAX_AGREEMENT_ROWS).map(row),
        }),
      );
      const [agreement] = await db().all<{ id: number }>(
        sql`SELECT id FROM service_agreements WHERE public_id = ${created.id}`,
      );
      expect(await db().$count(contracts, eq(contracts.service_agreement_id, agreement.id))).toBe(
        MAX_AGREEMENT_ROWS,
      );
      // The 101st row comes from adding a contract on the agreement's page.
      await addServiceAgreementContract(
        ctx,
        created.id,
        agreementRowSchema.parse(row(placeIds[MAX_AGREEMENT_ROWS])),
      );
      const grown = await getServiceAgreement(ctx, created.id);
      expect(grown.rows).toHaveLength(MAX_AGREEMENT_ROWS + 1);
      // Saved again from a form that holds the first 100 rows: the 101st is removed with its contract.
      const kept = await db()
        .select({ id: serviceAgreementRows.id, campus_id: campuses.public_id })
        .from(serviceAgreementRows)
        .innerJoin(campuses, eq(campuses.id, serviceAgreementRows.campus_id))
        .where(eq(serviceAgreementRows.service_agreement_id, agreement.id))
        .orderBy(asc(serviceAgreementRows.id))
        .limit(MAX_AGREEMENT_ROWS);
      await updateServiceAgreement(
        ctx,
        created.id,
        updateAgreementSchema.parse({
          ...fields,
          rows: kept.map((r) => ({ ...row(r.campus_id), id: String(r.id), sale_price: '75' })),
        }),
      );
      const saved = await getServiceAgreement(ctx, created.id);
      expect(saved.rows).toHaveLength(MAX_AGREEMENT_ROWS);
      // The removed row's contract stays, archived (policies may point at it).
      const statuses = await db()
        .select({ status: contracts.status, n: sql<number>`count(*)` })
        .from(contracts)
        .where(eq(contracts.service_agreement_id, agreement.id))
        .groupBy(contracts.status)
        .orderBy(asc(contracts.status));
      expect(statuses).toEqual([
        { status: 'active', n: MAX_AGREEMENT_ROWS },
        { status: 'archived', n: 1 },
      ]);
    },
    SETUP_TIMEOUT_MS,
  );
});
