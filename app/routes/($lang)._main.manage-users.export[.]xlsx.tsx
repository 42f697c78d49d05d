import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { usersExportLoader } from '~/lib/users.server';

/** GET /manage-users/export.xlsx?{the list's filters}: the company users list as an Excel file. */
export const loader = (args: LoaderFunctionArgs) => usersExportLoader(args, 'company');
