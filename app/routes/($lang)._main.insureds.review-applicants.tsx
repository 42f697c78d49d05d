/**
 * /insureds/review-applicants?import={id} (or ?batch={id}): the staged applicants, 50 a page, with
 * "only show errors". A row is fixed in place (its Edit link opens it as a form; saving checks it again at
 * once, with the rules across the order), rows are deleted (the selected ones, or all with errors), and
 * the order moves on only when no applicant has errors.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { activeCountries } from '@server/domain/countries/service';
import { deleteEnrollments, updateEnrollment } from '@server/domain/enrollments/service';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import {
  APPLICANT_DAY_FIELDS,
  APPLICANT_FIELDS,
  type ApplicantField,
} from '@server/domain/enrollments/values';
import { readDay } from '@server/domain/formats';
import { asMapping, REQUIRED_TARGETS } from '@server/domain/imports/values';
import { NotFound, ValidationFailed } from '@server/domain/errors';
import { msg } from '@server/domain/messages';
import {
  importBatchRefSchema,
  reviewDeleteSchema,
  reviewQuerySchema,
  reviewRowSchema,
} from '~/lib/schemas.server';
import {
  erroredIds,
  idsInBatch,
  type ImportBatch,
  importBatchStep,
  nextAfterReview,
  reviewPage,
} from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { localePath, splitLocale } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, buttonClass, ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { ImportSteps, OnlyErrorsToggle } from '~/components/imports/import-bits';
import { ReviewGrid } from '~/components/imports/review-grid';
import { pageTitle } from '~/lib/meta';
import { ConfirmButton } from '~/components/ui/confirm';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/** The columns the grid shows: what the sheet had, in the order of the applicant form. */
function shownFields(ib: ImportBatch): ApplicantField[] {
  const mapped = new Set<string>(
    Object.values(asMapping(ib.imp?.mapping) ?? {}).filter((x): x is ApplicantField => !!x),
  );
  // The applicant's type and the fields every sheet must provide are always columns.
  const always: ApplicantField[] = ['type', ...REQUIRED_TARGETS];
  if (!ib.imp)
    return APPLICANT_FIELDS.filter(
      (f) => always.includes(f) || ['gender', 'email', 'passport_number'].includes(f),
    );
  return APPLICANT_FIELDS.filter((f) => always.includes(f) || mapped.has(f));
}

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    query: reviewQuerySchema,
    async load(kit) {
      const { request, context, query } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'review');
      const url = new URL(request.url);
      const { rows, counts } = await reviewPage(ctx, ib, query);
      const editing = url.searchParams.get('edit');
      const isEditing = !!editing && rows.items.some((r) => r.id === editing);
      return {
        batch: { id: ib.batch.public_id },
        import: ib.imp ? { id: ib.imp.public_id, file_name: ib.imp.file_name } : null,
        rows,
        counts,
        fields: shownFields(ib),
        editing: isEditing ? editing : null,
        countries: isEditing ? (await activeCountries(ctx.db)).map((c) => ({ id: c.id, name: c.name })) : [],
        errorsOnly: query.errors_only,
        next: nextAfterReview(ib.batch.public_id, counts),
        title: pageTitle(context, request, 'imports.review.title'),
      };
    },
  })(args);

/** The page's own address (without its language prefix) with some query parameters changed. */
function here(request: Request, changes: Record<string, string | null>) {
  const url = new URL(request.url);
  url.searchParams.delete('index');
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  return `${splitLocale(url.pathname).path}?${url.searchParams}`;
}

