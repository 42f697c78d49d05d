/** /user-privileges/school and /user-privileges/student: those families' roles and permissions. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare';
import { privilegesAction, privilegesLoader, tabFamily } from '~/lib/privileges.server';
import { PrivilegesTab } from '~/components/roles/privileges-page';

export const loader = (args: LoaderFunctionArgs) => privilegesLoader(args, tabFamily(args.params.family));

export const action = (args: ActionFunctionArgs) => privilegesAction(args, tabFamily(args.params.family));

export default function FamilyPrivileges() {
  return <PrivilegesTab />;
}
