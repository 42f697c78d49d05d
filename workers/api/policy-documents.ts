import { Hono } from 'hono';
import { z } from 'zod';
import {
  documentsJobStatus,
  downloadDocumentsZip,
  downloadPoliciesDirect,
  policyIdsOf,
  startDocumentsZipByPublicIds,
} from '../domain/policy-documents/bulk';
import {
  checkCertificates,
  downloadDocumentOfPolicy,
  downloadPolicyDocument,
  listPolicyDocuments,
} from '../domain/policy-documents/documents';
import {
  certificatesCheckSchema,
  directDownloadSchema,
  documentDownloadSchema,
  downloadAllSchema,
  welcomeEmailSchema,
} from '../domain/policy-documents/schema';
import { sendPolicyWelcomeEmails } from '../domain/policy-documents/welcome';
import { NotFound } from '../domain/errors';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(64) });
const jobParam = z.object({ jobId: z.string().min(1).max(64) });

/**
 * Policy documents and welcome emails (spec 002 s.7 "Insureds and policies": policies/{id}/documents/,
 * /insurance-card/download, /documents/download, policies/download, policies/download/all,
 * policies/policy-certificates-check, policies/send-welcome-email, policies/{id}/send-welcome-email).
 * `policies/download/all` starts a job and answers it; its progress is GET
 * policies/download/all/{jobId} and the ZIP GET policies/download/all/{jobId}/file.
 */
export const policyDocumentsApi = new Hono<ApiEnv>()
  .use('/company/policies/*', requireAuth)
  .get('/company/policies/:id/documents', valid('param', idParam), async (c) =>
    c.json({ data: await listPolicyDocuments(actorCtxOf(c), c.req.valid('param').id) }),
  )
  .get('/company/policies/:id/documents/', valid('param', idParam), async (c) =>
    c.json({ data: await listPolicyDocuments(actorCtxOf(c), c.req.valid('param').id) }),
  )
  .get('/company/policies/:id/insurance-card/download', valid('param', idParam), async (c) =>
    downloadPolicyDocument(actorCtxOf(c), c.req.valid('param').id, 'insurance_card'),
  )
  .post(
    '/company/policies/:id/documents/download',
    valid('param', idParam),
    valid('json', documentDownloadSchema),
    async (c) =>
      downloadDocumentOfPolicy(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json').document_id),
  )
  .post('/company/policies/download', valid('json', directDownloadSchema), async (c) =>
    downloadPoliciesDirect(actorCtxOf(c), c.req.valid('json')),
  )
  .post('/company/policies/download/all', valid('json', downloadAllSchema), async (c) => {
    const job = await startDocumentsZipByPublicIds(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { job } }, 202);
  })
  .get('/company/policies/download/all/:jobId', valid('param', jobParam), async (c) =>
    c.json({ data: { job: await documentsJobStatus(actorCtxOf(c), c.req.valid('param').jobId) } }),
  )
  .get('/company/policies/download/all/:jobId/file', valid('param', jobParam), async (c) =>
    downloadDocumentsZip(actorCtxOf(c), c.req.valid('param').jobId),
  )
  .post('/company/policies/policy-certificates-check', valid('json', certificatesCheckSchema), async (c) =>
    c.json({
      data: { policies: await checkCertificates(actorCtxOf(c), c.req.valid('json').policies) },
    }),
  )
  .post('/company/policies/send-welcome-email', valid('json', welcomeEmailSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const ids = await policyIdsOf(ctx, { all_matching: false, ids: c.req.valid('json').policies }, {});
    if (!ids.length) throw new NotFound();
    return c.json({ data: await sendPolicyWelcomeEmails(ctx, ids) });
  })
  .post('/company/policies/:id/send-welcome-email', valid('param', idParam), async (c) => {
    const ctx = actorCtxOf(c);
    const ids = await policyIdsOf(ctx, { all_matching: false, ids: [c.req.valid('param').id] }, {});
    if (!ids.length) throw new NotFound();
    return c.json({ data: await sendPolicyWelcomeEmails(ctx, ids) });
  });
