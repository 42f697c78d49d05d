import { Hono } from 'hono';
import {
  cancelMappingSchema,
  cancelReviewQuerySchema,
  deleteCancelRowsSchema,
  proceedCancelSchema,
} from '../domain/cancellations/schema';
import {
  cancelReviewPage,
  cancellationProgress,
  confirmCancelMapping,
  deleteCancelRows,
  getCancellation,
  uploadCancellation,
} from '../domain/cancellations/service';
import {
  cancellationOutcome,
  confirmCancellation,
  proceedCancellation,
} from '../domain/cancellations/proceed';
import { confirmEnrolment, enrolmentCheckSchema } from '../domain/policies/enrolment-check';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';
import { accepts, readMultipart, refuseFieldsOtherThan } from './body';

/**
 * Cancellation by spreadsheet over the API, as the pages do it (the catalogue has no call of its own for
 * it; docs/decisions/after-the-sale.md): upload a sheet, confirm its columns (starts the matching job), follow its
 * progress (also at `jobs/{id}`), read and trim the matched rows, proceed (quotes the cancellation),
 * confirm it once, and read the outcome. And the enrolment check of /insureds/confirm-enrolment.
 */
export const policyCancellationsApi = new Hono<ApiEnv>()
  .use('/company/cancellation-imports/*', requireAuth)
  .post('/company/cancellation-imports', requireAuth, accepts('multipart'), async (c) => {
    const form = await readMultipart(c);
    refuseFieldsOtherThan(form, ['file']);
    const view = await uploadCancellation(actorCtxOf(c), form.get('file'));
    return c.json({ data: { cancellation: view } }, 201);
  })
  .get('/company/cancellation-imports/:id', async (c) => {
    return c.json({ data: { cancellation: await getCancellation(actorCtxOf(c), c.req.param('id')) } });
  })
  .get('/company/cancellation-imports/:id/progress', async (c) => {
    return c.json({ data: { progress: await cancellationProgress(actorCtxOf(c), c.req.param('id')) } });
  })
  .post('/company/cancellation-imports/:id/mapping', valid('json', cancelMappingSchema), async (c) => {
    const view = await confirmCancelMapping(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { cancellation: view } }, 202);
  })
  .get('/company/cancellation-imports/:id/rows', valid('query', cancelReviewQuerySchema), async (c) => {
    const page = await cancelReviewPage(actorCtxOf(c), c.req.param('id'), c.req.valid('query'));
    // Row errors in English, as every message of the API.
    const items = page.rows.items.map((r) => ({
      ...r,
      errors: r.errors.map((e) => ({ field: e.field, message: formatMessage(e.message, langOf(c)) })),
    }));
    return c.json({ data: { rows: { ...page.rows, items }, counts: page.counts } });
  })
  .post('/company/cancellation-imports/:id/rows/delete', valid('json', deleteCancelRowsSchema), async (c) => {
    const r = await deleteCancelRows(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: r });
  })
  .post('/company/cancellation-imports/:id/proceed', valid('json', proceedCancelSchema), async (c) => {
    const ctx = actorCtxOf(c);
    await proceedCancellation(ctx, c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { outcome: await cancellationOutcome(ctx, c.req.param('id')) } });
  })
  .post('/company/cancellation-imports/:id/confirm', async (c) => {
    const ctx = actorCtxOf(c);
    await confirmCancellation(ctx, c.req.param('id'));
    return c.json({ data: { outcome: await cancellationOutcome(ctx, c.req.param('id')) } });
  })
  .get('/company/cancellation-imports/:id/outcome', async (c) => {
    return c.json({ data: { outcome: await cancellationOutcome(actorCtxOf(c), c.req.param('id')) } });
  })
  .post(
    '/company/policies/confirm-enrolment',
    requireAuth,
    valid('json', enrolmentCheckSchema),
    async (c) => {
      return c.json({ data: await confirmEnrolment(actorCtxOf(c), c.req.valid('json')) });
    },
  );
