import { Hono } from 'hono';
import { activityQuerySchema, contractListQuerySchema } from '../domain/contracts/schema';
import { CONTRACT_SAVED } from '../domain/contracts/service';
import {
  addAgreementContractSchema,
  agreementListQuerySchema,
  agreementStatusSchema,
  createAgreementSchema,
  defaultProductSchema,
  documentIndexSchema,
  updateAgreementSchema,
} from '../domain/service-agreements/schema';
import {
  addAgreementDocuments,
  downloadAgreementDocument,
  removeAgreementDocument,
} from '../domain/service-agreements/documents';
import {
  getServiceAgreement,
  listServiceAgreements,
  serviceAgreementActivities,
  serviceAgreementContracts,
} from '../domain/service-agreements/queries';
import {
  AGREEMENT_SAVED,
  addServiceAgreementContract,
  createServiceAgreement,
  setDefaultProduct,
  setServiceAgreementStatus,
  updateServiceAgreement,
} from '../domain/service-agreements/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';
import { accepts, formObject, readMultipart, refuseFieldsOtherThan } from './body';

/** The success message: approving (or saving an active agreement) creates or updates its contracts. */
const savedMessage = (status: string, lang: string) =>
  formatMessage(status === 'active' ? CONTRACT_SAVED : AGREEMENT_SAVED, lang);

/** Service agreements (spec 002 s.7 Service agreements). */
export const serviceAgreementsApi = new Hono<ApiEnv>()
  .use('/company/service-agreements', requireAuth)
  .use('/company/service-agreements/*', requireAuth)
  .get('/company/service-agreements', valid('query', agreementListQuerySchema), async (c) => {
    const service_agreements = await listServiceAgreements(actorCtxOf(c), c.req.valid('query'));
    return c.json({ data: { service_agreements } });
  })
  .post('/company/service-agreements/add', valid('json', createAgreementSchema), async (c) => {
    const service_agreement = await createServiceAgreement(actorCtxOf(c), c.req.valid('json'));
    return c.json(
      { data: { service_agreement }, message: savedMessage(service_agreement.status, langOf(c)) },
      201,
    );
  })
  .get('/company/service-agreements/:id', async (c) => {
    return c.json({
      data: { service_agreement: await getServiceAgreement(actorCtxOf(c), c.req.param('id')) },
    });
  })
  .post('/company/service-agreements/:id/update', valid('json', updateAgreementSchema), async (c) => {
    const service_agreement = await updateServiceAgreement(
      actorCtxOf(c),
      c.req.param('id'),
      c.req.valid('json'),
    );
    return c.json({
      data: { service_agreement },
      message: savedMessage(service_agreement.status, langOf(c)),
    });
  })
  .patch('/company/service-agreements/:id/status/update', valid('json', agreementStatusSchema), async (c) => {
    const service_agreement = await setServiceAgreementStatus(
      actorCtxOf(c),
      c.req.param('id'),
      c.req.valid('json').status,
    );
    return c.json({
      data: { service_agreement },
      message: savedMessage(service_agreement.status, langOf(c)),
    });
  })
  .post('/company/service-agreements/:id/default-product', valid('json', defaultProductSchema), async (c) => {
    const service_agreement = await setDefaultProduct(
      actorCtxOf(c),
      c.req.param('id'),
      c.req.valid('json').product_id,
    );
    return c.json({ data: { service_agreement }, message: formatMessage(AGREEMENT_SAVED, langOf(c)) });
  })
  .post(
    '/company/service-agreements/:id/contracts/add',
    valid('json', addAgreementContractSchema),
    async (c) => {
      const service_agreement = await addServiceAgreementContract(
        actorCtxOf(c),
        c.req.param('id'),
        c.req.valid('json'),
      );
      return c.json({ data: { service_agreement }, message: formatMessage(CONTRACT_SAVED, langOf(c)) }, 201);
    },
  )
  .get('/company/service-agreements/:id/contracts', valid('query', contractListQuerySchema), async (c) => {
    const contracts = await serviceAgreementContracts(actorCtxOf(c), c.req.param('id'), c.req.valid('query'));
    return c.json({ data: { contracts } });
  })
  .get('/company/service-agreements/:id/activities', valid('query', activityQuerySchema), async (c) => {
    const { page, items } = c.req.valid('query');
    const activities = await serviceAgreementActivities(actorCtxOf(c), c.req.param('id'), page, items);
    return c.json({ data: { activities } });
  })
  // Multipart: one or several files under `documents` (or `documents[]`).
  .post('/company/service-agreements/:id/documents/add', accepts('multipart'), async (c) => {
    const form = await readMultipart(c);
    refuseFieldsOtherThan(form, ['documents']);
    const body = formObject(form);
    const files = [body.documents, body['documents[]']].flat().filter((f) => f !== undefined);
    const service_agreement = await addAgreementDocuments(actorCtxOf(c), c.req.param('id'), files);
    return c.json({ data: { service_agreement }, message: formatMessage(AGREEMENT_SAVED, langOf(c)) }, 201);
  })
  .post(
    '/company/service-agreements/:id/documents/download',
    valid('json', documentIndexSchema),
    async (c) => {
      return downloadAgreementDocument(actorCtxOf(c), c.req.param('id'), c.req.valid('json').index);
    },
  )
  .post('/company/service-agreements/:id/documents/remove', valid('json', documentIndexSchema), async (c) => {
    const service_agreement = await removeAgreementDocument(
      actorCtxOf(c),
      c.req.param('id'),
      c.req.valid('json').index,
    );
    return c.json({ data: { service_agreement }, message: formatMessage(AGREEMENT_SAVED, langOf(c)) });
  });
