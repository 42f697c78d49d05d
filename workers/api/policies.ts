import { Hono } from 'hono';
import { z } from 'zod';
import { noteFileParamsSchema, noteSchema, notesQuerySchema } from '../domain/notes/schema';
import { addPolicyNotes, policyNoteFile, policyNotes, updatePolicyDetails } from '../domain/policies/details';
import { insuredsListQuerySchema, policyListQuerySchema } from '../domain/policies/list-query';
import { listInsureds } from '../domain/policies/insureds-list';
import {
  getPolicy,
  groupNames,
  immediateFamily,
  linkedPolicies,
  listPolicies,
  personPolicies,
  policiesByIds,
  policiesInBatch,
  policyGroups,
  policySummary,
} from '../domain/policies/service';
import { policyDetailsSchema } from '../domain/policies/schema';
import { POLICY_NOTE_LIMIT } from '../domain/policies/tabs';
import { formatMessage } from '../platform/i18n';
import { msg } from '../domain/validation';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const said = (lang: string, key: string, params?: Record<string, string | number>) =>
  formatMessage(msg(`insureds.api.${key}`, params), lang);

const policyIds = z.array(z.string().trim().min(1).max(64)).min(1).max(POLICY_NOTE_LIMIT);

/**
 * Insureds and policies, the read side and personal details (spec 002 s.7 "Insureds and policies"):
 * the list with its filters (also as `insureds/list`, by batch), the summary by status, one policy with the same person's other policies,
 * its notes (and a note's file), family members and linked policies, the policies of a batch, group names and groups, a list
 * by ids, notes for many insureds at once, and editing an insured's personal details. Amendments,
 * documents and emails are served by their own routers.
 */
export const policiesApi = new Hono<ApiEnv>()
  .use('/company/policies', requireAuth)
  .use('/company/policies/*', requireAuth)
  .use('/company/insureds/*', requireAuth)
  .get('/company/insureds/summary', async (c) =>
    c.json({ data: { summary: await policySummary(actorCtxOf(c)) } }),
  )
  .get('/company/insureds/list', valid('query', insuredsListQuerySchema), async (c) =>
    c.json({ data: { insureds: await listInsureds(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/policies', valid('query', policyListQuerySchema), async (c) =>
    c.json({ data: { policies: await listPolicies(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/policies/group-names', async (c) =>
    c.json({ data: { group_names: await groupNames(actorCtxOf(c)) } }),
  )
  .get('/company/policies/groups', async (c) =>
    c.json({ data: { groups: await policyGroups(actorCtxOf(c)) } }),
  )
  .get('/company/policies/in-batch/:id', async (c) =>
    c.json({ data: { policies: await policiesInBatch(actorCtxOf(c), c.req.param('id')) } }),
  )
  .post('/company/policies/list', valid('json', z.object({ policy_ids: policyIds })), async (c) =>
    c.json({ data: { policies: await policiesByIds(actorCtxOf(c), c.req.valid('json').policy_ids) } }),
  )
  .post(
    '/company/policies/notes/add',
    valid('json', noteSchema.and(z.object({ policies: policyIds }))),
    async (c) => {
      const { policies, ...note } = c.req.valid('json');
      const { added } = await addPolicyNotes(
        actorCtxOf(c),
        { all_matching: false, ids: policies },
        policyListQuerySchema.parse({}),
        note,
      );
      return c.json({ data: { added }, message: said(langOf(c), 'notes_added', { count: added }) }, 201);
    },
  )
  .get('/company/policies/:id', async (c) => {
    const ctx = actorCtxOf(c);
    const policy = await getPolicy(ctx, c.req.param('id'));
    const others = await personPolicies(ctx, policy.id);
    return c.json({
      data: {
        policy,
        contract: { ...policy.contract, product: policy.product },
        insured: {
          first_name: policy.first_name,
          last_name: policy.last_name,
          full_name: policy.full_name,
          date_of_birth: policy.date_of_birth,
          email: policy.email,
        },
        ...others,
      },
    });
  })
  .get('/company/policies/:id/notes', valid('query', notesQuerySchema), async (c) =>
    c.json({ data: { notes: await policyNotes(actorCtxOf(c), c.req.param('id'), c.req.valid('query')) } }),
  )
  .on(
    ['GET', 'POST'],
    '/company/policies/:id/notes/:noteId/download',
    valid('param', noteFileParamsSchema),
    async (c) => {
      const { id, noteId } = c.req.valid('param');
      return policyNoteFile(actorCtxOf(c), id, noteId);
    },
  )
  .get('/company/policies/:id/immediate-family-members', async (c) =>
    c.json({
      data: { immediate_family_members: await immediateFamily(actorCtxOf(c), c.req.param('id')) },
    }),
  )
  .get('/company/policies/:id/linked-policies-summary', async (c) =>
    c.json({ data: await linkedPolicies(actorCtxOf(c), c.req.param('id')) }),
  )
  .on(['PATCH', 'POST'], '/company/policies/:id/update', valid('json', policyDetailsSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { changed } = await updatePolicyDetails(ctx, c.req.param('id'), c.req.valid('json'));
    const policy = await getPolicy(ctx, c.req.param('id'));
    return c.json({ data: { policy, changed }, message: said(langOf(c), changed ? 'updated' : 'unchanged') });
  });
