import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z, type ZodTypeAny } from 'zod';
import { parseWithZod } from '@conform-to/zod';
import {
  CLIENT_FILE_FIELDS,
  clientBulkSchema,
  clientCreateSchema,
  clientListQuerySchema,
  clientStatusSchema,
  clientUpdateSchema,
  schoolClientSchema,
  type ClientFileKind,
} from '../domain/clients/schema';
import { clientFileResponse, setClientFile } from '../domain/clients/files';
import { CLIENT_SAVE_FAILED } from '../domain/clients/saving';
import { addClientNote, clientActivities, clientNoteFile, clientNotes } from '../domain/clients/notes';
import { getOwnClient, updateOwnClient } from '../domain/clients/profile';
import {
  createClient,
  getClient,
  getClientAddress,
  updateClient,
  updateClientAddress,
} from '../domain/clients/service';
import { clientMetadata, clientSummary, listClients } from '../domain/clients/queries';
import { downloadClientDocument, listClientDocuments } from '../domain/clients/documents';
import { clientMfaActivities } from '../domain/clients/mfa-activities';
import {
  clientDocumentDownloadSchema,
  clientDocumentsQuerySchema,
  mfaActivityQuerySchema,
} from '../domain/clients/records-schema';
import { listClientAgreements, listClientCampuses } from '../domain/clients/tab-lists';
import { listClientUsers } from '../domain/users/service';
import { schoolUserListSchema } from '../domain/users/schema';
import { applyClientAction, bulkClientAction, setClientStatus } from '../domain/clients/status';
import { addressSchemas } from '../domain/contacts/schema';
import { noteFileParamsSchema, noteSchema, notesQuerySchema } from '../domain/notes/schema';
import { ValidationFailed, type FieldError } from '../domain/errors';
import { listQuerySchema, pageParam } from '../domain/lists';
import { formatMessage, translate } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { zodToFieldErrors } from './errors';
import { recordSchema } from './openapi';
import { valid } from './validate';
import {
  accepts,
  readJsonOrMultipart,
  readMultipart,
  refuseFieldsOtherThan,
  refuseUnknownFields,
} from './body';

const SAVED = 'clients.saved';

/**
 * An operation taking JSON or multipart: refuses any other body (body.ts) and records the schema for the
 * OpenAPI document; the handler reads the body with readBody.
 */
function documented(schema: ZodTypeAny): MiddlewareHandler<ApiEnv> {
  const middleware = accepts('json', 'multipart');
  recordSchema(middleware, 'json', schema);
  return middleware;
}

/** Conform names list items `a[0].b`; the API names them like zod paths, `a.0.b`. */
const fieldKey = (name: string) => name.replace(/\[(\d+)\]/g, '.$1') || '_';

/**
 * A body sent as JSON or as multipart/form-data (clients/add and notes/add take files), read by body.ts.
 * Multipart fields use the form names of the pages (`contacts.owner.email`, `contacts.secondary[0].email`).
 * A failed parse is a 422 whose message is `failMessage` (for clients: 'Unable to save the client!').
 */
async function readBody<S extends ZodTypeAny>(
  c: Context<ApiEnv>,
  schema: S,
  failMessage?: string,
  fileFields: readonly string[] = [],
): Promise<{ value: z.output<S>; files: Record<string, File | null> }> {
  const body = await readJsonOrMultipart(c);
  try {
    refuseUnknownFields(schema, body.kind === 'multipart' ? body.form : body.value, fileFields);
  } catch (e) {
    if (e instanceof ValidationFailed && failMessage) throw new ValidationFailed(e.errors, failMessage);
    throw e;
  }
  if (body.kind === 'multipart') {
    const submission = parseWithZod(body.form, { schema });
    if (submission.status !== 'success') {
      const errors: FieldError[] = Object.entries(submission.error ?? {}).flatMap(([name, messages]) =>
        (messages ?? []).map((message) => ({ key: fieldKey(name), message })),
      );
      throw new ValidationFailed(errors, failMessage ?? errors[0]?.message);
    }
    const files: Record<string, File | null> = {};
    for (const [name, value] of body.form.entries()) if (value instanceof File) files[name] = value;
    return { value: submission.value as z.output<S>, files };
  }
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    const errors = zodToFieldErrors(parsed.error);
    throw new ValidationFailed(errors, failMessage ?? errors[0]?.message);
  }
  return { value: parsed.data, files: {} };
}

