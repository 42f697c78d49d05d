import { Hono, type Context } from 'hono';
import { parseWithZod } from '@conform-to/zod';
import { z } from 'zod';
import {
  campusAddressSchemas,
  campusBillingSchema,
  campusContactsSchema,
  campusListQuerySchema,
  cloneCampusSchema,
  createCampusSchema,
  updateCampusSchema,
} from '../domain/campuses/schema';
import {
  CAMPUS_SAVED,
  activateCampus,
  archiveCampus,
  cloneCampus,
  createCampus,
  getCampusAddress,
  updateCampus,
  updateCampusAddress,
  updateCampusBilling,
  updateCampusContacts,
} from '../domain/campuses/edit';
import {
  addCampusNote,
  campusContract,
  campusContracts,
  campusLogs,
  campusNoteFile,
  campusNotes,
  campusesSummary,
  getCampus,
  listCampuses,
} from '../domain/campuses/service';
import { enrollmentTemplate } from '../domain/campuses/template';
import { activityQuerySchema, contractListQuerySchema } from '../domain/contracts/schema';
import { ValidationFailed } from '../domain/errors';
import { noteFileParamsSchema, noteSchema, notesQuerySchema } from '../domain/notes/schema';
import { listCampusUsers } from '../domain/users/service';
import { schoolUserListSchema } from '../domain/users/schema';
import { XLSX_CONTENT_TYPE } from '../platform/xlsx';
import { contentDisposition } from '../platform/storage';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';
import { accepts, readMultipart, refuseUnknownFields } from './body';

const saved = (lang: string) => formatMessage(CAMPUS_SAVED, lang);

/** A multipart note (fields and an optional `file`), parsed with the notes schema. */
async function readNote(c: Context<ApiEnv>) {
  const form = await readMultipart(c);
  refuseUnknownFields(noteSchema, form, ['file']);
  const submission = parseWithZod(form, { schema: noteSchema });
  if (submission.status !== 'success') {
    const errors = Object.entries(submission.error ?? {}).flatMap(([key, messages]) =>
      (messages ?? []).map((message) => ({ key, message })),
    );
    throw new ValidationFailed(errors);
  }
  return { note: submission.value, file: form.get('file') };
}

const addressKind = (c: Context<ApiEnv>) =>
  c.req.param('kind') === 'billing-address' ? 'billing' : 'mailing';

