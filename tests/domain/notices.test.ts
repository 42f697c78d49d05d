import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { activityLogs, campuses, clients, noticeRecipients, outbox, users } from '../../drizzle/schema';
import { noticeSchema } from '../../workers/domain/notices/schema';
import {
  createNotice,
  getNotice,
  listNoticeRecipients,
  listNotices,
  exportNotices,
  remindNotice,
  updateNotice,
  updateNoticeStatus,
} from '../../workers/domain/notices/service';
import { acknowledgeNotice, myNotices, pendingNotices } from '../../workers/domain/notices/recipients';
import { NOTICE_EMAIL_TEMPLATE } from '../../workers/domain/notices/emails';
import { Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, SETUP_TIMEOUT_MS, userByEmail } from '../support/world';
import { STRANGER, chooseCompany, seedConfigWorld, type ConfigWorld } from '../support/config';

let w: ConfigWorld;
let admin: ActorCtx;
let executive: ActorCtx;
let stranger: ActorCtx;
let schoolAdmin: ActorCtx;
let employee: ActorCtx;
let oakwood: { public_id: string; id: number };
let south: { public_id: string };

beforeAll(async () => {
  w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.albion.id);
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  executive = await actorCtx(DEMO_ACCOUNTS.executive);
  stranger = await actorCtx(STRANGER.companyUser);
  schoolAdmin = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
  [oakwood] = await db().select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  [south] = await db().select().from(campuses).where(eq(campuses.name, 'Oakwood South Campus'));
}, SETUP_TIMEOUT_MS);

const input = (v: Record<string, unknown>) =>
  noticeSchema.parse({ title: 'Price change', message: 'New prices from May.', ...v });
const errorsOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors.map((x) => x.key);
    throw e;
  }
  throw new Error('expected a refusal');
};
const recipientEmails = async (c: ActorCtx, id: string) =>
  (await listNoticeRecipients(c, id, { page: 1, items: 500 })).items.map((r) => r.email).sort();

describe('notice audience', () => {
  it('reaches every active school user of the chosen client, and nobody of another company', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id] }));
    const emails = await recipientEmails(admin, n.id);
    expect(emails).toContain(DEMO_ACCOUNTS.schoolAdmin);
    expect(emails).toContain(DEMO_ACCOUNTS.campusEmployee);
    expect(emails).not.toContain(STRANGER.schoolUser);
    expect(n.recipients).toBe(emails.length);
    expect(n.acknowledged).toBe(0);
  });

  it('a campus reaches its own users and those who see every campus, not a user of another campus', async () => {
    const n = await createNotice(admin, input({ campuses: [south.public_id] }));
    const emails = await recipientEmails(admin, n.id);
    expect(emails).toContain(DEMO_ACCOUNTS.schoolAdmin);
    expect(emails).not.toContain(DEMO_ACCOUNTS.campusEmployee);
  });

  it('every named dimension must match: a market no client has reaches nobody', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id], markets: ['guardianship'] }));
    expect(n.recipients).toBe(0);
  });

  it("refuses another company's client and an unknown country by name", async () => {
    const [dalriada] = await db().select().from(clients).where(eq(clients.name, 'Dalriada Language School'));
    expect(await errorsOf(createNotice(admin, input({ clients: [dalriada.public_id] })))).toEqual([
      'clients',
    ]);
    expect(await errorsOf(createNotice(admin, input({ countries: ['QQ'] })))).toEqual(['countries']);
  });

  it('an edit keeps the acknowledgements of users who still match and drops those who no longer do', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id] }));
    await acknowledgeNotice(schoolAdmin, n.id);
    await acknowledgeNotice(employee, n.id);
    const edited = await updateNotice(
      admin,
      n.id,
      input({ campuses: [south.public_id], title: 'Price change (South)' }),
    );
    const rows = (await listNoticeRecipients(admin, n.id, { page: 1, items: 500 })).items;
    expect(rows.map((r) => r.email)).not.toContain(DEMO_ACCOUNTS.campusEmployee);
    expect(rows.find((r) => r.email === DEMO_ACCOUNTS.schoolAdmin)?.acknowledged_at).not.toBeNull();
    expect(edited.title).toBe('Price change (South)');
  });
});

