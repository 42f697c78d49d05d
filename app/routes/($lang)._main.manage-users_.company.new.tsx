/** Invite a company user (catalogue: POST users/company/add): an email with a single-use link valid 7 days. */
import { useLoaderData } from '@remix-run/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { newUserAction, newUserLoader } from '~/lib/users.server';
import { NewUserPage } from '~/components/users/user-pages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => newUserLoader(args, 'company');

export const action = (args: ActionFunctionArgs) => newUserAction(args, 'company');

export default function Page() {
  return <NewUserPage {...useLoaderData<typeof loader>()} />;
}
