import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { clients, contacts, outbox, policies } from '../../drizzle/schema';
import { EXPIRY_TEMPLATE, expiryLink, sendExpiryReminders } from '../../workers/domain/reminders/expiry';
import { updateClient, getClient } from '../../workers/domain/clients/service';
import { clientUpdateSchema } from '../../workers/domain/clients/schema';
import { DAILY_CRON, handleScheduled } from '../../workers/jobs/consumer';
import { translate } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { day, db, seedCheckoutWorld, setClientTerms, type CheckoutWorld } from '../support/checkout';
import { issuePolicies, quietEnv, setTrip, type PolicyRow } from '../support/cancellations';

const CONTACT = 'admissions@oakwood-international.example';
let w: CheckoutWorld;
let soon: PolicyRow[];
let later: PolicyRow;
let cancelled: PolicyRow;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  const issued = await issuePolicies(w, 5);
  soon = issued.slice(0, 2);
  later = issued[2]!;
  cancelled = issued[3]!;
  await setTrip([soon[0]!.id], day(-20), day(3));
  await setTrip([soon[1]!.id], day(-20), day(14));
  await setTrip([later.id], day(-20), day(15));
  await setTrip([cancelled.id], day(-20), day(5));
  await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, cancelled.id));
}, SETUP_TIMEOUT_MS);

beforeEach(async () => {
  await db()
    .update(policies)
    .set({ expiry_reminder_sent_at: null })
    .where(eq(policies.client_id, w.oakwood.id));
  await db()
    .update(clients)
    .set({ expiry_reminders: true, preferred_lang: 'en' })
    .where(eq(clients.id, w.oakwood.id));
  await db().delete(outbox).where(eq(outbox.template, EXPIRY_TEMPLATE));
});

const reminders = () => db().select().from(outbox).where(eq(outbox.template, EXPIRY_TEMPLATE));
const stamps = async (ids: number[]) =>
  (await db().select().from(policies).where(inArray(policies.id, ids))).map((p) => p.expiry_reminder_sent_at);

