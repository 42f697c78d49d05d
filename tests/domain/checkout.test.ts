import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import {
  activityLogs,
  contracts,
  enrollments,
  invoiceItems,
  invoices,
  outbox,
  policies,
  policyBatches,
  sequences,
  settings,
} from '../../drizzle/schema';
import { buildCampus, buildClient, buildPolicyBatch, seedApplicants } from '../../drizzle/seed/builders';
import { buildContract } from '../../drizzle/seed/contracts';
import { confirmOpenBatches, planCheckout } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { dueDate, paymentChoices } from '../../workers/domain/checkout/terms';
import { sendWelcomeEmails, WELCOME_TEMPLATE } from '../../workers/domain/checkout/welcome';
import { handleMessage } from '../../workers/jobs/consumer';
import { OUTBOX_IDS_PER_MESSAGE } from '../../workers/domain/outbox/service';
import type { Env, JobMessage } from '../../workers/env';
import { cartClearTime, clearExpiredCarts, CART_CLEAR_SETTING } from '../../workers/domain/checkout/clear';
import { Conflict, Forbidden, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import {
  asSchool,
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  trip,
  userId,
  type CheckoutWorld,
} from '../support/checkout';

let w: CheckoutWorld;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
}, SETUP_TIMEOUT_MS);

const confirm = async (input: Record<string, unknown>, ctx?: Awaited<ReturnType<typeof asSchool>>) =>
  confirmOpenBatches(ctx ?? (await asSchool()), confirmOpenSchema.parse(input));

async function failure(run: Promise<unknown>) {
  const e = await run.then(
    () => null,
    (err) => err,
  );
  expect(e).not.toBeNull();
  return e as Error;
}

async function openBatchesOf(email: string) {
  return db()
    .select()
    .from(policyBatches)
    .where(and(eq(policyBatches.created_by, await userId(email)), eq(policyBatches.status, 'open')));
}

async function invoiceOf(result: Awaited<ReturnType<typeof confirmOpenBatches>>) {
  if (!('invoice' in result)) throw new Error('expected one invoice');
  const [row] = await db().select().from(invoices).where(eq(invoices.public_id, result.invoice.id));
  return row;
}

describe('payment terms', () => {
  it('offers card always, bank transfer by method or campus, and an invoice unless COD', () => {
    expect(paymentChoices({ payment_terms: 'cod', payment_method: 'credit_card' }, false)).toEqual([
      'credit_card',
    ]);
    expect(paymentChoices({ payment_terms: 'cod', payment_method: 'bank_transfer' }, false)).toEqual([
      'bank_transfer',
      'credit_card',
    ]);
    expect(paymentChoices({ payment_terms: 'monthly', payment_method: 'credit_card' }, true)).toEqual([
      'invoiced_directly',
      'credit_card',
      'bank_transfer',
    ]);
    expect(paymentChoices({ payment_terms: 'pay_later', payment_method: 'paypal' }, false)).toEqual([
      'pay_later',
      'credit_card',
    ]);
  });

  it('sets the due date from the terms', () => {
    // 2026-11-18 is a Wednesday in ISO week 47.
    expect(dueDate('cod', '2026-11-18')).toBe('2026-11-18');
    expect(dueDate('invoiced_directly', '2026-11-18')).toBe('2026-12-18');
    expect(dueDate('pay_later', '2026-11-18')).toBe('2027-01-17');
    expect(dueDate('weekly', '2026-11-18')).toBe('2026-11-22');
    expect(dueDate('weekly', '2026-11-22')).toBe('2026-11-22');
    expect(dueDate('bi_weekly', '2026-11-18')).toBe('2026-11-29');
    expect(dueDate('bi_weekly', '2026-11-25')).toBe('2026-11-29');
    expect(dueDate('semi_monthly', '2026-11-03')).toBe('2026-11-15');
    expect(dueDate('semi_monthly', '2026-11-16')).toBe('2026-11-30');
    expect(dueDate('monthly', '2026-02-03')).toBe('2026-02-28');
  });
});

