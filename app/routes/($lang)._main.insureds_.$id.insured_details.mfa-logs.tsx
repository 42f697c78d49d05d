/**
 * The insured page's MFA logs tab. Insureds do not sign in yet (the student portal is not built), so no
 * insured has a sign-in or PIN record; the tab says so instead of showing an empty table
 * (docs/decisions/after-the-sale.md "Insureds list and page").
 */
import { type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import { pageLoader } from '~/lib/loaders.server';
import { requireInsuredTab } from '~/lib/insureds.server';
import { Card } from '~/components/ui/card';
import { EmptyState } from '~/components/ui/list-controls';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    load({ ctx }) {
      requireInsuredTab(ctx, 'mfa_logs');
      return null;
    },
  })(args);

export default function InsuredMfaLogsTab() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState message={t('insureds.detail.mfa_empty')} />
    </Card>
  );
}