describe('acknowledging', () => {
  it('a notice is pending for each recipient until they acknowledge it; acknowledging twice keeps the first time', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id], title: 'Acknowledge me' }));
    expect((await pendingNotices(schoolAdmin)).map((p) => p.id)).toContain(n.id);
    expect((await pendingNotices(employee)).map((p) => p.id)).toContain(n.id);
    await acknowledgeNotice(schoolAdmin, n.id);
    const [first] = await db()
      .select()
      .from(noticeRecipients)
      .where(eq(noticeRecipients.user_id, schoolAdmin.actor.user_id));
    await acknowledgeNotice({ ...schoolAdmin, now: new Date(Date.now() + 60_000) }, n.id);
    expect((await pendingNotices(schoolAdmin)).map((p) => p.id)).not.toContain(n.id);
    expect((await pendingNotices(employee)).map((p) => p.id)).toContain(n.id);
    const again = (await myNotices(schoolAdmin)).find((m) => m.id === n.id);
    expect(again?.acknowledged_at).not.toBeNull();
    expect(first).toBeDefined();
    const pendingOnly = await listNoticeRecipients(admin, n.id, { page: 1, items: 50, acknowledged: 'no' });
    expect(pendingOnly.items.map((r) => r.email)).toContain(DEMO_ACCOUNTS.campusEmployee);
    expect(pendingOnly.items.map((r) => r.email)).not.toContain(DEMO_ACCOUNTS.schoolAdmin);
    expect((await getNotice(admin, n.id)).acknowledged).toBe(1);
  });

  it('a user cannot acknowledge a notice not addressed to them', async () => {
    const n = await createNotice(admin, input({ campuses: [south.public_id] }));
    await expect(acknowledgeNotice(employee, n.id)).rejects.toBeInstanceOf(NotFound);
    await expect(acknowledgeNotice(employee, 'no-such-notice')).rejects.toBeInstanceOf(NotFound);
  });

  it('an archived notice is no longer pending; reactivated, it is again', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id], title: 'Archive me' }));
    await updateNoticeStatus(admin, n.id, 'archived');
    expect((await pendingNotices(employee)).map((p) => p.id)).not.toContain(n.id);
    await expect(acknowledgeNotice(employee, n.id)).rejects.toBeInstanceOf(NotFound);
    await updateNoticeStatus(admin, n.id, 'active');
    expect((await pendingNotices(employee)).map((p) => p.id)).toContain(n.id);
  });
});

describe('emails and reminders', () => {
  const mails = (recipient: string, subject: string) =>
    db()
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.recipient, recipient),
          eq(outbox.subject, subject),
          eq(outbox.template, NOTICE_EMAIL_TEMPLATE),
        ),
      );

  it('with email on, each recipient is emailed once in their language; a reminder goes only to those who have not acknowledged', async () => {
    await db()
      .update(users)
      .set({ preferred_lang: 'de' })
      .where(eq(users.email, DEMO_ACCOUNTS.campusEmployee));
    const n = await createNotice(
      admin,
      input({ clients: [oakwood.public_id], title: 'Mailed', send_email: true }),
    );
    expect(await mails(DEMO_ACCOUNTS.schoolAdmin, 'Notice: Mailed')).toHaveLength(1);
    expect(await mails(DEMO_ACCOUNTS.campusEmployee, 'Mitteilung: Mailed')).toHaveLength(1);
    await updateNotice(
      admin,
      n.id,
      input({ clients: [oakwood.public_id], title: 'Mailed', send_email: true, message: 'Edited.' }),
    );
    expect(await mails(DEMO_ACCOUNTS.schoolAdmin, 'Notice: Mailed')).toHaveLength(1);
    await acknowledgeNotice(schoolAdmin, n.id);
    const { reminded } = await remindNotice(admin, n.id);
    expect(reminded).toBe(n.recipients - 1);
    // The reminder is in the notice's activity log with how many it reached, by who sent it.
    const logged = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'notice'), eq(activityLogs.action, 'reminder_sent')));
    expect(logged.map((l) => ({ after: l.after, user_id: l.actor_user_id }))).toEqual([
      { after: { reminded: n.recipients - 1 }, user_id: admin.actor.user_id },
    ]);
    expect(await mails(DEMO_ACCOUNTS.schoolAdmin, 'Reminder: Mailed')).toHaveLength(0);
    const [mail] = await mails(DEMO_ACCOUNTS.campusEmployee, 'Erinnerung: Mailed');
    expect(mail.body_text).toContain('Edited.');
    await db()
      .update(users)
      .set({ preferred_lang: 'en' })
      .where(eq(users.email, DEMO_ACCOUNTS.campusEmployee));
  });

  it('an archived notice is not reminded', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id], status: 'archived' }));
    expect(n.recipients).toBe(0);
    expect(await errorsOf(remindNotice(admin, n.id))).toEqual(['status']);
  });
});

