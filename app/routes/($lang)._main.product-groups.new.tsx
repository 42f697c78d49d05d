import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { GROUP_DESCRIPTION_MAX } from '@server/domain/products/values';
import { createProductGroup, groupProductOptions } from '@server/domain/products/groups';
import { productFormOptions } from '@server/domain/products/service';
import { constraintsOf, productGroupSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ProductGroupFields } from '~/components/products/product-fields';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_product_group',
    async load({ ctx, request, context }) {
      const [products, options] = await Promise.all([groupProductOptions(ctx), productFormOptions(ctx)]);
      return json({
        constraint: constraintsOf(productGroupSchema),
        products,
        companies: options.companies,
        title: pageTitle(context, request, 'products.groups.new_title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: productGroupSchema,
    permission: 'create_product_group',
    async handle(input, { ctx, redirect }) {
      const { id } = await createProductGroup(ctx, input);
      return redirect(`/product-groups/${id}`, 'products.messages.group_created');
    },
  })(args);

export default function NewProductGroup() {
  const { t, i18n } = useTranslation();
  const { products, companies, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/products/schema').then((m) => m.productGroupSchema),
    id: 'product-group',
    lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('products.groups.new_title')} description={t('products.groups.intro')} />
      <Card>
        <AppForm method="post" {...getFormProps(form)} className="space-y-6">
          <FormErrors errors={form.errors} />
          <ProductGroupFields
            fields={fields}
            companies={companies}
            products={products}
            isNew
            maxDescription={GROUP_DESCRIPTION_MAX}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={busy}>
              {t('products.groups.create')}
            </Button>
            <ButtonLink to={localePath(i18n.language, '/products?view=groups')} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}
