/** Invite a school user (catalogue: POST users/school/add): an email with a single-use link valid 7 days. */
import { useLoaderData } from '@remix-run/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { newUserAction, newUserLoader } from '~/lib/users.server';
import { NewUserPage } from '~/components/users/user-pages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => newUserLoader(args, 'school');

export const action = (args: ActionFunctionArgs) => newUserAction(args, 'school');

export default function Page() {
  return <NewUserPage {...useLoaderData<typeof loader>()} />;
}
