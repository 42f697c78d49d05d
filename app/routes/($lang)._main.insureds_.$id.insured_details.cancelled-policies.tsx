/** The insured page's cancelled policies tab: the same person's other cancelled policies (same name and date of birth in the client). */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { personPolicies } from '@server/domain/policies/service';
import { requireInsuredTab } from '~/lib/insureds.server';
import { Card } from '~/components/ui/card';
import { RelatedPolicies } from '~/components/insureds/insured-bits';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema,
    async load({ ctx, params }) {
      requireInsuredTab(ctx, 'cancelled_policies');
      const lists = await personPolicies(ctx, params.id);
      return json({ rows: lists.cancelled_policies ?? [] });
    },
  })(args);

export default function CancelledPoliciesTab() {
  const { t } = useTranslation();
  const { rows } = useLoaderData<typeof loader>();
  return (
    <Card>
      <RelatedPolicies
        rows={rows}
        empty={t('insureds.detail.cancelled_empty')}
        caption={t('insureds.tabs.cancelled_policies')}
      />
    </Card>
  );
}
