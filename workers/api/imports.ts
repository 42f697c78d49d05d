import { Hono } from 'hono';
import { ValidationFailed } from '../domain/errors';
import { mappingSchema } from '../domain/imports/schema';
import { confirmMapping, getImport, importProgress, uploadImport } from '../domain/imports/service';
import { msg } from '../domain/validation';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';
import { accepts, readMultipart, refuseFieldsOtherThan } from './body';

/**
 * Spreadsheet imports (spec 002 s.7 Campuses: `campuses/{id}/policies/preview/batch`): upload a sheet
 * and get its headers, a sample and the suggested column mapping; confirm the mapping, which starts the
 * staging job; follow its progress (also at `jobs/{id}`). The staged applicants are then an ordinary
 * draft policy batch: `policy-batches/{id}` and `enrollments?policy_batch=` read and change them.
 */
export const importsApi = new Hono<ApiEnv>()
  .use('/company/imports/*', requireAuth)
  .post('/company/campuses/:id/policies/preview/batch', requireAuth, accepts('multipart'), async (c) => {
    const form = await readMultipart(c);
    refuseFieldsOtherThan(form, ['file', 'contract_id']);
    const contract = String(form.get('contract_id') ?? '').trim();
    if (!contract) throw ValidationFailed.field('contract_id', msg('validation.required'));
    const view = await uploadImport(
      actorCtxOf(c),
      { campus_id: c.req.param('id'), contract_id: contract },
      form.get('file'),
    );
    return c.json({ data: { import: view } }, 201);
  })
  .get('/company/imports/:id', async (c) => {
    return c.json({ data: { import: await getImport(actorCtxOf(c), c.req.param('id')) } });
  })
  .get('/company/imports/:id/progress', async (c) => {
    return c.json({ data: { progress: await importProgress(actorCtxOf(c), c.req.param('id')) } });
  })
  .post('/company/imports/:id/mapping', valid('json', mappingSchema), async (c) => {
    const view = await confirmMapping(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { import: view } }, 202);
  });