describe('expiry reminders', () => {
  it("tells the client's initial contact, in one email, about the policies ending in the next 14 days", async () => {
    const now = new Date();
    const run = await sendExpiryReminders(db(), quietEnv(), now);
    expect(run).toMatchObject({ sent: 1, policies: 2 });
    const mail = await reminders();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.recipient).toBe(CONTACT);
    const body = mail[0]!.body_text;
    for (const p of soon) expect(body).toContain(p.policy_number);
    expect(body).not.toContain(later.policy_number);
    expect(body).not.toContain(cancelled.policy_number);
    expect(body).toContain(
      `http://localhost:8787/insureds?status=active&end_from=${day(0, now)}&end_to=${day(14, now)}`,
    );
    expect(mail[0]!.subject).toBe(
      translate('en', 'reminders.expiry.subject', { count: 2, product: 'Enrolment' }),
    );
    expect((await stamps(soon.map((p) => p.id))).every((s) => s?.getTime() === now.getTime())).toBe(true);
    expect(await stamps([later.id])).toEqual([null]);
  });

  it('lists a policy once for its end date, and again after an extension moves the end date', async () => {
    const now = new Date();
    await sendExpiryReminders(db(), quietEnv(), now);
    // The next day only the policy that has come into the window is listed; the others were told.
    const again = await sendExpiryReminders(db(), quietEnv(), new Date(now.getTime() + 86_400_000));
    expect(again).toMatchObject({ sent: 1, policies: 1 });
    const [, next] = await reminders();
    expect(next!.body_text).toContain(later.policy_number);
    for (const p of soon) expect(next!.body_text).not.toContain(p.policy_number);
    expect(await sendExpiryReminders(db(), quietEnv(), new Date(now.getTime() + 86_400_000))).toMatchObject({
      sent: 0,
    });

    // Extended to end in 40 days: 30 days later it is within 14 days of its new end and listed again.
    await setTrip([soon[0]!.id], day(-20), day(40));
    const later30 = new Date(now.getTime() + 30 * 86_400_000);
    const after = await sendExpiryReminders(db(), quietEnv(), later30);
    expect(after.policies).toBeGreaterThanOrEqual(1);
    const mail = await reminders();
    expect(mail).toHaveLength(3);
    expect(mail[2]!.body_text).toContain(soon[0]!.policy_number);
    await setTrip([soon[0]!.id], day(-20), day(3));
  });

  it('sends nothing to a client whose setting is off', async () => {
    await db().update(clients).set({ expiry_reminders: false }).where(eq(clients.id, w.oakwood.id));
    const run = await sendExpiryReminders(db(), quietEnv(), new Date());
    expect(run).toMatchObject({ sent: 0, policies: 0 });
    expect(await reminders()).toHaveLength(0);
    expect(await stamps(soon.map((p) => p.id))).toEqual([null, null]);
  });

  it('skips a client without an initial contact email and leaves its policies to remind later', async () => {
    const initial = and(
      eq(contacts.owner_type, 'client'),
      eq(contacts.owner_id, w.oakwood.id),
      eq(contacts.type, 'initial'),
    );
    await db().update(contacts).set({ email: null }).where(initial);
    const run = await sendExpiryReminders(db(), quietEnv(), new Date());
    expect(run).toMatchObject({ sent: 0, without_contact: 1 });
    expect(await stamps(soon.map((p) => p.id))).toEqual([null, null]);
    await db().update(contacts).set({ email: CONTACT }).where(initial);
    expect(await sendExpiryReminders(db(), quietEnv(), new Date())).toMatchObject({ sent: 1, policies: 2 });
  });

  it("writes in the client's preferred language, with the link under its language prefix", async () => {
    await db().update(clients).set({ preferred_lang: 'de' }).where(eq(clients.id, w.oakwood.id));
    const now = new Date();
    await sendExpiryReminders(db(), quietEnv(), now);
    const [mail] = await reminders();
    expect(mail!.subject).toBe(
      translate('de', 'reminders.expiry.subject', { count: 2, product: 'Enrolment' }),
    );
    expect(mail!.body_text).toContain(expiryLink(quietEnv(), 'de', day(0, now), day(14, now)));
    expect(expiryLink(quietEnv(), 'de', '2026-01-01', '2026-01-15')).toBe(
      'http://localhost:8787/de/insureds?status=active&end_from=2026-01-01&end_to=2026-01-15',
    );
  });

  it('runs with the daily cron trigger only', async () => {
    await handleScheduled({ cron: '*/5 * * * *' }, quietEnv());
    expect(await reminders()).toHaveLength(0);
    await handleScheduled({ cron: DAILY_CRON }, quietEnv());
    expect(await reminders()).toHaveLength(1);
  });

  it("is a client setting the client page and the API's client update change", async () => {
    const admin = await actorCtx(DEMO_ACCOUNTS.admin);
    await updateClient(admin, w.oakwood.public_id, clientUpdateSchema.parse({ expiry_reminders: false }));
    expect((await getClient(admin, w.oakwood.public_id)).expiry_reminders).toBe(false);
    // A form sends a hidden "false" before the checkbox: ticked, the last value wins.
    await updateClient(
      admin,
      w.oakwood.public_id,
      clientUpdateSchema.parse({ expiry_reminders: ['false', 'on'] }),
    );
    expect((await getClient(admin, w.oakwood.public_id)).expiry_reminders).toBe(true);
    // Other edits leave it as it is.
    await updateClient(
      admin,
      w.oakwood.public_id,
      clientUpdateSchema.parse({ website: 'https://oakwood.example' }),
    );
    expect((await getClient(admin, w.oakwood.public_id)).expiry_reminders).toBe(true);
  });
});
