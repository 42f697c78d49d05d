/**
 * The Documents tab of the insured page (spec 001 s.2 "Insured detail: Documents"): the insurance card
 * and the certificate of the policy's current version (made on first download, with their version and
 * date), the documents of the insured's product, and the earlier versions (listed for the record, never
 * served again). A link takes the insured to the documents ZIP page.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_PERMISSION, listPolicyDocuments } from '~/lib/policy-documents.server';
import { KIND_SEGMENTS } from '@server/domain/policy-documents/values';
import { formatDate, formatDateTime } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card } from '~/components/ui/card';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    otherwise: '/insureds',
    params: idSchema,
    async load({ ctx, request, context, params }) {
      return {
        title: pageTitle(context, request, 'policy_documents.tab.title'),
        documents: await listPolicyDocuments(ctx, params.id),
      };
    },
  })(args);

const sizeText = (bytes: number | null) =>
  bytes === null
    ? ''
    : bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export default function InsuredDocuments() {
  const { t, i18n } = useTranslation();
  const { documents } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const base = `/insureds/${documents.policy.id}`;
  const available = documents.policy.status !== 'cancelled';
  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 className="text-base font-semibold text-slate-900">{t('policy_documents.tab.current')}</h2>
            <p className="mt-1 text-sm text-slate-600">{t('policy_documents.tab.current_hint')}</p>
          </div>
          {available ? (
            <ButtonLink to={to(`/insureds/documents?ids=${documents.policy.id}`)} variant="secondary">
              {t('policy_documents.bulk.title')}
            </ButtonLink>
          ) : null}
        </div>
        {!available ? (
          <div className="mt-4">
            <Alert tone="info">{t('policy_documents.tab.cancelled')}</Alert>
          </div>
        ) : null}
        <ul className="mt-4 divide-y divide-slate-100" data-testid="current-documents">
          {documents.current.map((d) => (
            <li key={d.kind} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{t(`policy_documents.kinds.${d.kind}`)}</p>
                <p className="text-sm text-slate-600">
                  {t('policy_documents.tab.version', { version: d.version })} ·{' '}
                  {d.created_at
                    ? t('policy_documents.tab.made_on', { date: formatDateTime(d.created_at) })
                    : t('policy_documents.tab.not_made')}
                </p>
              </div>
              {available ? (
                <a
                  href={to(`${base}/${KIND_SEGMENTS[d.kind]}.pdf`)}
                  className={buttonClass('primary', 'py-1.5')}
                  download
                  aria-label={t('policy_documents.tab.download_named', {
                    name: t(`policy_documents.kinds.${d.kind}`),
                  })}
                >
                  {t('policy_documents.tab.download')}
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">
          {t('policy_documents.tab.product_documents')}
        </h2>
        {documents.product_documents.length ? (
          <ul className="mt-3 divide-y divide-slate-100">
            {documents.product_documents.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="break-words font-medium text-slate-900">{d.title}</p>
                  <p className="text-sm text-slate-600">
                    {d.type} · {d.language.toUpperCase()} · {sizeText(d.size)}
                  </p>
                </div>
                {available ? (
                  <a
                    href={to(`${base}/product-documents/${d.id}`)}
                    className={buttonClass('secondary', 'py-1.5')}
                    download
                    aria-label={t('policy_documents.tab.download_named', { name: d.title })}
                  >
                    {t('policy_documents.tab.download')}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-600">{t('policy_documents.tab.no_product_documents')}</p>
        )}
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">{t('policy_documents.tab.earlier')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('policy_documents.tab.earlier_hint')}</p>
        {documents.earlier_versions.length ? (
          <ul className="mt-3 divide-y divide-slate-100" data-testid="earlier-documents">
            {documents.earlier_versions.map((d) => (
              <li key={d.id} className="flex flex-wrap justify-between gap-2 py-2.5 text-sm">
                <span className="font-medium text-slate-800">
                  {t(`policy_documents.kinds.${d.kind}`)} ·{' '}
                  {t('policy_documents.tab.version', { version: d.version })}
                </span>
                <span className="text-slate-600">
                  {formatDate(d.created_at)} · {sizeText(d.size)}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-600">{t('policy_documents.tab.no_earlier')}</p>
        )}
      </Card>
    </div>
  );
}
