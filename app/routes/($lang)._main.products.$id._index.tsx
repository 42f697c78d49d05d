/** A product's details tab, the page's own address: the details form, or the facts for a reader. */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { productFormOptions, updateProduct } from '@server/domain/products/service';
import { PRODUCT_DETAIL_KEYS, withCleared } from '@server/domain/products/values';
import { constraintsOf, idSchema, productDetailsSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { pageLoader } from '~/lib/loaders.server';
import { formAction } from '~/lib/actions.server';
import { formatDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { AppForm, FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { Facts } from '~/components/ui/facts';
import { ProductDetailFields } from '~/components/products/product-fields';
import { productDefaults, useProduct, type ProductDetail } from '~/components/products/product-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    async load({ ctx }) {
      return json({
        options: can(ctx.actor, 'update_product') ? await productFormOptions(ctx) : null,
        constraint: constraintsOf(productDetailsSchema),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: productDetailsSchema,
    permission: 'update_product',
    params: idSchema,
    async handle(input, { ctx, params, redirect }) {
      await updateProduct(ctx, params.id, withCleared(input, PRODUCT_DETAIL_KEYS));
      return redirect(`/products/${params.id}`, 'products.messages.updated');
    },
  })(args);

export default function ProductDetailsTab() {
  const { t } = useTranslation();
  const { product, canUpdate } = useProduct();
  const { options, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: `details-${product.updated_at}`,
    schema: () => import('@server/domain/products/tabs').then((m) => m.productDetailsSchema),
    lastResult: data?.submission,
    defaultValue: productDefaults(product),
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate || !options) return <ProductFacts product={product} />;
  return (
    <Card>
      <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-8">
        <FormErrors errors={form.errors} />
        <ProductDetailFields fields={fields} options={options} companyId={product.company.id} />
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </AppForm>
    </Card>
  );
}

function ProductFacts({ product: p }: { product: ProductDetail }) {
  const { t } = useTranslation();
  const f = (k: string) => t(`products.fields.${k}`);
  return (
    <Card>
      <Facts
        items={[
          { label: f('code'), value: p.code },
          { label: f('name'), value: p.name },
          { label: f('insurer'), value: p.insurer?.name },
          { label: f('type'), value: p.type },
          { label: f('policy_type'), value: p.policy_type },
          { label: f('scheme'), value: p.scheme },
          { label: f('cover_type'), value: p.cover_type },
          {
            label: f('territorial_limit'),
            value: p.territorial_limit ? t(`products.territorial_limits.${p.territorial_limit}`) : null,
          },
          { label: f('master_certificate_number'), value: p.master_certificate_number },
          { label: f('effective_start_date'), value: formatDate(p.effective_start_date) },
          {
            label: f('effective_end_date'),
            value: p.effective_end_date ? formatDate(p.effective_end_date) : t('products.open_ended'),
          },
          { label: f('min_purchase_days'), value: p.min_purchase_days },
          { label: f('max_enrolment_period_days'), value: p.max_enrolment_period_days },
          { label: f('max_term_days'), value: p.max_term_days },
          {
            label: f('unit'),
            value: p.unit ? t(`products.units.${p.unit.name}`, { defaultValue: p.unit.name }) : null,
          },
          { label: f('insured_age_min'), value: p.insured_age_min },
          { label: f('insured_age_max'), value: p.insured_age_max },
          { label: f('currency'), value: p.currency },
          {
            label: f('max_coverage_amount'),
            value: p.max_coverage_amount != null ? formatMoney(p.max_coverage_amount, p.currency) : null,
          },
          { label: f('description'), value: p.description },
        ]}
      />
    </Card>
  );
}
