/**
 * Welcome emails to chosen insureds (spec 001 s.2 bulk action "send welcome email", s.8 'Insurer does not
 * have an Email.', s.7 "Welcome email requires initial contact information"; 002 s.7
 * policies/send-welcome-email and policies/{id}/send-welcome-email).
 *
 * The same email as at checkout (checkout/welcome.ts: the template, the outbox, the queue), in each
 * client's language, to every chosen insured who has an email address and whose policy is not cancelled.
 * - The client (or, for a campus of its own, the campus) must have an initial contact; a selection with a
 *   client without one is refused whole, naming the client.
 * - Insureds without an email are counted and reported; when none of them has one the request is refused
 *   with the spec's message.
 * - All emails and the sent stamps (`welcome_email_sent_at`) are written in one batch.
 */
import { and, eq, sql } from 'drizzle-orm';
import { clients, contacts, policies } from '../../../drizzle/schema';
import { inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { visiblePolicies } from '../access/scope';
import { logActivities } from '../audit/activity-log';
import { enqueueWelcomeEmails, welcomeStatements, WELCOME_PERMISSION } from '../checkout/welcome';
import { loadLanguages } from '../../platform/i18n';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { policyStatus } from '../policies/status';
import { msg, todayIso } from '../validation';

export interface WelcomeOutcome {
  sent: number;
  without_email: number;
  cancelled: number;
}

/** Sends the welcome email to the insureds `ids` (policy ids; those outside the actor's scope are ignored). */
export async function sendPolicyWelcomeEmails(ctx: ActorCtx, ids: number[]): Promise<WelcomeOutcome> {
  requirePermission(ctx.actor, WELCOME_PERMISSION);
  if (!ids.length) throw ValidationFailed.field('policies', msg('policy_documents.bulk.nothing'));
  const rows = await ctx.db
    .select({
      id: policies.id,
      client_id: policies.client_id,
      campus_id: policies.campus_id,
      company_id: policies.company_id,
      email: policies.email,
      status: policies.status,
      start_date: policies.start_date,
      end_date: policies.end_date,
      client: clients.name,
      lang: clients.preferred_lang,
    })
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .where(and(inJson(policies.id, ids), visiblePolicies(ctx.actor)));
  // Ids were named, none of them is the actor's: as for one id of another tenant, not found.
  if (!rows.length) throw new NotFound(msg('insureds.errors.not_found'));

  await requireInitialContacts(ctx, rows);

  const today = todayIso(ctx.now);
  const cancelled = rows.filter((r) => policyStatus(r, today) === 'cancelled');
  const live = rows.filter((r) => policyStatus(r, today) !== 'cancelled');
  const withEmail = live.filter((r) => r.email && r.email.trim());
  if (!withEmail.length) throw ValidationFailed.field('email', msg('checkout.errors.no_email'));

  const byClient = new Map<number, { lang: string; ids: number[] }>();
  for (const r of withEmail) {
    const group = byClient.get(r.client_id) ?? { lang: r.lang ?? 'en', ids: [] };
    group.ids.push(r.id);
    byClient.set(r.client_id, group);
  }
  await loadLanguages([...byClient.values()].map((g) => g.lang));
  await runBatch(ctx.db, [
    ...[...byClient.values()].flatMap((g) =>
      welcomeStatements(ctx.db, {
        where: inJson(sql`p.id`, g.ids),
        lang: g.lang,
        productName: ctx.env.PRODUCT_NAME,
        now: ctx.now,
      }),
    ),
    ...logActivities(
      ctx,
      withEmail.map((r) => ({
        entity_type: 'policy',
        entity_id: r.id,
        action: 'welcome_email_sent',
        after: { welcome_email_sent_at: ctx.now.toISOString() },
        company_id: r.company_id,
        client_id: r.client_id,
      })),
    ),
  ]);
  await enqueueWelcomeEmails(ctx.db, ctx.env, ctx.now);
  return {
    sent: withEmail.length,
    without_email: live.length - withEmail.length,
    cancelled: cancelled.length,
  };
}

/** Refuses when a client of the selection has no initial contact (its own, or its campus's). */
async function requireInitialContacts(
  ctx: ActorCtx,
  rows: { client_id: number; campus_id: number; client: string }[],
) {
  const clientIds = [...new Set(rows.map((r) => r.client_id))];
  const campusIds = [...new Set(rows.map((r) => r.campus_id))];
  const found = await ctx.db
    .select({ owner_type: contacts.owner_type, owner_id: contacts.owner_id })
    .from(contacts)
    .where(
      and(
        eq(contacts.type, 'initial'),
        sql`((${contacts.owner_type} = 'client' AND ${inJson(contacts.owner_id, clientIds)})
          OR (${contacts.owner_type} = 'campus' AND ${inJson(contacts.owner_id, campusIds)}))`,
      ),
    );
  const has = (type: string, id: number) => found.some((c) => c.owner_type === type && c.owner_id === id);
  const missing = rows.find((r) => !has('client', r.client_id) && !has('campus', r.campus_id));
  if (missing)
    throw ValidationFailed.field(
      'policies',
      msg('policy_documents.errors.no_initial_contact', { client: missing.client }),
    );
}
