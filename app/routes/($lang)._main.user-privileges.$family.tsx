/** /user-privileges/school and /user-privileges/student: those families' roles and permissions. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare';
import { privilegesAction, privilegesLoader } from '~/lib/privileges.server';
import { PrivilegesTab } from '~/components/roles/privileges-page';

export const loader = (args: LoaderFunctionArgs) => privilegesLoader(args);

export const action = (args: ActionFunctionArgs) => privilegesAction(args);

export default function FamilyPrivileges() {
  return <PrivilegesTab />;
}
