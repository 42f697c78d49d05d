import { Hono } from 'hono';
import type { EnrollmentError } from '../../drizzle/schema/ordering-enums';
import {
  addBatchSchema,
  addEnrollmentsSchema,
  createBatchSchema,
  deleteEnrollmentsSchema,
  enrollmentListQuerySchema,
  groupLeaderSchema,
  updateEnrollmentSchema,
  updatePlanSchema,
  validateBatchSchema,
  validateSingleSchema,
} from '../domain/enrollments/inputs';
import {
  addBatch,
  addBatchWithApplicants,
  addEnrollments,
  assignGroupLeader,
  confirmBatch,
  deleteBatch,
  deleteEnrollments,
  fieldErrors,
  updateEnrollment,
  updatePlan,
  validateApplicants,
} from '../domain/enrollments/service';
import {
  batchOverview,
  errorMessage,
  getBatch,
  getEnrollment,
  listEnrollments,
  type EnrollmentView,
} from '../domain/enrollments/queries';
import { cartBatches, cartOverview } from '../domain/enrollments/cart';
import { ValidationFailed } from '../domain/errors';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** Enrollment errors as the API answers them: the field as `key`, the message in the call's language. */
const apiErrors = (errors: readonly EnrollmentError[], lang: string) =>
  errors.map((e) => ({ key: e.field, message: formatMessage(errorMessage(e), lang) }));

const apiEnrollment = (lang: string) => (e: EnrollmentView) => ({ ...e, errors: apiErrors(e.errors, lang) });

/**
 * Policy batches and enrollments (spec 002 s.7 "Policy batches and enrollments"), the campuses'
 * policies validate and add calls, and the group-leader change of applicants not yet checked out.
 * Checkout (policy-batches/confirm-open, send-welcome-email) is served by the checkout router.
 */
export const enrollmentsApi = new Hono<ApiEnv>()
  .use('/company/policy-batches/*', requireAuth)
  .use('/company/enrollments', requireAuth)
  .use('/company/enrollments/*', requireAuth)
  .use('/company/campuses/:id/policies/*', requireAuth)
  .use('/company/campuses/:id/open-policy-batches', requireAuth)
  .use('/company/campuses/:id/overview-open-batches', requireAuth)
  .use('/company/policies/group-leader/update', requireAuth)

  // ---- the campus's policies calls: validate one or many applicants, or add a batch with them
  .post('/company/campuses/:id/policies/validate/single', valid('json', validateSingleSchema), async (c) => {
    const { contract_id, item } = c.req.valid('json');
    const [result] = await validateApplicants(actorCtxOf(c), c.req.param('id'), {
      contract_id,
      items: [item],
    });
    if (!result!.valid) throw new ValidationFailed(fieldErrors(result!.errors));
    return c.json({ data: { valid: true, fee: result!.fee } });
  })
  .post('/company/campuses/:id/policies/validate/batch', valid('json', validateBatchSchema), async (c) => {
    const results = await validateApplicants(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({
      data: {
        valid: results.every((r) => r.valid),
        items: results.map((r) => ({ ...r, errors: apiErrors(r.errors, langOf(c)) })),
      },
    });
  })
  .post('/company/campuses/:id/policies/add/batch', valid('json', addBatchSchema), async (c) => {
    const result = await addBatchWithApplicants(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json(
      {
        data: {
          ...result,
          items: result.items.map((i) => ({ ...i, errors: apiErrors(i.errors, langOf(c)) })),
        },
      },
      201,
    );
  })
  .get('/company/campuses/:id/open-policy-batches', async (c) => {
    const policy_batches = await cartBatches(actorCtxOf(c), { campusId: c.req.param('id') });
    return c.json({ data: { policy_batches } });
  })
  .get('/company/campuses/:id/overview-open-batches', async (c) => {
    return c.json({ data: await cartOverview(actorCtxOf(c), { campusId: c.req.param('id') }) });
  })

  // ---- policy batches
  .post('/company/policy-batches/add', valid('json', createBatchSchema), async (c) => {
    const policy_batch = await addBatch(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { policy_batch } }, 201);
  })
  .get('/company/policy-batches/overview-open-batches', async (c) => {
    return c.json({ data: await cartOverview(actorCtxOf(c)) });
  })
  .get('/company/policy-batches/:id', async (c) => {
    return c.json({ data: { policy_batch: await getBatch(actorCtxOf(c), c.req.param('id')) } });
  })
  .get('/company/policy-batches/:id/enrollments/overview', async (c) => {
    return c.json({ data: { overview: await batchOverview(actorCtxOf(c), c.req.param('id')) } });
  })
  .post('/company/policy-batches/:id/enrollments/add', valid('json', addEnrollmentsSchema), async (c) => {
    const result = await addEnrollments(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json(
      {
        data: {
          ...result,
          items: result.items.map((i) => ({ ...i, errors: apiErrors(i.errors, langOf(c)) })),
        },
      },
      201,
    );
  })
  .post('/company/policy-batches/:id/enrollments/confirm', async (c) => {
    return c.json({ data: { policy_batch: await confirmBatch(actorCtxOf(c), c.req.param('id')) } });
  })
  .delete('/company/policy-batches/:id', async (c) => {
    await deleteBatch(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { deleted: true } });
  })
  .delete('/company/policy-batches/:id/delete', async (c) => {
    await deleteBatch(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { deleted: true } });
  })

  // ---- enrollments
  .get('/company/enrollments', valid('query', enrollmentListQuerySchema), async (c) => {
    const page = await listEnrollments(actorCtxOf(c), c.req.valid('query'));
    return c.json({
      data: { enrollments: { items: page.items.map(apiEnrollment(langOf(c))), meta: page.meta } },
    });
  })
  .put('/company/enrollments/update-plan', valid('json', updatePlanSchema), async (c) => {
    const result = await updatePlan(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: result });
  })
  .put('/company/enrollments/delete', valid('json', deleteEnrollmentsSchema), async (c) => {
    const result = await deleteEnrollments(actorCtxOf(c), c.req.valid('json').enrollment_ids);
    return c.json({ data: result });
  })
  .get('/company/enrollments/:id', async (c) => {
    return c.json({
      data: { enrollment: apiEnrollment(langOf(c))(await getEnrollment(actorCtxOf(c), c.req.param('id'))) },
    });
  })
  .patch('/company/enrollments/:id/update', valid('json', updateEnrollmentSchema), async (c) => {
    const { validate_first, ...fields } = c.req.valid('json');
    const enrollment = await updateEnrollment(actorCtxOf(c), c.req.param('id'), fields, {
      validateFirst: validate_first,
    });
    return c.json({ data: { enrollment: apiEnrollment(langOf(c))(enrollment) } });
  })

  // ---- group leaders of applicants not yet checked out (issued policies: the policies router)
  .post('/company/policies/group-leader/update', valid('json', groupLeaderSchema), async (c) => {
    const { group_leader_id, policies } = c.req.valid('json');
    const result = await assignGroupLeader(actorCtxOf(c), { group_leader_id, enrollment_ids: policies });
    return c.json({ data: result, message: formatMessage('order.group_leader.saved', langOf(c)) });
  });
