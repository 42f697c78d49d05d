/**
 * /insureds/cancel/match-columns?import={id}: which column holds the policy id (required, it cannot be
 * ignored: spec 001 s.8) and which the last name (optional, a check). The suggestion from the headers is
 * preselected. Confirming starts matching the rows to policies and goes to its progress page.
 */
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CANCEL_PERMISSION, CANCEL_TARGETS } from '@server/domain/cancellations/values';
import { cancelMappingFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { cancellationFromRequest, confirmCancelMapping } from '~/lib/cancellations.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Select } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { CancelSteps } from '~/components/cancellations/cancel-steps';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { view, lang } = await cancellationFromRequest(request, context);
  if (view.status === 'done')
    throw redirect(localePath(lang, `/insureds/cancel/confirm-cancellation?import=${view.id}`));
  if (view.status === 'staging')
    throw redirect(localePath(lang, `/insureds/cancel/format-data?import=${view.id}`));
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
}

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
  const options = [
    { value: '', label: t('cancellations.match.ignore') },
    ...CANCEL_TARGETS.map((v) => ({ value: v, label: t(`cancellations.fields.${v}`) })),
  ];
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
        <Card flush>
          <ul className="divide-y divide-slate-100">
            {data.columns.map((c) => (
              <li key={c.index} className="grid gap-3 px-4 py-4 sm:grid-cols-3 sm:items-center">
                <div>
                  <p className="font-medium text-slate-900">
                    {c.header || t('cancellations.match.no_header')}
                  </p>
                </div>
                <p className="text-sm text-slate-600 sm:col-span-1">
                  {c.values.length ? c.values.join(', ') : t('cancellations.match.no_values')}
                </p>
                <div>
                  <label htmlFor={`column-${c.index}`} className="sr-only">
                    {t('cancellations.match.holds', { column: c.header || c.index + 1 })}
                  </label>
                  <Select
                    id={`column-${c.index}`}
                    name={`columns[${c.index}]`}
                    defaultValue={posted ? (posted[c.index] ?? '') : (c.target ?? '')}
                    options={options}
                    aria-describedby={`column-${c.index}-errors`}
                  />
                  <ErrorList id={`column-${c.index}-errors`} errors={errors[`columns[${c.index}]`]} />
                </div>
              </li>
            ))}
          </ul>
        </Card>
        <Button type="submit" disabled={busy}>
          {t('cancellations.match.submit')}
        </Button>
      </AppForm>
    </div>
  );
}
