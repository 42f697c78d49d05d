import { Form, Link, useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_START, importPlace, type ImportState } from '@server/domain/imports/steps';
import { localePath } from '~/i18n/config';
import { Button } from '~/components/ui/button';

export type ImportStep = 'upload' | 'match' | 'prepare' | 'review' | 'link' | 'leaders' | 'fees';
const STEPS: ImportStep[] = ['upload', 'match', 'prepare', 'review', 'link', 'leaders', 'fees'];

/**
 * The steps of a spreadsheet import with the current one marked. Steps already passed are links when
 * `links` gives their address (going back is safe: every step reads the same import or batch).
 */
export function ImportSteps({
  current,
  links = {},
  steps = STEPS,
  labels = 'imports.steps',
}: {
  current: ImportStep | (string & {});
  links?: Partial<Record<ImportStep | (string & {}), string>>;
  /** Another wizard's steps (the cancellation sheet's), with their labels under `labels`. */
  steps?: readonly string[];
  labels?: string;
}) {
  const { t, i18n } = useTranslation();
  const index = steps.indexOf(current);
  return (
    <nav aria-label={t(`${labels}.label`)} className="mb-6">
      <p className="text-sm font-medium text-primary-900 sm:hidden">
        {index + 1}/{steps.length} · {t(`${labels}.${current}`)}
      </p>
      <ol className="hidden flex-wrap gap-1.5 text-sm sm:flex">
        {steps.map((s, i) => {
          const state = i < index ? 'done' : i === index ? 'current' : 'next';
          const cls = `flex items-center gap-1.5 rounded-full px-2.5 py-1 font-medium ring-1 ring-inset ${
            state === 'current'
              ? 'bg-primary-800 text-white ring-primary-800'
              : state === 'done'
                ? 'bg-primary-50 text-primary-900 ring-primary-200'
                : 'bg-white text-slate-500 ring-slate-200'
          }`;
          const body = (
            <>
              <span aria-hidden="true" className="text-[10px] opacity-70">
                {i + 1}
              </span>
              {t(`${labels}.${s}`)}
            </>
          );
          const to = links[s];
          return (
            <li key={s} className="flex items-center gap-1.5">
              {to && state === 'done' ? (
                <Link to={localePath(i18n.language, to)} className={`${cls} hover:bg-primary-100`}>
                  {body}
                </Link>
              ) : (
                <span className={cls} aria-current={state === 'current' ? 'step' : undefined}>
                  {body}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** A progress bar with its value for screen readers. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={p}
      aria-label={label}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className="h-full rounded-full bg-primary-700 transition-[width] duration-500"
        style={{ width: `${p}%` }}
      />
    </div>
  );
}

const STATUS_TONES: Record<string, string> = {
  uploaded: 'bg-amber-50 text-amber-800 ring-amber-200',
  staging: 'bg-primary-50 text-primary-800 ring-primary-200',
  review: 'bg-green-50 text-green-800 ring-green-200',
  done: 'bg-slate-100 text-slate-700 ring-slate-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
};

export function ImportStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONES[status] ?? ''}`}
    >
      {t(`imports.status.${status}`)}
    </span>
  );
}

/** The page an import in progress continues on. */
export function importHref(i: {
  id: string;
  status: NonNullable<ImportState['import']>['status'];
  batch_id?: string | null;
}): string {
  const place = importPlace({
    import: { id: i.id, status: i.status },
    batch: i.batch_id ? { id: i.batch_id, status: 'draft' } : null,
  });
  return place?.path ?? ORDER_START;
}

/**
 * "Only show errors" of a review step (applicants, cancellation rows): a GET form that keeps the step's
 * own parameters (`keep`), sent as soon as the box changes, with an apply button without JavaScript.
 */
export function OnlyErrorsToggle({
  keep,
  checked,
  label,
  applyLabel,
}: {
  keep: Record<string, string>;
  checked: boolean;
  label: string;
  applyLabel: string;
}) {
  const submit = useSubmit();
  return (
    <Form method="get" className="flex items-center gap-2" preventScrollReset>
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          name="errors_only"
          value="1"
          defaultChecked={checked}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          className="h-4 w-4 rounded border-slate-300 text-primary-700"
        />
        {label}
      </label>
      <noscript>
        <Button type="submit" variant="secondary" className="!py-1.5">
          {applyLabel}
        </Button>
      </noscript>
    </Form>
  );
}
