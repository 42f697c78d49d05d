/**
 * /invoices (Accounting > Invoices; school users see their own): every invoice and credit note the user
 * may see, the invoice filters, the summary per currency, sort and paging, export .xlsx, and the
 * selected (or all matching) downloaded as PDF or Excel in one ZIP.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_ACCESS, invoiceListData } from '~/lib/invoices.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { PageHeader } from '~/components/ui/card';
import { InvoiceList } from '~/components/invoices/invoice-list';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    async load({ ctx, request, context }) {
      const data = await invoiceListData(ctx, request);
      return json({ ...data, title: pageTitle(context, request, 'invoices.title') });
    },
  })(args);

export default function Invoices() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('invoices.title')}
        description={data.staff ? t('invoices.intro') : t('invoices.school_access')}
      />
      <InvoiceList
        list={data.list}
        summary={data.summary}
        currencies={data.options.currencies}
        clients={data.options.clients}
        staff={data.staff}
        scope="all"
        hrefOf={(r) => `/clients/${r.client.id}/invoices/${r.id}`}
        downloadAction={localePath(i18n.language, '/invoices/download')}
      />
    </div>
  );
}
