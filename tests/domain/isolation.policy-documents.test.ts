/**
 * Tenant isolation of policy documents and welcome emails: every call of the area that names a policy
 * answers "not found" (never "forbidden", never the data) to a school user of another company (whose role
 * holds every policy right), a campus employee of the other campus, an account manager of another
 * company and an administrator of another company. The school's own user succeeds with the same ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound } from '../../workers/domain/errors';
import {
  checkCertificates,
  downloadDocumentOfPolicy,
  downloadPolicyDocument,
  listPolicyDocuments,
} from '../../workers/domain/policy-documents/documents';
import {
  documentChoices,
  downloadPoliciesDirect,
  startDocumentsZip,
} from '../../workers/domain/policy-documents/bulk';
import { sendPolicyWelcomeEmails } from '../../workers/domain/policy-documents/welcome';
import type { Env } from '../../workers/env';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import {
  ACCOUNT_MANAGER_ELSEWHERE,
  seedDocumentsWorld,
  STRANGER,
  type DocumentsWorld,
} from '../support/policy-documents';

let w: DocumentsWorld;
const quietQueue = { send: async () => {}, sendBatch: async () => {} } as never;
const as = (email: string) => actorCtx(email, { env: { ...testEnv(), JOBS: quietQueue } as Env });

const STRANGERS: Record<string, string> = {
  'a school user of another company': STRANGER.schoolUser,
  'a campus employee of the other campus': DEMO_ACCOUNTS.campusEmployee,
  'an account manager of another company': ACCOUNT_MANAGER_ELSEWHERE,
  'an administrator of another company': STRANGER.companyUser,
};

beforeAll(async () => {
  w = await seedDocumentsWorld();
}, SETUP_TIMEOUT_MS);

/** Every call naming a policy; the target is the school's South campus policy. */
const CALLS: { name: string; run: (ctx: ActorCtx) => Promise<unknown> }[] = [
  { name: 'listPolicyDocuments', run: (c) => listPolicyDocuments(c, w.southPolicy.public_id) },
  {
    name: 'downloadPolicyDocument (card)',
    run: (c) => downloadPolicyDocument(c, w.southPolicy.public_id, 'insurance_card'),
  },
  {
    name: 'downloadPolicyDocument (certificate)',
    run: (c) => downloadPolicyDocument(c, w.southPolicy.public_id, 'certificate'),
  },
  {
    name: 'downloadDocumentOfPolicy (product document)',
    run: (c) => downloadDocumentOfPolicy(c, w.southPolicy.public_id, w.productDocumentId),
  },
  {
    name: 'downloadPoliciesDirect',
    run: (c) => downloadPoliciesDirect(c, { policies: [w.southPolicy.public_id] }),
  },
  { name: 'startDocumentsZip', run: (c) => startDocumentsZip(c, [w.southPolicy.id], ['insurance_card']) },
  { name: 'sendPolicyWelcomeEmails', run: (c) => sendPolicyWelcomeEmails(c, [w.southPolicy.id]) },
];

describe.each(Object.keys(STRANGERS))('%s', (who) => {
  it.each(CALLS.map((c) => [c.name, c] as const))('gets "not found" from %s', async (_name, call) => {
    const error = await call.run(await as(STRANGERS[who])).then(
      () => null,
      (e) => e,
    );
    expect(error).toBeInstanceOf(NotFound);
  });

  it('sees nothing of the policy in the certificates check and the document choices', async () => {
    const ctx = await as(STRANGERS[who]);
    expect(await checkCertificates(ctx, [w.southPolicy.public_id])).toEqual([]);
    expect((await documentChoices(ctx, [w.southPolicy.id])).count).toBe(0);
  });
});

describe('the school’s own user, as a control', () => {
  it.each(CALLS.map((c) => [c.name, c] as const))('succeeds with %s', async (_name, call) => {
    expect(await call.run(await as(DEMO_ACCOUNTS.schoolAdmin))).toBeTruthy();
  });
});
