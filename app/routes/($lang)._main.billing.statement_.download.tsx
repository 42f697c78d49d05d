/** /billing/statement/download?format=pdf|xlsx: a school user's own statement as a file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { statementDownload } from '~/lib/billing.server';

export const loader = (args: LoaderFunctionArgs) => statementDownload(args, 'own');
