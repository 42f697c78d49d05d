import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadAgreementDocument } from '@server/domain/service-agreements/documents';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /clients/{id}/service-agreement/{service_agreement}/documents/{index}: one document (a resource route). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_service_agreement');
  const index = Number(params.index);
  if (!Number.isInteger(index) || index < 0) throw new Response('Not Found', { status: 404 });
  return orNotFound(downloadAgreementDocument(ctx, params.agreementId ?? '', index));
}