/** Campuses (spec 002 s.7 Campuses). */
export const campusesApi = new Hono<ApiEnv>()
  .use('/company/campuses/*', requireAuth)
  .get('/company/campuses/fetch', valid('query', campusListQuerySchema), async (c) => {
    const campuses = await listCampuses(actorCtxOf(c), c.req.valid('query'));
    return c.json({ data: { campuses } });
  })
  .get(
    '/company/campuses/summary',
    valid('query', z.object({ client_id: z.string().max(40).optional() })),
    async (c) => {
      const summary = await campusesSummary(actorCtxOf(c), c.req.valid('query').client_id);
      return c.json({ data: { summary } });
    },
  )
  .post('/company/campuses/add', valid('json', createCampusSchema), async (c) => {
    const campus = await createCampus(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { campus }, message: saved(langOf(c)) }, 201);
  })
  .get('/company/campuses/:id', async (c) => {
    return c.json({ data: { campus: await getCampus(actorCtxOf(c), c.req.param('id')) } });
  })
  .patch('/company/campuses/:id/update', valid('json', updateCampusSchema), async (c) => {
    const campus = await updateCampus(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { campus }, message: saved(langOf(c)) });
  })
  .patch('/company/campuses/:id/update-contact', valid('json', campusContactsSchema), async (c) => {
    const campus = await updateCampusContacts(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { campus }, message: saved(langOf(c)) });
  })
  .patch('/company/campuses/:id/update-billing', valid('json', campusBillingSchema), async (c) => {
    const campus = await updateCampusBilling(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { campus }, message: saved(langOf(c)) });
  })
  .patch('/company/campuses/:id/archive', async (c) => {
    const campus = await archiveCampus(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { campus }, message: saved(langOf(c)) });
  })
  .patch('/company/campuses/:id/activate', async (c) => {
    const campus = await activateCampus(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { campus }, message: saved(langOf(c)) });
  })
  .post('/company/campuses/:id/clone', valid('json', cloneCampusSchema), async (c) => {
    const campus = await cloneCampus(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { campus }, message: saved(langOf(c)) }, 201);
  })
  .get('/company/campuses/:id/users', valid('query', schoolUserListSchema), async (c) => {
    const users = await listCampusUsers(actorCtxOf(c), c.req.param('id'), c.req.valid('query'));
    return c.json({ data: { users } });
  })
  .get('/company/campuses/:id/contracts', valid('query', contractListQuerySchema), async (c) => {
    const contracts = await campusContracts(actorCtxOf(c), c.req.param('id'), c.req.valid('query'));
    return c.json({ data: { contracts } });
  })
  .get('/company/campuses/:id/contracts/:contractId', async (c) => {
    const contract = await campusContract(actorCtxOf(c), c.req.param('id'), c.req.param('contractId'));
    return c.json({ data: { contract } });
  })
  .get('/company/campuses/:id/logs', valid('query', activityQuerySchema), async (c) => {
    const { page, items } = c.req.valid('query');
    const logs = await campusLogs(actorCtxOf(c), c.req.param('id'), page, items);
    return c.json({ data: { logs } });
  })
  .get('/company/campuses/:id/enrollment-template', async (c) => {
    const ctx = actorCtxOf(c);
    // Checks access now, so a URL is only handed to someone who may download it.
    await getCampus(ctx, c.req.param('id'));
    const url = new URL(`/api/company/campuses/${c.req.param('id')}/enrollment-template/download`, c.req.url);
    return c.json({ data: { url: url.toString() } });
  })
  .get('/company/campuses/:id/enrollment-template/download', async (c) => {
    const { fileName, body } = await enrollmentTemplate(actorCtxOf(c), c.req.param('id'));
    return new Response(body, {
      headers: {
        'content-type': XLSX_CONTENT_TYPE,
        'content-disposition': contentDisposition(fileName),
        'cache-control': 'private, no-store',
      },
    });
  })
  .get('/company/campuses/:id/notes', valid('query', notesQuerySchema), async (c) => {
    const notes = await campusNotes(actorCtxOf(c), c.req.param('id'), c.req.valid('query'));
    return c.json({ data: { notes } });
  })
  .post('/company/campuses/:id/notes/add', accepts('multipart'), async (c) => {
    const ctx = actorCtxOf(c);
    const { note, file } = await readNote(c);
    const added = await addCampusNote(ctx, c.req.param('id'), note, file);
    return c.json({ data: { note: added }, message: formatMessage('notes.added', langOf(c)) }, 201);
  })
  .on(
    ['GET', 'POST'],
    '/company/campuses/:id/notes/:noteId/download',
    valid('param', noteFileParamsSchema),
    async (c) => {
      const { id, noteId } = c.req.valid('param');
      return campusNoteFile(actorCtxOf(c), id, noteId);
    },
  )
  .get('/company/campuses/:id/:kind{billing-address|mailing-address}/fetch', async (c) => {
    const kind = addressKind(c);
    const address = await getCampusAddress(actorCtxOf(c), c.req.param('id'), kind);
    return c.json({ data: { [`${kind}_address`]: address } });
  })
  .patch(
    '/company/campuses/:id/billing-address/update',
    valid('json', campusAddressSchemas.billing),
    async (c) => {
      const address = await updateCampusAddress(
        actorCtxOf(c),
        c.req.param('id'),
        'billing',
        c.req.valid('json').address,
      );
      return c.json({ data: { billing_address: address }, message: saved(langOf(c)) });
    },
  )
  .patch(
    '/company/campuses/:id/mailing-address/update',
    valid('json', campusAddressSchemas.mailing),
    async (c) => {
      const address = await updateCampusAddress(
        actorCtxOf(c),
        c.req.param('id'),
        'mailing',
        c.req.valid('json').address,
      );
      return c.json({ data: { mailing_address: address }, message: saved(langOf(c)) });
    },
  );