describe('confirm-open: issuing', () => {
  it('issues a numbered policy per enrollment, one invoice with items, tax and totals, and confirms the batches', async () => {
    const north = await openBatch(w, [
      { first_name: 'Maria', last_name: 'Silva', ...trip(20), email: 'maria@example.test' },
      { first_name: 'Jonas', last_name: 'Berg', ...trip(6), email: null },
      { first_name: 'Lea', last_name: 'Berg', type: 'immediate_family', ...trip(6), dependency_index: 1 },
      { first_name: 'Tom', last_name: 'Lead', type: 'group_leader', ...trip(20) },
    ]);
    // The student is led by the group leader.
    await db()
      .update(enrollments)
      .set({ group_leader_id: north.enrollments[3].id })
      .where(eq(enrollments.id, north.enrollments[0].id));
    const south = await openBatch(w, 2, { campus: 'south' });

    const plan = await planCheckout(await asSchool());
    expect(plan.count).toBe(6);
    expect(plan.groups).toHaveLength(1);
    // A flat price per trip (the product has no unit): 4 x 95.00 + 2 x 80.00, plus 12 % tax.
    expect(plan.groups[0]).toMatchObject({ premium_minor: 54000, tax_minor: 6480, total_minor: 60480 });

    const result = await confirm({ checkout_key: checkoutKey(), payment_method: 'invoiced_directly' });
    const invoice = await invoiceOf(result);
    expect(invoice).toMatchObject({
      status: 'unpaid',
      payment_method: 'invoiced_directly',
      currency: 'GBP',
      insurance_cost_minor: 54000,
      tax_minor: 6480,
      total_minor: 60480,
      date: day(0),
      due_at: day(30), // invoiced directly: 30 days after the invoice date
      client_id: w.oakwood.id,
      campus_id: null,
    });
    expect(invoice.number).toMatch(/^INV\d{7}$/);
    expect(invoice.payment_reference.startsWith(`${invoice.number}-`)).toBe(true);

    const issued = await db()
      .select()
      .from(policies)
      .where(eq(policies.invoice_id, invoice.id))
      .orderBy(asc(policies.id));
    expect(issued).toHaveLength(6);
    const numbers = issued.map((p) => Number(p.policy_number.slice(1)));
    expect(issued.every((p) => /^P\d{8}$/.test(p.policy_number))).toBe(true);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
    const [maria, jonas, lea, tom] = issued;
    expect(maria).toMatchObject({
      first_name: 'Maria',
      last_name: 'Silva',
      email: 'maria@example.test',
      status: 'issued',
      premium_minor: 9500,
      net_minor: 6000,
      tax_minor: 1140,
      currency: 'GBP',
      booking_date: day(0),
      product_id: w.product.id,
      campus_id: w.north.id,
      group_leader_id: tom.id,
      enrollment_id: north.enrollments[0].id,
    });
    expect(lea).toMatchObject({ type: 'immediate_family', dependency_id: jonas.id });
    expect(jonas.email).toBeNull();

    const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, invoice.id));
    expect(items).toHaveLength(6);
    expect(items.reduce((t, i) => t + i.total_minor, 0)).toBe(60480);
    expect(items.find((i) => i.policy_id === maria.id)?.description).toContain(maria.policy_number);

    const batches = await db()
      .select()
      .from(policyBatches)
      .where(inArray(policyBatches.id, [north.batch.id, south.batch.id]));
    expect(batches.every((b) => b.status === 'confirmed' && b.invoice_id === invoice.id)).toBe(true);
    const [seq] = await db().select().from(sequences).where(eq(sequences.name, 'policy'));
    expect(seq.value).toBe(numbers[5]);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'invoice'), eq(activityLogs.entity_id, invoice.id)));
    expect(logs.map((l) => l.action)).toEqual(['issued']);
    expect(logs[0]!.after).toMatchObject({ number: invoice.number, total_minor: 60480, currency: 'GBP' });
    expect(logs[0]!.actor_user_id).not.toBeNull();
    const batchLogs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy_batch'), eq(activityLogs.entity_id, north.batch.id)));
    expect(batchLogs.map((l) => [l.action, l.before, l.after])).toContainEqual([
      'confirmed',
      { status: 'open' },
      expect.objectContaining({ status: 'confirmed', invoice: invoice.number }),
    ]);
    // The cart is empty now.
    expect(await openBatchesOf(DEMO_ACCOUNTS.schoolAdmin)).toHaveLength(0);
  });

  it('numbers the next checkout after the last one', async () => {
    const [before] = await db().select().from(sequences).where(eq(sequences.name, 'invoice'));
    await openBatch(w, 3);
    const invoice = await invoiceOf(await confirm({ checkout_key: checkoutKey() }));
    expect(Number(invoice.number.slice(3))).toBe(before.value + 1);
    // The client's usual choice when none is given: its terms invoice it.
    expect(invoice.payment_method).toBe('invoiced_directly');
  });

  it('answers the same invoice when the same checkout is sent twice', async () => {
    await openBatch(w, 2);
    const key = checkoutKey();
    const first = await confirm({ checkout_key: key });
    await openBatch(w, 1); // a new cart after the checkout: not part of it
    const second = await confirm({ checkout_key: key });
    expect(second).toEqual(first);
    expect(await openBatchesOf(DEMO_ACCOUNTS.schoolAdmin)).toHaveLength(1);
    await confirm({ checkout_key: checkoutKey() }); // empty the cart again
  });

  it('creates one invoice for two clicks at once with the same key', async () => {
    const { batch } = await openBatch(w, 5);
    const key = checkoutKey();
    const [a, b] = await Promise.all([confirm({ checkout_key: key }), confirm({ checkout_key: key })]);
    expect(a).toEqual(b);
    const made = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.checkout_key, `${key}:1`));
    expect(made).toHaveLength(1);
    expect(await db().select().from(policies).where(eq(policies.batch_id, batch.id))).toHaveLength(5);
  });

  it('creates one invoice for two tabs checking out the same cart at once', async () => {
    const { batch } = await openBatch(w, 4);
    const before = await db().select().from(invoices);
    const results = await Promise.allSettled([
      confirm({ checkout_key: checkoutKey() }),
      confirm({ checkout_key: checkoutKey() }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toBeInstanceOf(Conflict);
    expect(formatMessage(refused[0].reason.message)).toBe('These policies have already been checked out.');
    expect(await db().select().from(invoices)).toHaveLength(before.length + 1);
    expect(await db().select().from(policies).where(eq(policies.batch_id, batch.id))).toHaveLength(4);
  });

  it('refuses while any applicant has errors, and changes nothing', async () => {
    const { batch } = await openBatch(w, [
      { ...trip(10) },
      { ...trip(10), errors: [{ field: 'first_name', message: 'validation.required' }] },
    ]);
    const e = await failure(confirm({ checkout_key: checkoutKey() }));
    expect(e).toBeInstanceOf(ValidationFailed);
    expect(formatMessage(e.message)).toBe(
      '1 applicant in your cart has errors. Fix or delete it before checking out.',
    );
    const [row] = await db().select().from(policyBatches).where(eq(policyBatches.id, batch.id));
    expect(row.status).toBe('open');
    expect(await db().select().from(policies).where(eq(policies.batch_id, batch.id))).toHaveLength(0);
    await db().update(policyBatches).set({ status: 'cleared' }).where(eq(policyBatches.id, batch.id));
  });

  it('refuses an empty cart and a payment choice the terms do not offer', async () => {
    const empty = await failure(confirm({ checkout_key: checkoutKey() }));
    expect(formatMessage(empty.message)).toBe('Your cart is empty.');
    await setClientTerms(w.oakwood.id, 'cod', 'credit_card');
    const { batch } = await openBatch(w, 1);
    const e = await failure(confirm({ checkout_key: checkoutKey(), payment_method: 'invoiced_directly' }));
    expect(e).toBeInstanceOf(ValidationFailed);
    expect((e as ValidationFailed).errors[0]).toMatchObject({ key: 'payment_method' });
    const invoice = await invoiceOf(
      await confirm({ checkout_key: checkoutKey(), payment_method: 'credit_card' }),
    );
    expect(invoice).toMatchObject({ payment_method: 'credit_card', due_at: day(0) });
    expect((await db().select().from(policyBatches).where(eq(policyBatches.id, batch.id)))[0].status).toBe(
      'confirmed',
    );
    await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  });

  it('confirms only the actor’s own cart: another user’s open batch stays open', async () => {
    const theirs = await openBatch(w, 2, { email: DEMO_ACCOUNTS.campusEmployee });
    await openBatch(w, 1);
    await confirm({ checkout_key: checkoutKey() });
    const [row] = await db().select().from(policyBatches).where(eq(policyBatches.id, theirs.batch.id));
    expect(row.status).toBe('open');
    // The employee (may order, may not read invoices) checks out theirs and sees its invoice.
    const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    const result = await confirm({ checkout_key: checkoutKey() }, employee);
    expect('invoice' in result && result.invoice.policy_count).toBe(2);
  });

  it('refuses users who may not issue policies', async () => {
    const e = await failure(confirm({ checkout_key: checkoutKey() }, await actorCtx(DEMO_ACCOUNTS.finance)));
    expect(e).toBeInstanceOf(Forbidden);
  });

  it('staff ordering for several clients: one invoice per client, or one client when named', async () => {
    const senior = DEMO_ACCOUNTS.seniorAdmin;
    const admin = await userId(senior);
    await openBatch(w, 2, { email: senior });
    const stranger = await buildPolicyBatch(db(), {
      campusId: w.highlandCampus.id,
      contractId: await strangerContract(),
      createdBy: admin,
      applicants: seedApplicants(1, trip(8)),
    });
    const ctx = await actorCtx(senior);
    // A batch on another company's campus is outside the senior admin's scope, even in their name.
    const plan = await planCheckout(ctx);
    expect(plan.groups.map((g) => g.client.name)).toEqual(['Oakwood International School']);
    expect(stranger.batch.status).toBe('open');

    const named = await confirm({ checkout_key: checkoutKey(), client_id: w.oakwood.public_id }, ctx);
    expect('invoice' in named).toBe(true);

    // Two clients in the cart and none named: an invoice each, answered as the policy batches.
    const second = await buildClient(db(), { name: 'Willow Grove College', companyId: w.albion.id });
    const willow = await buildCampus(db(), { name: 'Willow Grove Campus', clientId: second.id });
    const willowContract = await buildContract(db(), {
      campusId: willow.id,
      productId: w.product.id,
      startDate: day(-30),
      saleMinor: 5000,
    });
    await openBatch(w, 2, { email: senior });
    await buildPolicyBatch(db(), {
      campusId: willow.id,
      contractId: willowContract.id,
      createdBy: admin,
      applicants: seedApplicants(3, trip(15)),
    });
    // Willow pays up front by card: a checkout of both clients offers only what both allow.
    await setClientTerms(second.id, 'cod', 'credit_card');
    const twoClients = await planCheckout(ctx);
    const [oakwoodChoices, willowChoices] = twoClients.groups.map((g) => g.choices);
    expect(oakwoodChoices).toContain('invoiced_directly');
    expect(willowChoices).not.toContain('invoiced_directly');
    expect(twoClients.choices).toEqual(oakwoodChoices!.filter((c) => willowChoices!.includes(c)));
    expect(twoClients.choices).toContain('credit_card');
    const both = await confirm({ checkout_key: checkoutKey() }, ctx);
    if (!('policy_batches' in both)) throw new Error('expected the policy batches');
    expect(both.invoices.map((i) => [i.client.name, i.policy_count])).toEqual([
      ['Oakwood International School', 2],
      ['Willow Grove College', 3],
    ]);
    expect(both.policy_batches).toHaveLength(2);
    expect(both.policy_batches.every((b) => b.status === 'confirmed' && b.invoice)).toBe(true);
    const unknown = await failure(confirm({ checkout_key: checkoutKey(), client_id: 'no-such-client' }, ctx));
    expect(formatMessage(unknown.message)).toBe('There is nothing in your cart for this client.');
    await db()
      .update(policyBatches)
      .set({ status: 'cleared' })
      .where(eq(policyBatches.id, stranger.batch.id));
  });
});

async function strangerContract(): Promise<number> {
  const [c] = await db().select().from(contracts).where(eq(contracts.campus_id, w.highlandCampus.id));
  return c.id;
}

describe('welcome emails', () => {
  it('writes one email per insured with an address when chosen at checkout', async () => {
    await openBatch(w, [
      { first_name: 'Nora', last_name: 'Quinn', email: 'nora@example.test', ...trip(12) },
      { first_name: 'Omar', last_name: 'Quinn', email: null, ...trip(12) },
    ]);
    const result = await confirm({ checkout_key: checkoutKey(), send_welcome_email: 'on' });
    const invoice = await invoiceOf(result);
    const mails = await db().select().from(outbox).where(eq(outbox.recipient, 'nora@example.test'));
    expect(mails).toHaveLength(1);
    const [nora] = await db()
      .select()
      .from(policies)
      .where(and(eq(policies.invoice_id, invoice.id), eq(policies.first_name, 'Nora')));
    expect(mails[0].subject).toContain(nora.policy_number);
    expect(mails[0].body_text).toContain('Dear Nora Quinn');
    expect(mails[0].body_text).toContain('Oakwood International School');
    expect(nora.welcome_email_sent_at).not.toBeNull();
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.invoice_id, invoice.id));
    expect(batch.send_welcome_email).toBe(true);

    const again = await sendWelcomeEmails(await asSchool(), batch.public_id);
    expect(again).toEqual({ sent: 1, without_email: 1 });
  });

  it('hands a checkout’s welcome emails to the queue 25 per message, and the consumer delivers each once', async () => {
    await openBatch(w, 130, { sendWelcomeEmail: true });
    // The queue is outside what is checked here: capture what checkout sends to it.
    const sent: JobMessage[][] = [];
    const jobs = {
      send: async () => {},
      sendBatch: async (m: { body: JobMessage }[]) => void sent.push(m.map((x) => x.body)),
    };
    const env = { ...testEnv(), JOBS: jobs } as unknown as Env;
    const [last] = await db().select({ id: outbox.id }).from(outbox).orderBy(desc(outbox.id)).limit(1);
    await confirm({ checkout_key: checkoutKey() }, await actorCtx(DEMO_ACCOUNTS.schoolAdmin, { env }));
    const written = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.template, WELCOME_TEMPLATE), gt(outbox.id, last?.id ?? 0)));
    expect(written.length).toBe(130);

    expect(sent).toHaveLength(1); // one send of at most 100 queue messages
    const messages = sent[0]!;
    expect(messages.every((m) => m.type === 'outbox.deliver_many')).toBe(true);
    const groups = messages.map((m) => (m as Extract<JobMessage, { type: 'outbox.deliver_many' }>).ids);
    expect(groups.slice(0, -1).every((g) => g.length === OUTBOX_IDS_PER_MESSAGE)).toBe(true);
    const ids = groups.flat();
    expect(new Set(ids).size).toBe(ids.length);
    // Exactly this checkout's emails were handed over, each once.
    expect([...ids].sort((a, b) => a - b)).toEqual(written.map((m) => m.id).sort((a, b) => a - b));

    // The consumer delivers them; a repeated message sends nothing twice.
    for (const m of messages) await handleMessage(testEnv(), m);
    await handleMessage(testEnv(), messages[0]!);
    const handed = new Set(ids);
    const after = (await db().select().from(outbox).where(eq(outbox.template, WELCOME_TEMPLATE))).filter(
      (m) => handed.has(m.id),
    );
    expect(after).toHaveLength(ids.length);
    expect(after.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
  });

  it('says the insurer has no email when nobody in the batch has one', async () => {
    await openBatch(w, [{ email: null, ...trip(9) }]);
    const invoice = await invoiceOf(await confirm({ checkout_key: checkoutKey() }));
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.invoice_id, invoice.id));
    const e = await failure(sendWelcomeEmails(await asSchool(), batch.public_id));
    expect(e).toBeInstanceOf(ValidationFailed);
    expect(formatMessage(e.message)).toBe('Insurer does not have an Email.');
  });

  it('refuses a batch that is not issued yet', async () => {
    const { batch } = await openBatch(w, 1);
    const e = await failure(sendWelcomeEmails(await asSchool(), batch.public_id));
    expect(e).toBeInstanceOf(Conflict);
    await db().update(policyBatches).set({ status: 'cleared' }).where(eq(policyBatches.id, batch.id));
  });
});

