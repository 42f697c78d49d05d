/** The insured page's previous policies tab: the same person's other previous policies (same name and date of birth in the client). */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { personPolicies } from '@server/domain/policies/service';
import { requireInsuredTab } from '~/lib/insureds.server';
import { Card } from '~/components/ui/card';
import { RelatedPolicies } from '~/components/insureds/insured-bits';

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = requireInsuredTab(request, context, 'previous_policies');
  const lists = await personPolicies(ctx, params.id!);
  return json({ rows: lists.previous_policies ?? [] });
}

export default function PreviousPoliciesTab() {
  const { t } = useTranslation();
  const { rows } = useLoaderData<typeof loader>();
  return (
    <Card>
      <RelatedPolicies
        rows={rows}
        empty={t('insureds.detail.previous_empty')}
        caption={t('insureds.tabs.previous_policies')}
      />
    </Card>
  );
}
