import { Hono } from 'hono';
import { z } from 'zod';
import {
  amendNow,
  amountBodySchema,
  amendmentViewQuerySchema,
  assignGroupLeader,
  bulkCancelBodySchema,
  bulkExtendBodySchema,
  bulkTripDatesBodySchema,
  cancelBodySchema,
  confirmAmendment,
  createAmendment,
  extendBodySchema,
  getAmendment,
  namesIssuedPolicies,
  groupLeaderBodySchema,
  groupNameBodySchema,
  oneGroupLeaderBodySchema,
  quoteAmendment,
  tripDatesBodySchema,
  updateGroupName,
  type AmendmentResult,
  type AmendmentView,
} from '../domain/policies/amendments';
import { assignGroupLeader as assignEnrollmentGroupLeader } from '../domain/enrollments/service';
import { formatMessage } from '../platform/i18n';
import { msg } from '../domain/validation';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { idempotent } from './idempotency';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const ALL = { page: 1, items: 25 };

/** The answer of an applied amendment: its result, and the spec's success message once applied, as text. */
const applied = (result: AmendmentResult, lang: string) => {
  const message = result.message ? formatMessage(result.message, lang) : null;
  return { data: { amendment: { ...result, message } }, ...(message ? { message } : {}) };
};

/** A quote as the API answers it: each line's errors as text in the call's language. */
const quoted = (view: AmendmentView, lang: string) => ({
  ...view,
  lines: {
    ...view.lines,
    items: view.lines.items.map((line) => ({
      ...line,
      errors: line.errors.map((e) => ({ message: formatMessage(msg(e.message, e.params), lang) })),
    })),
  },
});

/**
 * Amendments of issued policies (spec 002 s.7 "Insureds and policies"): extend, edit trip dates, cancel
 * (single and bulk), group leader and group name. Quote then confirm: `POST policies/amount` answers a
 * quote (its id and totals), `POST policies/amount/{id}/confirm` applies it once (confirming again answers
 * the same), `GET policies/amount/{id}` reads it. The direct calls (`policies/extend`, ...) quote and
 * confirm in one go and answer the same result. Decisions in docs/decisions/after-the-sale.md, "Amendments".
 * Mounted before the enrollments router: `policies/group-leader/update` is served here for issued
 * policies and handed to the enrollments area for applicants not yet checked out.
 */
export const policyAmendmentsApi = new Hono<ApiEnv>()
  .use('/company/policies', requireAuth)
  .use('/company/policies/*', requireAuth)
  .post('/company/policies/amount', valid('json', amountBodySchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { type, policies, ...input } = c.req.valid('json');
    const { id } = await createAmendment(ctx, {
      kind: type,
      selection: { ids: policies },
      query: ALL,
      request: input,
    });
    return c.json({ data: { amendment: quoted(await quoteAmendment(ctx, id, input), langOf(c)) } });
  })
  .get(
    '/company/policies/amount/:id',
    valid('param', idParam),
    valid('query', amendmentViewQuerySchema),
    async (c) =>
      c.json({
        data: {
          amendment: quoted(
            await getAmendment(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
            langOf(c),
          ),
        },
      }),
  )
  .post('/company/policies/amount/:id/confirm', valid('param', idParam), idempotent, async (c) =>
    c.json(applied(await confirmAmendment(actorCtxOf(c), c.req.valid('param').id), langOf(c))),
  )
  .post('/company/policies/extend', valid('json', bulkExtendBodySchema), idempotent, async (c) => {
    const { policies, new_end_date } = c.req.valid('json');
    return c.json(
      applied(await amendNow(actorCtxOf(c), { kind: 'extend', policies, new_end_date }), langOf(c)),
    );
  })
  .post(
    '/company/policies/:id/extend',
    valid('param', idParam),
    valid('json', extendBodySchema),
    idempotent,
    async (c) => {
      const { new_end_date } = c.req.valid('json');
      const policies = [c.req.valid('param').id];
      return c.json(
        applied(await amendNow(actorCtxOf(c), { kind: 'extend', policies, new_end_date }), langOf(c)),
      );
    },
  )
  .post(
    '/company/policies/trip-dates/update',
    valid('json', bulkTripDatesBodySchema),
    idempotent,
    async (c) => {
      const { policies, ...dates } = c.req.valid('json');
      return c.json(
        applied(await amendNow(actorCtxOf(c), { kind: 'trip_dates', policies, ...dates }), langOf(c)),
      );
    },
  )
  .patch(
    '/company/policies/:id/trip-dates/update',
    valid('param', idParam),
    valid('json', tripDatesBodySchema),
    idempotent,
    async (c) => {
      const policies = [c.req.valid('param').id];
      return c.json(
        applied(
          await amendNow(actorCtxOf(c), { kind: 'trip_dates', policies, ...c.req.valid('json') }),
          langOf(c),
        ),
      );
    },
  )
  .post('/company/policies/cancel', valid('json', bulkCancelBodySchema), idempotent, async (c) => {
    const { policies, reason } = c.req.valid('json');
    return c.json(applied(await amendNow(actorCtxOf(c), { kind: 'cancel', policies, reason }), langOf(c)));
  })
  .post(
    '/company/policies/:id/cancel',
    valid('param', idParam),
    valid('json', cancelBodySchema),
    idempotent,
    async (c) => {
      const policies = [c.req.valid('param').id];
      const { reason } = c.req.valid('json');
      return c.json(applied(await amendNow(actorCtxOf(c), { kind: 'cancel', policies, reason }), langOf(c)));
    },
  )
  .post('/company/policies/group-leader/update', valid('json', groupLeaderBodySchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { policies, group_leader_id } = c.req.valid('json');
    // The same call links applicants not yet checked out (ids of enrollments): the enrollments area's.
    if (!(await namesIssuedPolicies(ctx, policies))) {
      const result = await assignEnrollmentGroupLeader(ctx, { group_leader_id, enrollment_ids: policies });
      return c.json({ data: result, message: formatMessage('order.group_leader.saved', langOf(c)) });
    }
    const result = await assignGroupLeader(ctx, {
      selection: { ids: policies },
      query: ALL,
      group_leader_id,
    });
    return c.json({ data: result, message: formatMessage('amendments.messages.updated', langOf(c)) });
  })
  .post(
    '/company/policies/:id/update/group-leader',
    valid('param', idParam),
    valid('json', oneGroupLeaderBodySchema),
    async (c) => {
      const result = await assignGroupLeader(actorCtxOf(c), {
        selection: { ids: [c.req.valid('param').id] },
        query: ALL,
        group_leader_id: c.req.valid('json').group_leader_id,
      });
      return c.json({ data: result, message: formatMessage('amendments.messages.updated', langOf(c)) });
    },
  )
  .put('/company/policies', valid('json', groupNameBodySchema), async (c) => {
    const { policies, group_name } = c.req.valid('json');
    const result = await updateGroupName(actorCtxOf(c), {
      selection: { ids: policies },
      query: ALL,
      group_name,
    });
    return c.json({ data: result, message: formatMessage('amendments.messages.updated', langOf(c)) });
  });