/**
 * Save a row fixed in place (it is checked again at once; a row still wrong stays open), delete the
 * selected rows, or delete every row with errors. Each is a change of the order, which whoever may
 * order makes; the rows are read in the step's own batch.
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      update: { schema: reviewRowSchema, permission: ORDER_PERMISSION },
      delete: { schema: reviewDeleteSchema, permission: ORDER_PERMISSION },
      delete_errored: {
        schema: importBatchRefSchema,
        permission: ORDER_PERMISSION,
        confirm: {
          question: async (_input: unknown, kit) => {
            const { ctx, ib } = await importBatchStep(kit, 'review', kit.formData);
            return msg('imports.review.confirm_delete_errored', {
              count: (await erroredIds(ctx, ib.batch)).length,
            });
          },
          button: 'confirm.confirm',
        },
      },
    },
    async handle(input, kit) {
      const { formData, redirect, request } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'review', formData);
      switch (input.intent) {
        case 'update': {
          const [id] = await idsInBatch(ctx, ib.batch, [input.enrollment_id]);
          if (!id) throw new NotFound(msg('enrollments.errors.not_found'));
          // The cells as posted: an emptied cell is a change too.
          const changes: Record<string, string> = {};
          // A day is typed as the grid shows it (DD/MM/YYYY); one that is no day stays as typed, for its message.
          for (const f of APPLICANT_FIELDS) {
            const v = formData.get(f);
            if (typeof v === 'string') changes[f] = APPLICANT_DAY_FIELDS.has(f) ? (readDay(v) ?? v) : v;
          }
          const row = await updateEnrollment(ctx, id, changes, { validateFirst: false });
          const stillWrong = (row.errors ?? []).some(
            (e: { field: string }) => e.field !== 'dependency_id' && e.field !== 'group_leader_id',
          );
          const toast = msg(stillWrong ? 'imports.review.saved_with_errors' : 'imports.review.saved', {
            row: row.position ?? '',
          });
          return redirect(here(request, { edit: stillWrong ? id : null }), toast, {
            type: stillWrong ? 'info' : 'success',
          });
        }
        case 'delete':
        case 'delete_errored': {
          const ids =
            input.intent === 'delete'
              ? await idsInBatch(ctx, ib.batch, input.ids.filter(Boolean))
              : await erroredIds(ctx, ib.batch);
          if (!ids.length) throw ValidationFailed.field('ids', msg('imports.review.none_selected'));
          const { deleted } = await deleteEnrollments(ctx, ids);
          return redirect(
            here(request, { edit: null, page: null }),
            msg('imports.review.deleted', { count: deleted }),
          );
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function ReviewApplicants() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const ref: Record<string, string> = data.import ? { import: data.import.id } : { batch: data.batch.id };
  const refQuery = data.import ? `import=${data.import.id}` : `batch=${data.batch.id}`;
  const refused = answer && !answer.ok ? (answer.submission?.error ?? {}) : {};
  const deleteErrors =
    answer?.intent === 'delete' || answer?.intent === 'delete_errored'
      ? [...(refused[''] ?? []), ...(refused.ids ?? [])]
      : null;
  // A row refused as a whole (not saved) keeps its form open with the messages on its cells.
  const editErrors: Record<string, string[]> | null =
    answer?.intent === 'update'
      ? Object.fromEntries(
          Object.entries(refused).flatMap(([k, v]) => (v?.length ? [[k === '' ? 'row' : k, v]] : [])),
        )
      : null;
  return (
    <div className="mx-auto max-w-[100rem]">
      <ImportSteps
        current="review"
        links={data.import ? { match: `/insureds/match-columns?import=${data.import.id}` } : {}}
      />
      <PageHeader
        title={t('imports.review.title')}
        description={t('imports.review.description', {
          total: data.counts.total,
          file: data.import?.file_name ?? '',
        })}
        actions={
          data.import ? (
            <ButtonLink to={to(`/insureds/match-columns?import=${data.import.id}`)} variant="secondary">
              {t('imports.review.rematch')}
            </ButtonLink>
          ) : null
        }
      />
      <div className="mb-4 space-y-3">
        <FormErrors errors={deleteErrors} />
      </div>

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-900" data-testid="review-summary">
          {t('imports.review.summary', { total: data.counts.total, errors: data.counts.with_errors })}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <OnlyErrorsToggle
            keep={ref}
            checked={data.errorsOnly}
            label={t('imports.review.only_errors')}
            applyLabel={t('imports.review.apply')}
          />
          <AppForm method="post" id="delete-form" preventScrollReset className="flex flex-wrap gap-2">
            {Object.entries(ref).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <Button
              type="submit"
              name="intent"
              value="delete"
              variant="secondary"
              disabled={busy}
              className="!py-1.5"
            >
              {t('imports.review.delete_selected')}
            </Button>
            {data.counts.with_errors > 0 ? (
              <ConfirmButton
                name="intent"
                value="delete_errored"
                disabled={busy}
                className={buttonClass('danger', '!py-1.5')}
                question={t('imports.review.confirm_delete_errored', { count: data.counts.with_errors })}
              >
                {t('imports.review.delete_errored', { count: data.counts.with_errors })}
              </ConfirmButton>
            ) : null}
          </AppForm>
        </div>
      </div>

      {data.counts.total === 0 ? (
        <Alert tone="info">{t('imports.review.empty')}</Alert>
      ) : data.rows.items.length === 0 && data.errorsOnly ? (
        <Alert tone="success">{t('imports.review.no_errors')}</Alert>
      ) : (
        <>
          <ReviewGrid
            rows={data.rows.items}
            fields={data.fields}
            editing={data.editing}
            countries={data.countries}
            deleteFormId="delete-form"
            hidden={ref}
            editErrors={editErrors}
          />
          <div className="mt-2 rounded-xl bg-white ring-1 ring-slate-200">
            <Pagination meta={data.rows.meta} />
          </div>
        </>
      )}

      <div className="mt-6 flex flex-wrap items-center gap-4">
        {data.counts.with_errors > 0 || data.counts.total === 0 ? (
          <>
            <Button disabled>{t('imports.review.continue')}</Button>
            {data.counts.with_errors > 0 ? (
              <p className="text-sm text-amber-800">
                {t('imports.review.blocked', { count: data.counts.with_errors })}
              </p>
            ) : null}
          </>
        ) : (
          <ButtonLink to={to(data.next)}>{t('imports.review.continue')}</ButtonLink>
        )}
        {params.get('errors_only') ? (
          <a
            href={to(`/insureds/review-applicants?${refQuery}`)}
            className="text-sm font-semibold text-primary-800 underline"
          >
            {t('imports.review.show_all')}
          </a>
        ) : null}
      </div>
    </div>
  );
}
