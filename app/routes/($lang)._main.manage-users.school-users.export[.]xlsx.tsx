import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { usersExportLoader } from '~/lib/users.server';

/** GET /manage-users/school-users/export.xlsx?{the list's filters}: the school users list as an Excel file. */
export const loader = (args: LoaderFunctionArgs) => usersExportLoader(args, 'school');