describe('who may', () => {
  it('read-only staff read notices but cannot write, archive or remind them', async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id] }));
    await chooseCompany(DEMO_ACCOUNTS.executive, w.albion.id);
    const exec = await actorCtx(DEMO_ACCOUNTS.executive);
    expect((await getNotice(exec, n.id)).id).toBe(n.id);
    await expect(createNotice(exec, input({}))).rejects.toBeInstanceOf(Forbidden);
    await expect(updateNoticeStatus(exec, n.id, 'archived')).rejects.toBeInstanceOf(Forbidden);
    await expect(remindNotice(exec, n.id)).rejects.toBeInstanceOf(Forbidden);
    expect(executive.actor.user_id).toBe(exec.actor.user_id);
  });

  it("another company's staff do not find the notice; school users cannot manage notices", async () => {
    const n = await createNotice(admin, input({ clients: [oakwood.public_id] }));
    await expect(getNotice(stranger, n.id)).rejects.toBeInstanceOf(NotFound);
    await expect(updateNoticeStatus(stranger, n.id, 'archived')).rejects.toBeInstanceOf(NotFound);
    await expect(listNoticeRecipients(stranger, n.id, { page: 1, items: 10 })).rejects.toBeInstanceOf(
      NotFound,
    );
    expect((await listNotices(stranger, { page: 1, items: 100 })).items.map((x) => x.id)).not.toContain(n.id);
    await expect(listNotices(schoolAdmin, { page: 1, items: 10 })).rejects.toBeInstanceOf(Forbidden);
    expect((await exportNotices(stranger, { page: 1, items: 25 })).map((x) => x.id)).not.toContain(n.id);
    await expect(exportNotices(schoolAdmin, { page: 1, items: 25 })).rejects.toBeInstanceOf(Forbidden);
  });

  it('the export holds the whole filtered list, past its first page, with the acknowledged counts', async () => {
    const tag = `Exported ${Date.now()}`;
    const made: Awaited<ReturnType<typeof createNotice>>[] = [];
    for (let i = 0; i < 3; i++)
      made.push(await createNotice(admin, input({ clients: [oakwood.public_id], title: `${tag} ${i}` })));
    await acknowledgeNotice(schoolAdmin, made[0].id);
    await updateNoticeStatus(admin, made[2].id, 'archived');
    const rows = await exportNotices(admin, { page: 1, items: 1, search: tag, status: 'active' });
    expect(rows.map((r) => r.title).sort()).toEqual([`${tag} 0`, `${tag} 1`]);
    const first = rows.find((r) => r.id === made[0].id)!;
    expect(first.acknowledged).toBe(1);
    expect(first.recipients).toBe(made[0].recipients);
  });
});

describe('past 100', () => {
  /** `count` more active clients of Albion, each with `perClient` school users; their public ids. */
  async function manyClients(count: number, perClient: number, tag: string): Promise<string[]> {
    const d = db();
    const now = Date.now();
    await d.run(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO clients (public_id, company_id, name, created_at, updated_at)
      SELECT ${tag} || '-c' || i, ${w.albion.id}, 'Bulk school ' || ${tag} || ' ' || i, ${now}, ${now} FROM n`);
    await d.run(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${perClient})
      INSERT INTO users (public_id, email, first_name, last_name, user_type, client_id, member_type, created_at, updated_at)
      SELECT ${tag} || '-u' || c.id || '-' || n.i, ${tag} || '.' || c.id || '.' || n.i || '@bulk.test', 'Bulk', 'User',
        'school', c.id, 'employee', ${now}, ${now}
      FROM clients c JOIN n WHERE c.public_id LIKE ${tag + '-c%'}`);
    const rows = await d
      .select({ id: clients.public_id })
      .from(clients)
      .where(sql`${clients.public_id} LIKE ${tag + '-c%'}`);
    return rows.map((r) => r.id);
  }

  it('an audience of 101 clients is one notice with every one of their users', async () => {
    const ids = await manyClients(101, 1, 'n101');
    expect(ids).toHaveLength(101);
    const n = await createNotice(admin, input({ clients: ids }));
    expect(n.recipients).toBe(101);
    expect(n.audience.clients).toHaveLength(101);
  });

  it('5,000 recipients are written, emailed and reminded whole', async () => {
    const ids = await manyClients(125, 40, 'n5k');
    const n = await createNotice(
      admin,
      input({ clients: ids, user_types: ['employee'], send_email: true, title: 'Five thousand' }),
    );
    expect(n.recipients).toBe(5000);
    const [{ sent }] = await db()
      .select({ sent: sql<number>`count(*)` })
      .from(outbox)
      .where(and(eq(outbox.subject, 'Notice: Five thousand'), eq(outbox.template, NOTICE_EMAIL_TEMPLATE)));
    expect(sent).toBe(5000);
    const bulkUser = await userByEmail(
      `n5k.${(await db().select().from(clients).where(eq(clients.public_id, ids[0])))[0].id}.1@bulk.test`,
    );
    await acknowledgeNotice({ ...admin, actor: { ...admin.actor, user_id: bulkUser.id } } as ActorCtx, n.id);
    expect((await remindNotice(admin, n.id)).reminded).toBe(4999);
  });
});
