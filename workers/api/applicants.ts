import { Hono } from 'hono';
import { partnerApplicantSchema, partnerApplicantsQuerySchema } from '../domain/applicants/schema';
import { listPartnerApplicants, receivePartnerApplicant } from '../domain/applicants/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/**
 * Partner applicants (catalogue: `GET insured-applicants`; `POST insured-applicants` is ours, the call the
 * health-insurance partner sends each applicant with, docs/decisions/api-and-partners.md).
 */
export const applicantsApi = new Hono<ApiEnv>()
  .use('/company/insured-applicants', requireAuth)
  .get('/company/insured-applicants', valid('query', partnerApplicantsQuerySchema), async (c) =>
    c.json({
      data: { insured_applicants: await listPartnerApplicants(actorCtxOf(c), c.req.valid('query')) },
    }),
  )
  .post('/company/insured-applicants', valid('json', partnerApplicantSchema), async (c) => {
    const { applicant, created } = await receivePartnerApplicant(actorCtxOf(c), c.req.valid('json'));
    const message = formatMessage(
      created ? 'partner_applicants.received' : 'partner_applicants.updated',
      langOf(c),
    );
    return c.json({ data: { insured_applicant: applicant }, message }, created ? 201 : 200);
  });
