import { Conflict } from '@server/domain/errors';
import { formatMessage } from '@server/platform/i18n';
import { langOf } from '~/lib/guards.server';

/**
 * A policy document's download for a resource route's page loader (which maps not found to the 404 page); a cancelled policy's
 * document (a refusal, not an absence) answers 409 with the reason in the reader's language.
 */
export async function policyDocumentResponse(
  request: Request,
  download: Promise<Response>,
): Promise<Response> {
  return download.catch((e) => {
    if (!(e instanceof Conflict)) throw e;
    throw new Response(formatMessage(e.message, langOf(request)), {
      status: 409,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  });
}

// The routes reach the policy documents services through this server-only module, so the browser build
// never parses them (the PDF library's ES build uses syntax the Remix compiler's esbuild cannot read).
export {
  documentChoices,
  documentsJobStatus,
  downloadDocumentsZip,
  policyIdsOf,
  startDocumentsZip,
} from '@server/domain/policy-documents/bulk';
export {
  DOCUMENT_PERMISSION,
  downloadDocumentOfPolicy,
  downloadPolicyDocument,
  listPolicyDocuments,
} from '@server/domain/policy-documents/documents';
export { sendPolicyWelcomeEmails } from '@server/domain/policy-documents/welcome';
export { WELCOME_PERMISSION } from '@server/domain/checkout/welcome';
