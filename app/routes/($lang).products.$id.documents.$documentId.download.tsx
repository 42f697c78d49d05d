import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { NotFound } from '@server/domain/errors';
import { downloadDocument } from '@server/domain/products/documents';
import { requirePermissions } from '~/lib/guards.server';

/** A product document, streamed from R2 as an attachment (the documents tab links here). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_product');
  const documentId = Number(params.documentId);
  if (!Number.isSafeInteger(documentId) || documentId < 1) throw new Response('Not Found', { status: 404 });
  try {
    return await downloadDocument(ctx, params.id!, documentId);
  } catch (e) {
    if (e instanceof NotFound) throw new Response('Not Found', { status: 404 });
    throw e;
  }
}
