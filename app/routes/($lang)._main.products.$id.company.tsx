/** A product's company details tab: the company that sells it and the insurer that covers it. */
import { useTranslation } from 'react-i18next';
import { Card } from '~/components/ui/card';
import { Facts } from '~/components/ui/facts';
import { ProductStatusBadge } from '~/components/products/product-badges';
import { useProduct } from '~/components/products/product-page';

export default function ProductCompanyTab() {
  const { t } = useTranslation();
  const { product: p } = useProduct();
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('products.company.company')}</h2>
        <Facts
          items={[
            { label: t('products.company.name'), value: p.company.name },
            { label: t('products.company.country'), value: p.company.country_name },
            { label: t('products.company.currency'), value: p.company.currency },
          ]}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('products.company.insurer')}</h2>
        {p.insurer ? (
          <Facts
            items={[
              { label: t('products.company.name'), value: p.insurer.name },
              { label: t('products.company.email'), value: p.insurer.email },
              {
                label: t('products.company.phone'),
                value: p.insurer.phone_number
                  ? `${p.insurer.phone_country ?? ''} ${p.insurer.phone_number}`.trim()
                  : null,
              },
              { label: t('products.company.website'), value: p.insurer.website },
              { label: t('products.fields.status'), value: <ProductStatusBadge status={p.insurer.status} /> },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-500">{t('products.company.no_insurer')}</p>
        )}
      </Card>
    </div>
  );
}
