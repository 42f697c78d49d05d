/** /clients/{id}/statement/download?format=pdf|xlsx: the client's statement as a file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { statementDownload } from '~/lib/billing.server';

export const loader = (args: LoaderFunctionArgs) => statementDownload(args, 'client');
