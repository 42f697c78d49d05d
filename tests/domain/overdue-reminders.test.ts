/**
 * Overdue reminders (workers/domain/reminders/overdue.ts): the daily task emails the accounting contact
 * (else the initial contact; none: skipped and logged) of each client with overdue invoices on the
 * company's schedule, once per step, one email per client per run listing its invoices, in the client's
 * language; on demand for chosen invoices; every reminder logged on the invoice; the company's schedule
 * as the company form and API give it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { activityLogs, clients, companies, contacts, invoiceReminders, outbox } from '../../drizzle/schema';
import { Conflict, Forbidden, NotFound } from '../../workers/domain/errors';
import { companySchema } from '../../workers/domain/companies/schema';
import {
  OVERDUE_TEMPLATE,
  cleanSteps,
  overdueEmailSchema,
  sendOverdueEmails,
  sendScheduledOverdueReminders,
  stepReached,
} from '../../workers/domain/reminders/overdue';
import { formatMessage } from '../../workers/platform/i18n';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { day, db, insertInvoice, insertTransaction } from '../support/billing';

let w: ContractsWorld;
beforeAll(async () => {
  w = await seedContractsWorld();
  await db()
    .update(companies)
    .set({ overdue_reminder_days: [1, 7, 14] })
    .where(eq(companies.id, w.albion.id));
}, SETUP_TIMEOUT_MS);

const BURSAR = 'bursary@oakwood-international.example';
const at = (days: number) => new Date(Date.now() + days * 86_400_000);
const oakwood = (due: number, total = 10_000) =>
  insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: total,
    due_at: day(due),
  });

async function remindersOf(ids: number[]) {
  return db().select().from(invoiceReminders).where(inArray(invoiceReminders.invoice_id, ids));
}
async function mailTo(recipient: string) {
  return db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.template, OVERDUE_TEMPLATE)))
    .orderBy(outbox.id);
}

describe('the schedule', () => {
  it('finds the step reached and reads the company setting as typed', () => {
    expect(stepReached([1, 7, 14], day(0), day(0))).toBeNull();
    expect(stepReached([1, 7, 14], day(-1), day(0))).toBe(1);
    expect(stepReached([1, 7, 14], day(-6), day(0))).toBe(1);
    expect(stepReached([1, 7, 14], day(-10), day(0))).toBe(7);
    expect(stepReached([1, 7, 14], day(-40), day(0))).toBe(14);
    expect(stepReached([], day(-40), day(0))).toBeNull();
    expect(cleanSteps([14, '7', 7, 0, 1.5, 400, 1])).toEqual([1, 7, 14]);
    const days = (v: unknown) => {
      const r = companySchema.shape.overdue_reminder_days.safeParse(v);
      return r.success ? r.data : formatMessage(r.error.issues[0].message, 'en');
    };
    expect(days('14, 1, 7, 7')).toEqual([1, 7, 14]);
    expect(days([3, 30])).toEqual([3, 30]);
    expect(days('')).toEqual([]);
    expect(days(undefined)).toEqual([]);
    expect(days('1, x')).toBe('Enter whole days from 1 to 365, separated by commas (at most 10)');
    expect(days('0')).toBe('Enter whole days from 1 to 365, separated by commas (at most 10)');
    expect(days('1,2,3,4,5,6,7,8,9,10,11')).toBe(
      'Enter whole days from 1 to 365, separated by commas (at most 10)',
    );
  });
});

describe('the daily task', () => {
  it('emails the accounting contact once per step, one email per client listing its overdue invoices', async () => {
    const a = await oakwood(-1);
    const b = await oakwood(-3, 25_050);
    const notYet = await oakwood(40);
    const paid = await oakwood(-2);
    await insertTransaction(paid, { amount_minor: 10_000 });
    const before = (await mailTo(BURSAR)).length;

    const first = await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const mails = (await mailTo(BURSAR)).slice(before);
    expect(mails).toHaveLength(1);
    // Counted texts: two invoices, one a day overdue and one three days.
    expect(mails[0].subject).toMatch(/: 2 overdue invoices$/);
    expect(mails[0].body_text).toContain('Dear Bernard,');
    expect(mails[0].body_text).toContain(
      `${a.number}: GBP 100.00 due on ${day(-1).split('-').reverse().join('/')}, 1 day overdue`,
    );
    expect(mails[0].body_text).toContain(`${b.number}: GBP 250.50`);
    expect(mails[0].body_text).toContain(', 3 days overdue');
    expect(mails[0].body_text).not.toContain(notYet.number);
    expect(mails[0].body_text).not.toContain(paid.number);
    const rows = await remindersOf([a.id, b.id, notYet.id, paid.id]);
    expect(rows.map((r) => [r.invoice_id, r.kind, r.step_days, r.recipient]).sort()).toEqual(
      [
        [a.id, 'scheduled', 1, BURSAR],
        [b.id, 'scheduled', 1, BURSAR],
      ].sort(),
    );
    expect(rows.every((r) => r.outbox_id === mails[0].id)).toBe(true);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.action, 'overdue_reminder_sent'), inArray(activityLogs.entity_id, [a.id, b.id])),
      );
    expect(logs).toHaveLength(2);
    expect(logs[0].after).toMatchObject({ kind: 'scheduled', step_days: 1, recipient: BURSAR });

    // Again the same day, and the next days before step 7: nothing more.
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    await sendScheduledOverdueReminders(db(), testEnv(), at(3));
    expect((await mailTo(BURSAR)).slice(before)).toHaveLength(1);
    // Step 7 of `a` (due yesterday) comes six days later; `b` reached it at day 4 already.
    await sendScheduledOverdueReminders(db(), testEnv(), at(6));
    const later = (await mailTo(BURSAR)).slice(before);
    expect(later).toHaveLength(2);
    expect(later[1].body_text).toContain(a.number);
    expect(later[1].body_text).toContain(b.number);
    // A task that missed days sends the step reached, not every step passed: at day 20 only step 14.
    await sendScheduledOverdueReminders(db(), testEnv(), at(20));
    await sendScheduledOverdueReminders(db(), testEnv(), at(21));
    expect((await remindersOf([a.id])).map((r) => r.step_days).sort((x, y) => x - y)).toEqual([1, 7, 14]);
  });

  it("writes in the client's language and falls back to the initial contact; none: skipped and logged once", async () => {
    await db().update(clients).set({ preferred_lang: 'de' }).where(eq(clients.id, w.highland.id));
    await db()
      .update(companies)
      .set({ overdue_reminder_days: [2] })
      .where(eq(companies.id, w.caledonia.id));
    await db()
      .delete(contacts)
      .where(and(eq(contacts.owner_type, 'client'), eq(contacts.owner_id, w.highland.id)));
    const inv = await insertInvoice({
      company_id: w.caledonia.id,
      client_id: w.highland.id,
      total_minor: 5_000,
      due_at: day(-3),
    });
    const run = await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    expect(run.without_contact).toBeGreaterThanOrEqual(1);
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    const skipped = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.action, 'overdue_reminder_skipped'), eq(activityLogs.entity_id, inv.id)));
    expect(skipped).toHaveLength(1);
    expect(await remindersOf([inv.id])).toEqual([]);

    await db().insert(contacts).values({
      owner_type: 'client',
      owner_id: w.highland.id,
      type: 'initial',
      first_name: 'Iona',
      last_name: 'Initial',
      email: 'iona@highland.test',
    });
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    const [mail] = await mailTo('iona@highland.test');
    expect(mail.body_text).toContain('Guten Tag Iona,');
    expect(mail.body_text).toContain(`${inv.number}: EUR`.replace('EUR', inv.currency));
    expect(mail.subject).toMatch(/: 1 überfällige Rechnung$/);
    // A company without a schedule sends nothing.
    await db().update(companies).set({ overdue_reminder_days: [] }).where(eq(companies.id, w.caledonia.id));
    const other = await insertInvoice({
      company_id: w.caledonia.id,
      client_id: w.highland.id,
      total_minor: 5_000,
      due_at: day(-30),
    });
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    expect(await remindersOf([other.id])).toEqual([]);
  });
});

describe('on demand', () => {
  it('sends one email per client for the overdue ones of the chosen invoices, logged as manual, each time asked', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.finance);
    const overdue = await oakwood(-5);
    const current = await oakwood(10);
    const before = (await mailTo(BURSAR)).length;
    const r = await sendOverdueEmails(ctx, [overdue.public_id, current.public_id]);
    expect(r).toMatchObject({ sent: 1, invoices: 1, recipients: [BURSAR] });
    const mails = (await mailTo(BURSAR)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].body_text).toContain(overdue.number);
    expect(mails[0].body_text).not.toContain(current.number);
    await sendOverdueEmails(ctx, [overdue.public_id]);
    const rows = await remindersOf([overdue.id, current.id]);
    expect(rows.map((x) => [x.invoice_id, x.kind, x.step_days, x.sent_by])).toEqual([
      [overdue.id, 'manual', 0, ctx.actor.user_id],
      [overdue.id, 'manual', 0, ctx.actor.user_id],
    ]);
    // The scheduled step is still sent: a manual reminder is not a step.
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    expect(
      (await remindersOf([overdue.id])).filter((x) => x.kind === 'scheduled').map((x) => x.step_days),
    ).toEqual([1]);
  });

  it('refuses when nothing is overdue and for users who may not send; an unknown invoice is not found', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.finance);
    const current = await oakwood(3);
    const e = await sendOverdueEmails(ctx, [current.public_id]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Conflict);
    expect(formatMessage((e as Conflict).message, 'en')).toBe('None of these invoices is overdue.');
    const overdue = await oakwood(-2);
    await expect(
      sendOverdueEmails(await actorCtx(DEMO_ACCOUNTS.schoolAdmin), [overdue.public_id]),
    ).rejects.toBeInstanceOf(Forbidden);
    // An invoice out of scope, or one that does not exist, is not found (not "not overdue").
    await expect(
      sendOverdueEmails(await actorCtx('stranger.admin@caledonia.test'), [overdue.public_id]),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(sendOverdueEmails(ctx, [overdue.public_id, 'no-such-invoice'])).rejects.toBeInstanceOf(
      NotFound,
    );
    expect(await remindersOf([overdue.id])).toEqual([]);
    expect(overdueEmailSchema.safeParse({ invoice_ids: [] }).success).toBe(false);
    const count = await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM invoice_reminders WHERE invoice_id = ${current.id}`,
    );
    expect(count?.n).toBe(0);
  });
});

describe("the invoice page's action", () => {
  it('answers to whom it went, or why nothing was sent, as the toast', async () => {
    const { sendOverdueEmailFromPage } = await import('../../workers/domain/reminders/overdue');
    const ctx = await actorCtx(DEMO_ACCOUNTS.finance);
    const overdue = await oakwood(-4);
    const sent = await sendOverdueEmailFromPage(ctx, overdue.public_id);
    expect(sent.ok).toBe(true);
    expect(formatMessage(sent.toast, 'en')).toBe(`Overdue reminder sent to ${BURSAR}.`);
    const current = await oakwood(4);
    const refused = await sendOverdueEmailFromPage(ctx, current.public_id);
    expect(refused.ok).toBe(false);
    expect(formatMessage(refused.toast, 'en')).toBe('None of these invoices is overdue.');
    const { remindersOfInvoice } = await import('../../workers/domain/reminders/overdue');
    expect(await remindersOfInvoice(ctx, overdue.public_id)).toEqual([
      expect.objectContaining({ kind: 'manual', step_days: 0, recipient: BURSAR }),
    ]);
    await expect(
      remindersOfInvoice(await actorCtx('stranger.admin@caledonia.test'), overdue.public_id),
    ).rejects.toThrow();
  });
});