const idParam = z.object({ id: z.string().min(1).max(40) });
const pageQuery = z.object({ page: pageParam });
/** A list answer `{ data: { <name>: { items, meta } } }`, its key kept in the type (and so in OpenAPI). */
const list = <N extends string, T>(name: N, page: T) => ({ data: { [name]: page } as Record<N, T> });

/**
 * Clients (spec 002 s.7 Clients, and the client addresses of "Billing and school-area summaries").
 * Static paths come before `clients/:id` so `summary` and `metadata` are not taken for ids.
 */
export const clientsApi = new Hono<ApiEnv>()
  .use('/company/clients/*', requireAuth)
  .use('/company/clients', requireAuth)
  .use('/school/client/*', requireAuth)
  .post('/company/clients/add', documented(clientCreateSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { value, files } = await readBody(c, clientCreateSchema, CLIENT_SAVE_FAILED, CLIENT_FILE_FIELDS);
    const client = await createClient(ctx, value, { logo: files.logo, return_policy: files.return_policy });
    return c.json({ data: { client }, message: formatMessage(SAVED, langOf(c)) }, 201);
  })
  .get('/company/clients', valid('query', clientListQuerySchema), async (c) =>
    c.json(list('clients', await listClients(actorCtxOf(c), c.req.valid('query')))),
  )
  .get('/company/clients/list', valid('query', clientListQuerySchema), async (c) =>
    c.json(list('clients', await listClients(actorCtxOf(c), c.req.valid('query')))),
  )
  .get('/company/clients/summary', async (c) =>
    c.json({ data: { summary: await clientSummary(actorCtxOf(c)) } }),
  )
  .get('/company/clients/metadata', async (c) =>
    c.json({ data: { metadata: await clientMetadata(actorCtxOf(c)) } }),
  )
  .post('/company/clients/bulk-action', valid('json', clientBulkSchema), async (c) => {
    const result = await bulkClientAction(actorCtxOf(c), c.req.valid('json'));
    return c.json({
      data: {
        result: {
          ...result,
          skipped: result.skipped.map((s) => ({ ...s, reason: formatMessage(s.reason, langOf(c)) })),
        },
      },
      message: translate(langOf(c), 'clients.bulk.done', { count: result.done }),
    });
  })
  .get('/company/clients/:id', valid('param', idParam), async (c) =>
    c.json({ data: { client: await getClient(actorCtxOf(c), c.req.valid('param').id) } }),
  )
  .patch(
    '/company/clients/:id/status',
    valid('param', idParam),
    valid('json', clientStatusSchema),
    async (c) => {
      const result = await setClientStatus(
        actorCtxOf(c),
        c.req.valid('param').id,
        c.req.valid('json').status,
      );
      return c.json({ data: { client: result }, message: formatMessage(SAVED, langOf(c)) });
    },
  )
  .patch(
    '/company/clients/:id/update',
    valid('param', idParam),
    documented(clientUpdateSchema),
    async (c) => {
      const ctx = actorCtxOf(c);
      const id = c.req.valid('param').id;
      const { value, files } = await readBody(c, clientUpdateSchema, CLIENT_SAVE_FAILED, CLIENT_FILE_FIELDS);
      let client = await updateClient(ctx, id, value);
      for (const kind of CLIENT_FILE_FIELDS) {
        const file = files[kind];
        if (file && file.size > 0) {
          await setClientFile(ctx, id, kind, file);
          client = await getClient(ctx, id);
        }
      }
      return c.json({ data: { client }, message: formatMessage(SAVED, langOf(c)) });
    },
  )
  .delete('/company/clients/:id', valid('param', idParam), async (c) => {
    await applyClientAction(actorCtxOf(c), c.req.valid('param').id, 'delete');
    return c.json({ data: null, message: formatMessage('clients.actions.done.delete', langOf(c)) });
  })
  .get('/company/clients/:id/campuses', valid('param', idParam), valid('query', listQuerySchema), async (c) =>
    c.json(
      list(
        'campuses',
        await listClientCampuses(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
      ),
    ),
  )
  .get(
    '/company/clients/:id/school-users',
    valid('param', idParam),
    valid('query', schoolUserListSchema),
    async (c) =>
      c.json({
        data: {
          users: await listClientUsers(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        },
      }),
  )
  .get(
    '/company/clients/:id/service-agreements',
    valid('param', idParam),
    valid('query', listQuerySchema),
    async (c) =>
      c.json(
        list(
          'service_agreements',
          await listClientAgreements(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        ),
      ),
  )
  .get('/company/clients/:id/activities', valid('param', idParam), valid('query', pageQuery), async (c) =>
    c.json(
      list(
        'activities',
        await clientActivities(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query').page),
      ),
    ),
  )
  .get(
    '/company/clients/:id/mfa_activities',
    valid('param', idParam),
    valid('query', mfaActivityQuerySchema),
    async (c) =>
      c.json(
        list(
          'mfa_activities',
          await clientMfaActivities(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        ),
      ),
  )
  .get(
    '/company/clients/:id/documents',
    valid('param', idParam),
    valid('query', clientDocumentsQuerySchema),
    async (c) =>
      c.json(
        list(
          'documents',
          await listClientDocuments(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        ),
      ),
  )
  .post(
    '/company/clients/:id/documents/download',
    valid('param', idParam),
    valid('json', clientDocumentDownloadSchema),
    async (c) =>
      downloadClientDocument(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json').document_id),
  )
  .get('/company/clients/:id/notes', valid('param', idParam), valid('query', notesQuerySchema), async (c) =>
    c.json(list('notes', await clientNotes(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')))),
  )
  .post('/company/clients/:id/notes/add', valid('param', idParam), documented(noteSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { value, files } = await readBody(c, noteSchema, undefined, ['file']);
    const note = await addClientNote(ctx, c.req.valid('param').id, value, files.file);
    return c.json({ data: { note }, message: formatMessage('notes.added', langOf(c)) }, 201);
  })
  .on(
    ['GET', 'POST'],
    '/company/clients/:id/notes/:noteId/download',
    valid('param', noteFileParamsSchema),
    async (c) => {
      const { id, noteId } = c.req.valid('param');
      return clientNoteFile(actorCtxOf(c), id, noteId);
    },
  )
  .get('/company/clients/:id/logo', valid('param', idParam), async (c) =>
    clientFileResponse(actorCtxOf(c), c.req.valid('param').id, 'logo'),
  )
  .get('/company/clients/:id/return-policy', valid('param', idParam), async (c) =>
    clientFileResponse(actorCtxOf(c), c.req.valid('param').id, 'return_policy'),
  )
  .post('/company/clients/:id/logo', valid('param', idParam), accepts('multipart'), async (c) =>
    uploadFile(c, 'logo'),
  )
  .post('/company/clients/:id/return-policy', valid('param', idParam), accepts('multipart'), async (c) =>
    uploadFile(c, 'return_policy'),
  )
  .get('/company/clients/:id/billing-address/fetch', valid('param', idParam), async (c) =>
    c.json({
      data: { billing_address: await getClientAddress(actorCtxOf(c), c.req.valid('param').id, 'billing') },
    }),
  )
  .patch(
    '/company/clients/:id/billing-address/update',
    valid('param', idParam),
    documented(addressSchemas.billing),
    async (c) => saveAddress(c, 'billing'),
  )
  .get('/company/clients/:id/mailing-address/fetch', valid('param', idParam), async (c) =>
    c.json({
      data: { mailing_address: await getClientAddress(actorCtxOf(c), c.req.valid('param').id, 'mailing') },
    }),
  )
  .patch(
    '/company/clients/:id/mailing-address/update',
    valid('param', idParam),
    documented(addressSchemas.mailing),
    async (c) => saveAddress(c, 'mailing'),
  )
  // The school area: the signed-in school user's own client.
  .get('/school/client/fetch', async (c) => c.json({ data: { client: await getOwnClient(actorCtxOf(c)) } }))
  .post('/school/client/update', documented(schoolClientSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { value } = await readBody(c, schoolClientSchema, CLIENT_SAVE_FAILED);
    const client = await updateOwnClient(ctx, value);
    return c.json({ data: { client }, message: formatMessage(SAVED, langOf(c)) });
  });

async function uploadFile(c: Context<ApiEnv>, kind: ClientFileKind) {
  const ctx = actorCtxOf(c);
  const id = c.req.param('id')!;
  const form = await readMultipart(c);
  refuseFieldsOtherThan(form, [kind, 'file']);
  const file = await setClientFile(ctx, id, kind, form.get(kind) ?? form.get('file') ?? null);
  return c.json({ data: { [kind]: file.name }, message: formatMessage(SAVED, langOf(c)) });
}

async function saveAddress(c: Context<ApiEnv>, kind: 'billing' | 'mailing') {
  const ctx = actorCtxOf(c);
  const id = c.req.param('id')!;
  const { value } = await readBody(c, addressSchemas[kind], CLIENT_SAVE_FAILED);
  const address = await updateClientAddress(ctx, id, kind, value);
  return c.json({ data: { [`${kind}_address`]: address }, message: formatMessage(SAVED, langOf(c)) });
}
