/**
 * /insureds/new/import?campus={campus id}&contract={contract id}: upload a spreadsheet of applicants for
 * the campus and product chosen on the order page. A plain multipart form (works without JavaScript);
 * the file is checked and read at once, then the user matches its columns.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import type { ActorCtx } from '@server/domain/context';
import { ORDER_PERMISSION, orderableContract } from '@server/domain/enrollments/batches';
import { MAX_APPLICANTS } from '@server/domain/enrollments/values';
import { MAX_IMPORT_MB } from '@server/domain/imports/values';
import { NotFound, ValidationFailed } from '@server/domain/errors';
import { importUploadFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { activeImports, uploadImport } from '~/lib/imports.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Label, inputClass } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ImportStatusBadge, ImportSteps, importHref } from '~/components/imports/import-bits';
import { formatDateTime } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

async function chosen(ctx: ActorCtx, campusId: string, contractId: string) {
  if (!campusId || !contractId) return null;
  try {
    const { campus, client, contract } = await orderableContract(ctx, campusId, contractId);
    return {
      campus: { id: campus.public_id, name: campus.name },
      client: { id: client.public_id },
      contract: { id: contract.id, name: contract.name, product_name: contract.product_name },
    };
  } catch (e) {
    if (e instanceof NotFound || e instanceof ValidationFailed) return null;
    throw e;
  }
}

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load({ ctx, request, context }) {
      const url = new URL(request.url);
      const choice = await chosen(
        ctx,
        url.searchParams.get('campus') ?? '',
        url.searchParams.get('contract') ?? '',
      );
      return {
        choice,
        canTemplate: can(ctx.actor, 'read_campus'),
        active: await activeImports(ctx, {}, 5),
        title: pageTitle(context, request, 'imports.upload.title'),
      };
    },
  })(args);

/** The file is checked and read at once (the service says what is wrong with it), then its columns. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: importUploadFormSchema,
    permission: ORDER_PERMISSION,
    async handle(input, { ctx, request, redirect }) {
      const url = new URL(request.url);
      const { id } = await uploadImport(
        ctx,
        {
          campus_id: input.campus ?? url.searchParams.get('campus') ?? '',
          contract_id: input.contract ?? url.searchParams.get('contract') ?? '',
        },
        input.file,
      );
      return redirect(`/insureds/match-columns?import=${id}`);
    },
  })(args);

export default function ImportUpload() {
  const { t, i18n } = useTranslation();
  const { choice, canTemplate, active } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const errors = data?.submission?.error ?? {};
  const other = [...(errors[''] ?? []), ...(errors.contract_id ?? []), ...(errors.campus_id ?? [])];
  return (
    <div className="mx-auto max-w-4xl">
      <ImportSteps current="upload" />
      <PageHeader
        title={t('imports.upload.title')}
        description={
          choice
            ? t('imports.upload.description', {
                campus: choice.campus.name,
                product: choice.contract.product_name,
              })
            : undefined
        }
        actions={
          choice ? (
            <ButtonLink to={to('/insureds/order')} variant="secondary">
              {t('imports.upload.other_product')}
            </ButtonLink>
          ) : null
        }
      />
      {!choice ? (
        <Card>
          <p className="text-sm text-slate-700">{t('imports.upload.choose_first')}</p>
          <div className="mt-4">
            <ButtonLink to={to('/insureds/order')}>{t('imports.upload.to_order')}</ButtonLink>
          </div>
        </Card>
      ) : (
        <div className="grid gap-6 lg:grid-cols-3">
          <Card className="lg:col-span-2">
            <AppForm method="post" encType="multipart/form-data" className="space-y-5">
              <input type="hidden" name="campus" value={choice.campus.id} />
              <input type="hidden" name="contract" value={choice.contract.id} />
              <FormErrors errors={other} />
              <div>
                <Label htmlFor="import-file">{t('imports.upload.file_label')}</Label>
                <input
                  id="import-file"
                  type="file"
                  name="file"
                  required
                  accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
                  aria-invalid={errors.file?.length ? true : undefined}
                  aria-describedby="import-file-hint import-file-errors"
                  className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-primary-50 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-primary-800`}
                />
                <p id="import-file-hint" className="mt-1 text-xs text-slate-500">
                  {t('imports.upload.file_hint', { size: MAX_IMPORT_MB, max: MAX_APPLICANTS })}
                </p>
                <ErrorList id="import-file-errors" errors={errors.file} />
              </div>
              <Button type="submit" disabled={busy}>
                {busy ? t('imports.upload.uploading') : t('imports.upload.submit')}
              </Button>
            </AppForm>
          </Card>
          {canTemplate ? (
            <Card>
              <h2 className="text-base font-semibold text-slate-900">{t('imports.upload.template_title')}</h2>
              <p className="mt-2 text-sm text-slate-600">{t('imports.upload.template_text')}</p>
              <a
                href={to(`/clients/${choice.client.id}/campuses/${choice.campus.id}/enrollment-template`)}
                className="mt-4 inline-flex text-sm font-semibold text-primary-800 underline hover:text-primary-700"
                download
              >
                {t('imports.upload.template_download')}
              </a>
            </Card>
          ) : null}
        </div>
      )}
      <section className="mt-8">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t('imports.upload.in_progress')}</h2>
        {active.length ? (
          <Card flush>
            <ul className="divide-y divide-slate-100">
              {active.map((i) => (
                <li
                  key={i.id}
                  className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900">{i.file_name}</p>
                    <p className="text-xs text-slate-500">
                      {i.campus.name} · {t('imports.upload.rows', { count: i.row_count })} ·{' '}
                      {formatDateTime(i.created_at)}
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    <ImportStatusBadge status={i.status} />
                    <Link to={to(importHref(i))} className="font-semibold text-primary-800 underline">
                      {t('imports.upload.open')}
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        ) : (
          <Alert tone="info">{t('imports.upload.in_progress_empty')}</Alert>
        )}
      </section>
    </div>
  );
}
