/** A product's claim details tab: whom an insured calls or writes to when claiming. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useNavigation, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { updateProduct } from '@server/domain/products/service';
import { PRODUCT_CLAIM_KEYS, withCleared } from '@server/domain/products/values';
import { constraintsOf, productClaimSchema, idSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { AppForm, FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { Facts } from '~/components/ui/facts';
import { ClaimFields } from '~/components/products/product-fields';
import { productDefaults, useProduct } from '~/components/products/product-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    load: () => json({ constraint: constraintsOf(productClaimSchema) }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: productClaimSchema,
    permission: 'update_product',
    params: idSchema,
    async handle(input, { ctx, params, redirect }) {
      await updateProduct(ctx, params.id, withCleared(input, PRODUCT_CLAIM_KEYS));
      return redirect(`/products/${params.id}/claim`, 'products.messages.updated');
    },
  })(args);

export default function ProductClaimTab() {
  const { t } = useTranslation();
  const { product, canUpdate } = useProduct();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const { constraint } = useLoaderData<typeof loader>();
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/products/tabs').then((m) => m.productClaimSchema),
    id: `claim-${product.updated_at}`,
    lastResult: data?.submission,
    defaultValue: productDefaults(product),
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate) {
    return (
      <Card>
        <Facts
          items={PRODUCT_CLAIM_KEYS.map((k) => ({ label: t(`products.fields.${k}`), value: product[k] }))}
        />
      </Card>
    );
  }
  return (
    <Card>
      <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-6">
        <FormErrors errors={form.errors} />
        <ClaimFields fields={fields} />
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </AppForm>
    </Card>
  );
}
