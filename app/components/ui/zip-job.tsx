/**
 * The page of a ZIP being built by a queued job (the insureds' documents, the selected invoices): a
 * progress bar while it runs (asked again every second; without JavaScript the page refreshes itself),
 * the download once it is done, the job's message when it failed. Leaving is safe: the job goes on.
 *
 * The texts come from one key prefix (`area.zip`): `progress_title`, `ready_title`, `download_zip`,
 * `back`, `queued`, `progress`, `leave`, and `failed_title` (the heading of a failed job) when the area
 * has one.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { ProgressBar } from '~/components/imports/import-bits';
import { ButtonLink, buttonClass } from './button';
import { Alert, Card, PageHeader } from './card';
import { RefreshWhile } from './refresh-while';

export type ZipJobView = {
  status: string;
  done: number;
  total: number;
  percent: number;
  message: string | null;
};

/** A ZIP's size as a person reads it (at least 1 KB). */
export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export function ZipJobPage({
  job,
  keys,
  summary,
  downloadPath,
  backPath,
}: {
  job: ZipJobView;
  /** The texts' key prefix, e.g. 'invoices.zip'. */
  keys: string;
  /** What the finished ZIP holds (shown above its download). */
  summary: ReactNode;
  downloadPath: string;
  backPath: string;
}) {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const running = job.status === 'queued' || job.status === 'running';
  const to = (path: string) => localePath(i18n.language, path);
  const back = (
    <ButtonLink to={to(backPath)} variant="secondary">
      {t(`${keys}.back`)}
    </ButtonLink>
  );
  return (
    <div className="mx-auto max-w-3xl">
      <RefreshWhile running={running} />
      <PageHeader
        title={t(
          job.status === 'done'
            ? `${keys}.ready_title`
            : job.status === 'failed' && i18n.exists(`${keys}.failed_title`)
              ? `${keys}.failed_title`
              : `${keys}.progress_title`,
        )}
      />
      <Card>
        {job.status === 'done' ? (
          <div className="space-y-5">
            <p className="text-sm text-slate-700" data-testid="zip-summary">
              {summary}
            </p>
            <div className="flex flex-wrap gap-3">
              <a href={to(downloadPath)} className={buttonClass('primary')} download>
                {t(`${keys}.download_zip`)}
              </a>
              {back}
            </div>
          </div>
        ) : job.status === 'failed' ? (
          <div className="space-y-5">
            <Alert>{m(job.message)}</Alert>
            {back}
          </div>
        ) : (
          <div className="space-y-4" aria-live="polite">
            <ProgressBar percent={job.percent} label={t(`${keys}.progress_title`)} />
            <p className="text-sm font-medium text-slate-900">
              {job.done === 0 && job.status === 'queued'
                ? t(`${keys}.queued`)
                : t(`${keys}.progress`, { done: job.done, total: job.total })}
            </p>
            <p className="text-sm text-slate-600">{t(`${keys}.leave`)}</p>
          </div>
        )}
      </Card>
    </div>
  );
}
