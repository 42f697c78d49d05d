/** A product's beneficiary cover limits tab: one row per benefit, its limit and its excess. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useNavigation, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { updateProduct } from '@server/domain/products/service';
import { constraintsOf, coverageLimitsSchema, idSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { useMessage } from '~/lib/messages';
import { AppForm, ErrorList, FormErrors, inputClass } from '~/components/fields';
import { Button, buttonClass } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { str, useProduct } from '~/components/products/product-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    load: () => json({ constraint: constraintsOf(coverageLimitsSchema) }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: coverageLimitsSchema,
    permission: 'update_product',
    params: idSchema,
    async handle(input, { ctx, params, redirect }) {
      await updateProduct(ctx, params.id, input);
      return redirect(`/products/${params.id}/limits`, 'products.messages.updated');
    },
  })(args);

const head = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';

export default function ProductLimitsTab() {
  const { t } = useTranslation();
  const m = useMessage();
  const { product, canUpdate } = useProduct();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const { constraint } = useLoaderData<typeof loader>();
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/products/tabs').then((m) => m.coverageLimitsSchema),
    id: `limits-${product.updated_at}`,
    lastResult: data?.submission,
    defaultValue: {
      coverage_limits: product.coverage_limits.length
        ? product.coverage_limits.map((l) => ({ benefit: l.benefit, limit: l.limit, excess: l.excess ?? '' }))
        : [{ benefit: '', limit: '', excess: '' }],
    },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const rows = fields.coverage_limits.getFieldList();
  if (!canUpdate) {
    return (
      <Card>
        {product.coverage_limits.length === 0 ? (
          <p className="text-sm text-slate-500">{t('products.limits.empty')}</p>
        ) : (
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead>
              <tr>
                <th className={head}>{t('products.limits.benefit')}</th>
                <th className={head}>{t('products.limits.limit')}</th>
                <th className={head}>{t('products.limits.excess')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {product.coverage_limits.map((l, i) => (
                <tr key={i}>
                  <td className="px-3 py-2">{l.benefit}</td>
                  <td className="px-3 py-2">{l.limit}</td>
                  <td className="px-3 py-2">{l.excess ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    );
  }
  return (
    <Card>
      <p className="mb-4 text-sm text-slate-600">{t('products.limits.intro')}</p>
      <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-4">
        <FormErrors errors={form.errors} />
        <div className="overflow-x-auto">
          <table className="min-w-full text-sm">
            <thead>
              <tr>
                <th className={head}>{t('products.limits.benefit')}</th>
                <th className={head}>{t('products.limits.limit')}</th>
                <th className={head}>{t('products.limits.excess')}</th>
                <th className={head}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const cells = row.getFieldset();
                return (
                  <tr key={row.key} data-testid="limit-row">
                    {(['benefit', 'limit', 'excess'] as const).map((name) => (
                      <td key={name} className="px-1 py-1 align-top">
                        <input
                          id={cells[name].id}
                          name={cells[name].name}
                          defaultValue={str(cells[name].initialValue)}
                          key={cells[name].key}
                          aria-label={`${t(`products.limits.${name}`)} ${index + 1}`}
                          aria-invalid={cells[name].errors?.length ? true : undefined}
                          className={inputClass}
                        />
                        <ErrorList id={cells[name].errorId} errors={cells[name].errors} />
                      </td>
                    ))}
                    <td className="px-1 py-1 align-top">
                      <button
                        {...form.remove.getButtonProps({ name: fields.coverage_limits.name, index })}
                        className="rounded-lg px-3 py-2.5 text-sm font-medium text-red-700 hover:bg-red-50"
                      >
                        {t('products.limits.remove')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {fields.coverage_limits.errors?.length ? (
          <p className="text-sm text-red-700">{fields.coverage_limits.errors.map((e) => m(e)).join(' ')}</p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button
            {...form.insert.getButtonProps({
              name: fields.coverage_limits.name,
              defaultValue: { benefit: '', limit: '', excess: '' },
            })}
            className={buttonClass('secondary')}
          >
            {t('products.limits.add_row')}
          </button>
          <Button type="submit" disabled={busy}>
            {t('common.save')}
          </Button>
        </div>
      </AppForm>
    </Card>
  );
}
