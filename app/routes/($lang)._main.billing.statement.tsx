/**
 * /billing/statement: a school user's own statement of account (their client's, or one campus's with
 * ?campus=), for any period.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { statementPage } from '~/lib/billing.server';
import { StatementPage } from '~/components/billing/statement-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => statementPage(args, 'own');

export default function OwnStatement() {
  const data = useLoaderData<typeof loader>();
  return <StatementPage statement={data.statement} error={data.error} campuses={data.campuses} />;
}
