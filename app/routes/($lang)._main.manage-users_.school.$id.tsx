/** One school user: state, invitation, the moves allowed now (archive, activate, ...) and the edit form. */
import { useLoaderData } from '@remix-run/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { userAction, userLoader } from '~/lib/users.server';
import { UserPage } from '~/components/users/user-pages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => userLoader(args, 'school');

export const action = (args: ActionFunctionArgs) => userAction(args, 'school');

export default function Page() {
  return <UserPage {...useLoaderData<typeof loader>()} />;
}
