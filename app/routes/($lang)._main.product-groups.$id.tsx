import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { GROUP_DESCRIPTION_MAX } from '@server/domain/products/values';
import {
  deleteProductGroup,
  getProductGroup,
  groupProductOptions,
  productGroupActivities,
  updateProductGroup,
} from '@server/domain/products/groups';
import { useSchemaForm } from '~/lib/schema-form';
import {
  constraintsOf,
  emptySchema,
  idSchema,
  pageQuerySchema,
  productGroupSchema,
} from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ActivityLog } from '~/components/activity/activity-log';
import { ProductGroupFields, ProductStatusBadge } from '~/components/products/product-fields';
import { ConfirmButton } from '~/components/ui/confirm';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product_group',
    params: idSchema,
    query: pageQuerySchema,
    async load({ ctx, params: { id }, query, request, context }) {
      const group = await getProductGroup(ctx, id);
      const canUpdate = can(ctx.actor, 'update_product_group');
      const [products, logs] = await Promise.all([
        canUpdate ? groupProductOptions(ctx) : null,
        productGroupActivities(ctx, id, { page: query.page, items: 10 }),
      ]);
      return json({
        constraint: constraintsOf(productGroupSchema),
        group,
        products: products?.filter((p) => p.company_id === group.company.id) ?? [],
        logs,
        canUpdate,
        canDelete: can(ctx.actor, 'delete_product_group'),
        title: pageTitle(context, request, 'products.groups.title'),
      });
    },
  })(args);

/** Save the group, or delete it (back to the groups list). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      update: { schema: productGroupSchema, permission: 'update_product_group' },
      delete: {
        schema: emptySchema,
        permission: 'delete_product_group',
        confirm: { question: 'products.groups.delete_confirm', button: 'products.delete' },
      },
    },
    async handle(input, { ctx, params: { id }, redirect }) {
      switch (input.intent) {
        case 'update':
          await updateProductGroup(ctx, id, input);
          return { toast: 'products.messages.group_updated' };
        case 'delete':
          await deleteProductGroup(ctx, id);
          return redirect('/products?view=groups', 'products.messages.group_deleted');
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function ProductGroupPage() {
  const { t, i18n } = useTranslation();
  const { group, products, logs, canUpdate, canDelete, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/products/schema').then((m) => m.productGroupSchema),
    id: `product-group-${group.id}`,
    lastResult: data?.intent === 'update' ? data.submission : undefined,
    defaultValue: {
      name: group.name,
      scheme: group.scheme ?? '',
      type: group.type ?? '',
      description: group.description ?? '',
      product_ids: group.product_ids,
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={group.name}
        description={`${t('products.groups.title')} · ${group.company.name}`}
        actions={
          <>
            <ButtonLink to={to('/products?view=groups')} variant="secondary">
              {t('products.groups.back')}
            </ButtonLink>
            {canDelete ? (
              <AppForm method="post">
                <ConfirmButton
                  name="intent"
                  value="delete"
                  className={buttonClass('danger')}
                  disabled={busy}
                  question={t('products.groups.delete_confirm')}
                >
                  {t('products.delete')}
                </ConfirmButton>
              </AppForm>
            ) : null}
          </>
        }
      />
      {canUpdate ? (
        <Card>
          <AppForm method="post" {...getFormProps(form)} className="space-y-6">
            <FormErrors errors={form.errors} />
            <ProductGroupFields
              fields={fields}
              companies={[group.company]}
              products={products}
              isNew={false}
              maxDescription={GROUP_DESCRIPTION_MAX}
            />
            <Button type="submit" name="intent" value="update" disabled={busy}>
              {t('common.save')}
            </Button>
          </AppForm>
        </Card>
      ) : (
        <Card>
          <dl className="grid gap-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-500">{t('products.groups.scheme')}</dt>
              <dd className="font-medium">{group.scheme ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('products.groups.type')}</dt>
              <dd className="font-medium">{group.type ?? '—'}</dd>
            </div>
            <div className="sm:col-span-3">
              <dt className="text-slate-500">{t('products.groups.description')}</dt>
              <dd className="whitespace-pre-line font-medium">{group.description ?? '—'}</dd>
            </div>
          </dl>
        </Card>
      )}
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('products.groups.products')}</h2>
        {group.products.length === 0 ? (
          <p className="text-sm text-slate-500">{t('products.groups.no_products')}</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {group.products.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-3 py-2">
                <Link to={to(`/products/${p.id}`)} className="font-medium text-primary-800 hover:underline">
                  <span className="font-mono text-xs text-slate-500">{p.code}</span> {p.name}
                </Link>
                <ProductStatusBadge status={p.status} />
              </li>
            ))}
          </ul>
        )}
      </Card>
      <section>
        <h2 className="mb-3 text-base font-semibold">{t('products.tabs.logs')}</h2>
        <ActivityLog rows={logs.items} meta={logs.meta} />
      </section>
    </div>
  );
}
