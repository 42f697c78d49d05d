/** /clients/{id}/statement: a client's statement of account for any period (staff). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { statementPage } from '~/lib/billing.server';
import { StatementPage } from '~/components/billing/statement-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => statementPage(args, 'client');

export default function ClientStatement() {
  const data = useLoaderData<typeof loader>();
  return <StatementPage statement={data.statement} error={data.error} campuses={data.campuses} />;
}
