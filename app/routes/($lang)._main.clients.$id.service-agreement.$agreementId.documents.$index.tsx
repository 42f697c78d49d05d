import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadAgreementDocument } from '@server/domain/service-agreements/documents';
import { idsSchema, listIndex } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /clients/{id}/service-agreement/{service_agreement}/documents/{index}: one document (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_service_agreement',
    params: idsSchema('id', 'agreementId').extend({ index: listIndex }),
    load({ ctx, params }) {
      return downloadAgreementDocument(ctx, params.agreementId, params.index);
    },
  })(args);
