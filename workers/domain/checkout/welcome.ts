/**
 * Welcome emails (spec 002: policy-batches/{id}/send-welcome-email; spec 001 s.8 'Insurer does not have
 * an Email.'): one email per insured of a batch who has an email address, written to the outbox in the
 * same transaction as the change that causes it (the checkout, or the explicit call), then handed to the
 * queue. Insureds without an email are skipped; a batch where nobody has one is refused with the spec's
 * message.
 *
 * The email is in the client's preferred language. It is built in SQL from the translated template
 * (placeholders replaced by the policy's columns), so a batch of 5000 is one statement.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { clients, policies } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { runBatch, type DB, type Statement } from '../../platform/db';
import { loadLanguages, translate } from '../../platform/i18n';
import { logActivity } from '../audit/activity-log';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { findVisibleBatch } from '../enrollments/batches';
import { Conflict, ValidationFailed } from '../errors';
import { flushOutbox } from '../outbox/service';
import { msg } from '../validation';

export const WELCOME_TEMPLATE = 'policy_welcome';
/** Who may send welcome emails: whoever may order or update policies. */
export const WELCOME_PERMISSION = 'create_policy|update_policy';

/** Columns of `p` (policies), `pr` (products), `cl` (clients) and `ca` (campuses) the template may name. */
const FIELDS: Record<string, string> = {
  first_name: 'p.first_name',
  last_name: 'p.last_name',
  policy_number: 'p.policy_number',
  plan: 'pr.name',
  start_date: "strftime('%d/%m/%Y', p.start_date)",
  end_date: "strftime('%d/%m/%Y', p.end_date)",
  school: 'cl.name',
  campus: 'ca.name',
  claim_contact: "coalesce(pr.claim_email, pr.claim_phone, '')",
};

const token = (name: string) => `[[${name}]]`;

/** A translated text with the policy's columns in place of its placeholders, as an SQL expression. */
function templateSql(lang: string, key: string, product: string): SQL {
  const params: Record<string, string> = { product };
  for (const name of Object.keys(FIELDS)) params[name] = token(name);
  const text = translate(lang, key, params);
  let expr: SQL = sql`${text}`;
  for (const [name, column] of Object.entries(FIELDS))
    if (text.includes(token(name)))
      expr = sql`replace(${expr}, ${token(name)}, coalesce(${sql.raw(column)}, ''))`;
  return expr;
}

/**
 * The outbox rows (and the sent stamp) of the welcome emails of the policies matching `where` (an SQL
 * condition on `p`). To be run in the batch of the change that causes them.
 */
export function welcomeStatements(
  db: DB,
  input: { where: SQL; lang: string; productName: string; now: Date },
): Statement[] {
  const now = input.now.getTime();
  const withEmail = sql`${input.where} AND p.email IS NOT NULL AND p.email <> '' AND p.status = 'issued'`;
  const insert = sql`INSERT INTO outbox (channel, recipient, subject, body_text, template, status, attempts, created_at)
    SELECT 'email', lower(p.email), ${templateSql(input.lang, 'checkout.welcome.subject', input.productName)},
      ${templateSql(input.lang, 'checkout.welcome.body', input.productName)}, ${WELCOME_TEMPLATE}, 'pending', 0, ${now}
    FROM policies p
      JOIN products pr ON pr.id = p.product_id
      JOIN clients cl ON cl.id = p.client_id
      JOIN campuses ca ON ca.id = p.campus_id
    WHERE ${withEmail}
    ORDER BY p.id`;
  const stamp = sql`UPDATE policies AS p SET welcome_email_sent_at = ${now} WHERE ${withEmail}`;
  return [db.run(insert), db.run(stamp)];
}

/**
 * Hands the welcome emails a change wrote at `writtenAt` to the queue (flushOutbox). A failure to enqueue
 * does not undo the change that wrote them: the rows stay pending and the outbox cron hands them over.
 */
export async function enqueueWelcomeEmails(db: DB, env: Env, writtenAt: Date): Promise<void> {
  try {
    await flushOutbox(db, env, writtenAt);
  } catch (e) {
    console.warn('Welcome emails are left for the outbox cron: the queue refused them', e);
  }
}

/**
 * Sends the welcome email to every insured of a confirmed batch who has an email address (again, if it
 * was sent before: the call is an explicit request). Answers how many were sent and how many insureds
 * have no email.
 */
export async function sendWelcomeEmails(
  ctx: ActorCtx,
  batchId: string | number,
): Promise<{ sent: number; without_email: number }> {
  requirePermission(ctx.actor, WELCOME_PERMISSION);
  const batch = await findVisibleBatch(ctx, batchId);
  if (batch.status !== 'confirmed') throw new Conflict(msg('checkout.errors.not_issued'));
  const [counts] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      with_email: sql<number>`sum(CASE WHEN ${policies.email} IS NOT NULL AND ${policies.email} <> '' THEN 1 ELSE 0 END)`,
    })
    .from(policies)
    .where(and(eq(policies.batch_id, batch.id), eq(policies.status, 'issued')));
  const total = Number(counts?.total ?? 0);
  const withEmail = Number(counts?.with_email ?? 0);
  if (!withEmail) throw ValidationFailed.field('email', msg('checkout.errors.no_email'));
  const [client] = await ctx.db
    .select({ lang: clients.preferred_lang })
    .from(clients)
    .where(eq(clients.id, batch.client_id));
  await loadLanguages([client?.lang]);
  await runBatch(ctx.db, [
    ...welcomeStatements(ctx.db, {
      where: sql`p.batch_id = ${batch.id}`,
      lang: client?.lang ?? 'en',
      productName: ctx.env.PRODUCT_NAME,
      now: ctx.now,
    }),
    logActivity(ctx, {
      entity_type: 'policy_batch',
      entity_id: batch.id,
      action: 'welcome_email_sent',
      after: { sent: withEmail, without_email: total - withEmail },
      company_id: batch.company_id,
      client_id: batch.client_id,
    }),
  ]);
  await enqueueWelcomeEmails(ctx.db, ctx.env, ctx.now);
  return { sent: withEmail, without_email: total - withEmail };
}