describe('cart clean-up', () => {
  it('says when the cart will be cleared (default 23:00 GMT)', async () => {
    const at = new Date('2026-11-21T10:00:00Z');
    expect(await cartClearTime(db(), at)).toEqual({
      time: '23:00',
      next_clear_at: '2026-11-21T23:00:00.000Z',
    });
    expect((await cartClearTime(db(), new Date('2026-11-21T23:30:00Z'))).next_clear_at).toBe(
      '2026-11-22T23:00:00.000Z',
    );
  });

  it('clears open batches opened before the configured time once it has passed, and stale drafts', async () => {
    await db().insert(settings).values({ key: CART_CLEAR_SETTING, value: '18:30' });
    const admin = await userId(DEMO_ACCOUNTS.schoolAdmin);
    const today = new Date();
    const at = (h: number, m = 0, days = 0) =>
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days, h, m));
    const early = await openBatch(w, 1, { openedAt: at(9) });
    const late = await openBatch(w, 1, { openedAt: at(18, 45) });
    const staleDraft = await buildPolicyBatch(db(), {
      campusId: w.north.id,
      contractId: w.contract.id,
      createdBy: admin,
      status: 'draft',
      applicants: seedApplicants(1, trip(10)),
      updatedAt: at(9, 0, -2),
    });
    const freshDraft = await buildPolicyBatch(db(), {
      campusId: w.north.id,
      contractId: w.contract.id,
      createdBy: admin,
      status: 'draft',
      applicants: seedApplicants(1, trip(10)),
      updatedAt: at(9),
    });
    const statusOf = async (id: number) =>
      (await db().select().from(policyBatches).where(eq(policyBatches.id, id)))[0].status;

    // Before 18:30 nothing of today is cleared.
    expect(await clearExpiredCarts(db(), at(18, 29))).toEqual({ open: 0, drafts: 1 });
    expect(await statusOf(early.batch.id)).toBe('open');
    expect(await statusOf(staleDraft.batch.id)).toBe('cleared');

    expect(await clearExpiredCarts(db(), at(18, 31))).toEqual({ open: 1, drafts: 0 });
    expect(await statusOf(early.batch.id)).toBe('cleared');
    const cleared = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy_batch'), eq(activityLogs.entity_id, early.batch.id)));
    expect(cleared.map((l) => [l.action, l.actor_user_id, l.before, l.after])).toContainEqual([
      'cleared',
      null,
      { status: 'open' },
      { status: 'cleared' },
    ]);
    expect(await statusOf(late.batch.id)).toBe('open');
    expect(await statusOf(freshDraft.batch.id)).toBe('draft');
    // Running again changes nothing; the next day's run clears the late one.
    expect(await clearExpiredCarts(db(), at(18, 40))).toEqual({ open: 0, drafts: 0 });
    expect(await clearExpiredCarts(db(), at(18, 31, 1))).toEqual({ open: 1, drafts: 1 });
    expect(await statusOf(late.batch.id)).toBe('cleared');
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy_batch'), eq(activityLogs.entity_id, early.batch.id)));
    expect(logs.map((l) => l.action)).toEqual(['cleared']);
    await db().delete(settings).where(eq(settings.key, CART_CLEAR_SETTING));
  });
});
