/**
 * /insureds/cancel/match-columns?import={id}: which column holds the policy id (required, it cannot be
 * ignored: spec 001 s.8) and which the last name (optional, a check). The suggestion from the headers is
 * preselected. Confirming starts matching the rows to policies and goes to its progress page.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CANCEL_PERMISSION, CANCEL_TARGETS } from '@server/domain/cancellations/values';
import { cancelMappingFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { cancellationStep, confirmCancelMapping } from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { ColumnMatcher } from '~/components/imports/column-matcher';
import { CancelSteps } from '~/components/cancellations/cancel-steps';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { view } = await cancellationStep(kit, 'match');
      return {
        import: {
          id: view.id,
          status: view.status,
          file_name: view.file_name,
          row_count: view.row_count,
          message: view.message,
        },
        columns: view.headers.map((header, index) => ({
          index,
          header,
          values: view.sample
            .map((row) => row[index] ?? '')
            .filter((v) => v.trim())
            .slice(0, 3),
          target: view.mapping[String(index)] ?? null,
        })),
        title: pageTitle(context, request, 'cancellations.match.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: cancelMappingFormSchema,
    permission: CANCEL_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const view = await confirmCancelMapping(ctx, input.import, input);
      return redirect(`/insureds/cancel/format-data?import=${view.id}`);
    },
  })(args);

export default function CancelMatchColumns() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const imp = data.import;
  const errors = answer?.submission?.error ?? {};
  const posted = (answer?.submission?.initialValue as { columns?: string[] } | undefined)?.columns;
  const columns = posted
    ? data.columns.map((c) => ({ ...c, target: posted[c.index] || null }))
    : data.columns;
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-4xl">
      <CancelSteps current="match" id={imp.id} />
      <PageHeader
        title={t('cancellations.match.title')}
        description={t('cancellations.match.description', { file: imp.file_name, count: imp.row_count })}
        actions={
          <ButtonLink to={to('/insureds/cancel')} variant="secondary">
            {t('cancellations.match.upload_again')}
          </ButtonLink>
        }
      />
      <div className="mb-4 space-y-3">
        {imp.status === 'failed' && imp.message ? <Alert>{m(imp.message)}</Alert> : null}
        <p className="text-sm text-slate-600">{t('cancellations.match.required')}</p>
      </div>
      <AppForm method="post" className="space-y-6">
        <input type="hidden" name="import" value={imp.id} />
        <FormErrors errors={errors['']} />
        {errors.columns?.length ? (
          <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 ring-1 ring-red-200">
            <ErrorList errors={errors.columns} />
          </div>
        ) : null}
        <ColumnMatcher
          columns={columns}
          targets={CANCEL_TARGETS.map((v) => ({ value: v, label: t(`cancellations.fields.${v}`) }))}
          labels={{
            column: t('imports.match.column'),
            values: t('imports.match.values'),
            field: t('cancellations.match.field'),
            ignore: t('cancellations.match.ignore'),
          }}
          errors={errors}
        />
        <Button type="submit" disabled={busy}>
          {t('cancellations.match.submit')}
        </Button>
      </AppForm>
    </div>
  );
}
