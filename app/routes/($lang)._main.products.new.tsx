import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { MIN_PURCHASE_DAYS } from '@server/domain/products/values';
import { createProduct, productFormOptions } from '@server/domain/products/service';
import { constraintsOf, createProductSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ProductDetailFields } from '~/components/products/product-fields';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_product',
    async load({ ctx, request, context }) {
      const options = await productFormOptions(ctx);
      return json({
        constraint: constraintsOf(createProductSchema),
        options,
        title: pageTitle(context, request, 'products.new_title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: createProductSchema,
    permission: 'create_product',
    async handle(input, { ctx, redirect }) {
      const { id } = await createProduct(ctx, input);
      return redirect(`/products/${id}/pricing`, 'products.messages.created');
    },
  })(args);

export default function NewProduct() {
  const { t, i18n } = useTranslation();
  const { options, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/products/schema').then((m) => m.createProductSchema),
    id: 'product',
    lastResult,
    defaultValue: {
      currency: options.companies.length === 1 ? options.companies[0].currency : 'GBP',
      min_purchase_days: String(MIN_PURCHASE_DAYS),
      company_id: options.companies.length === 1 ? options.companies[0].id : '',
    },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={t('products.new_title')} description={t('products.new_intro')} />
      <Card>
        <AppForm method="post" {...getFormProps(form)} className="space-y-8">
          <FormErrors errors={form.errors} />
          <ProductDetailFields fields={fields} options={options} isNew />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={busy}>
              {t('products.create')}
            </Button>
            <ButtonLink to={localePath(i18n.language, '/products')} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}
