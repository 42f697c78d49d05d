/**
 * Expiry reminders: once a day the cron tells each client's initial contact about the
 * client's policies ending in the next 14 days, in one email per client listing them, in the client's
 * preferred language, with a link to those insureds in the list (active, ending in the window) where
 * they can be extended. Written to the outbox with the stamp `expiry_reminder_sent_at` of every policy
 * listed, in one batch per client: a policy is listed once for its end date.
 *
 * "Once per end date": a stamp from before the current end date's 14-day window belongs to an earlier
 * end date (the policy was extended since), so the policy is listed again when its new end date comes
 * near. A client whose setting is off (`clients.expiry_reminders`) is skipped; so is a client without an
 * initial contact email, and its policies stay unstamped, so the first reminder after a contact is
 * added still lists them.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { clients, contacts, policies } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { runBatch, type DB } from '../../platform/db';
import { loadLanguages, translate } from '../../platform/i18n';
import { logActivity } from '../audit/activity-log';
import { flushOutbox, queueMessage } from '../outbox/service';
import { britishDate } from '../formats';
import { todayIso } from '../validation';

/** How far ahead a policy's end is announced. */
export const EXPIRY_WINDOW_DAYS = 14;
export const EXPIRY_TEMPLATE = 'policy_expiry_reminder';
/** At most this many policies are listed in one email (the link shows them all). */
const MAX_LISTED = 200;

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The policies a reminder is due for today: issued, ending in the window, not reminded for this end. */
function dueWhere(today: string, until: string) {
  return and(
    eq(policies.status, 'issued'),
    sql`${policies.end_date} >= ${today} and ${policies.end_date} <= ${until}`,
    sql`(${policies.expiry_reminder_sent_at} is null or ${policies.expiry_reminder_sent_at} <
      (unixepoch(${policies.end_date}, ${`-${EXPIRY_WINDOW_DAYS} days`}) * 1000))`,
  );
}

export interface ReminderRun {
  /** Clients emailed. */
  sent: number;
  /** Policies listed in those emails. */
  policies: number;
  /** Clients with policies due but no initial contact email. */
  without_contact: number;
}

/** The link of the reminder: the insureds list, active, ending in the window, in the client's language. */
export function expiryLink(env: Pick<Env, 'PUBLIC_URL'>, lang: string, today: string, until: string): string {
  const prefix = lang === 'en' ? '' : `/${lang}`;
  const q = new URLSearchParams({ status: 'active', end_from: today, end_to: until });
  return `${env.PUBLIC_URL}${prefix}/insureds?${q}`;
}

/** The cron task: one email per client with policies due, then the outbox is handed to the queue. */
export async function sendExpiryReminders(db: DB, env: Env, now: Date): Promise<ReminderRun> {
  const today = todayIso(now);
  const until = addDays(today, EXPIRY_WINDOW_DAYS);
  const due = await db
    .select({
      client_id: policies.client_id,
      company_id: policies.company_id,
      count: sql<number>`count(*)`,
    })
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .where(and(dueWhere(today, until), eq(clients.expiry_reminders, true), eq(clients.status, 'active')))
    .groupBy(policies.client_id, policies.company_id);
  const run: ReminderRun = { sent: 0, policies: 0, without_contact: 0 };
  const ctx = { db, actor: null, now };
  for (const c of due) {
    const [client] = await db
      .select({ name: clients.name, lang: clients.preferred_lang })
      .from(clients)
      .where(eq(clients.id, c.client_id));
    const [contact] = await db
      .select({ email: contacts.email, first_name: contacts.first_name })
      .from(contacts)
      .where(
        and(
          eq(contacts.owner_type, 'client'),
          eq(contacts.owner_id, c.client_id),
          eq(contacts.type, 'initial'),
          sql`coalesce(${contacts.email}, '') <> ''`,
        ),
      )
      .orderBy(asc(contacts.position), asc(contacts.id))
      .limit(1);
    if (!client || !contact?.email) {
      run.without_contact += 1;
      continue;
    }
    const where = and(dueWhere(today, until), eq(policies.client_id, c.client_id));
    const listed = await db
      .select({
        id: policies.id,
        policy_number: policies.policy_number,
        first_name: policies.first_name,
        last_name: policies.last_name,
        end_date: policies.end_date,
      })
      .from(policies)
      .where(where)
      .orderBy(asc(policies.end_date), asc(policies.last_name), asc(policies.id));
    if (!listed.length) continue;
    const lang = client.lang;
    await loadLanguages([lang]);
    const t = (k: string, p?: Record<string, string | number>) => translate(lang, `reminders.expiry.${k}`, p);
    const lines = listed.slice(0, MAX_LISTED).map((p) =>
      t('line', {
        policy: p.policy_number,
        name: `${p.first_name} ${p.last_name}`,
        end: britishDate(p.end_date),
      }),
    );
    if (listed.length > MAX_LISTED) lines.push(t('more', { count: listed.length - MAX_LISTED }));
    const body = [
      t('greeting', { name: contact.first_name }),
      '',
      t('intro', { count: listed.length, client: client.name, days: EXPIRY_WINDOW_DAYS }),
      '',
      ...lines,
      '',
      t('extend', { link: expiryLink(env, lang, today, until) }),
      '',
      t('setting', { product: env.PRODUCT_NAME }),
    ].join('\n');
    const ids = JSON.stringify(listed.map((p) => p.id));
    await runBatch(db, [
      queueMessage(db, now, {
        channel: 'email',
        recipient: contact.email,
        template: EXPIRY_TEMPLATE,
        subject: t('subject', { count: listed.length, product: env.PRODUCT_NAME }),
        body_text: body,
      }),
      db
        .update(policies)
        .set({ expiry_reminder_sent_at: now })
        .where(sql`${policies.id} in (select value from json_each(${ids}))`),
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: c.client_id,
        action: 'expiry_reminder_sent',
        after: { policies: listed.length, recipient: contact.email, until },
        company_id: c.company_id,
        client_id: c.client_id,
      }),
    ]);
    run.sent += 1;
    run.policies += listed.length;
  }
  if (run.sent) {
    try {
      await flushOutbox(db, env, now);
    } catch (e) {
      console.warn('Expiry reminders are left for the outbox cron: the queue refused them', e);
    }
  }
  return run;
}
