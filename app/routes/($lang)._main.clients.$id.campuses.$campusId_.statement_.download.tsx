/** /clients/{id}/campuses/{campusId}/statement/download?format=pdf|xlsx: the campus's statement as a file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { statementDownload } from '~/lib/billing.server';

export const loader = (args: LoaderFunctionArgs) => statementDownload(args, 'campus');
