/**
 * /documents, "My Documents" (spec 000 s.2): every file the user may download in one list, searched and
 * filtered by kind and language: product documents, insureds' cards and certificates, invoices, statements
 * of account and service agreements' documents. Each link is the file's own download in its area
 * (workers/domain/documents/service.ts says which).
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { MY_DOCUMENT_KINDS, MY_DOCUMENT_LANGUAGES } from '@server/domain/documents/values';
import { listMyDocuments, MY_DOCUMENTS_PERMISSION } from '~/lib/documents.server';
import { myDocumentsQuerySchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { localePath } from '~/i18n/config';
import { buttonClass } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { EmptyState, FilterSearch, FilterSelect, FiltersBar } from '~/components/ui/list-controls';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MY_DOCUMENTS_PERMISSION,
    query: myDocumentsQuerySchema,
    async load({ ctx, request, context, query }) {
      return {
        title: pageTitle(context, request, 'my_documents.title'),
        list: await listMyDocuments(ctx, query),
      };
    },
  })(args);

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function MyDocuments() {
  const { t, i18n } = useTranslation();
  const { list } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const typeOf = (r: Row) => {
    if (!r.type) return null;
    if (r.kind === 'product') return t(`products.document_types.${r.type}`, { defaultValue: r.type });
    if (r.kind === 'invoice') return t(`invoices.types.${r.type}`);
    if (r.kind === 'insured') return r.type;
    return null;
  };
  const subtitle = (r: Row) =>
    r.kind === 'statement' ? [t('my_documents.statement'), r.detail].filter(Boolean).join(' · ') : r.detail;
  const columns: Column<Row>[] = [
    {
      key: 'document',
      card: 'title',
      header: t('my_documents.columns.document'),
      render: (r) => (
        <span className="block min-w-0">
          <span className="block break-words font-medium text-slate-900">{r.title}</span>
          {subtitle(r) ? <span className="block text-xs text-slate-500">{subtitle(r)}</span> : null}
        </span>
      ),
    },
    {
      key: 'kind',
      card: 'status',
      header: t('my_documents.columns.kind'),
      render: (r) => (
        <span className="inline-flex whitespace-nowrap rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
          {t(`my_documents.kinds.${r.kind}`)}
        </span>
      ),
    },
    {
      key: 'about',
      card: 'figure',
      header: t('my_documents.columns.about'),
      render: (r) =>
        [typeOf(r), r.language ? t(`products.languages.${r.language}`) : null].filter(Boolean).join(' · ') ||
        '—',
    },
    {
      key: 'date',
      card: 'figure',
      header: t('my_documents.columns.date'),
      className: 'whitespace-nowrap',
      render: (r) => <time dateTime={r.date}>{formatDate(r.date)}</time>,
    },
    {
      key: 'download',
      card: 'actions',
      header: t('my_documents.columns.download'),
      render: (r) => (
        <span className="flex flex-wrap gap-2 lg:flex-nowrap">
          {r.links.map((l) => (
            <a
              key={l.href}
              href={to(l.href)}
              download
              className={buttonClass('secondary', 'py-1 text-xs')}
              aria-label={t('my_documents.download_named', {
                file: t(`my_documents.files.${l.file}`),
                name: r.title,
              })}
            >
              {t(`my_documents.files.${l.file}`)}
            </a>
          ))}
        </span>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('my_documents.title')} description={t('my_documents.intro')} />
      <FiltersBar>
        <FilterSearch label={t('my_documents.search')} placeholder={t('my_documents.search_placeholder')} />
        <FilterSelect
          name="kind"
          label={t('my_documents.kind')}
          any={t('my_documents.any_kind')}
          options={MY_DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`my_documents.kinds.${k}`) }))}
        />
        <FilterSelect
          name="language"
          label={t('my_documents.language')}
          any={t('my_documents.any_language')}
          options={MY_DOCUMENT_LANGUAGES.map((l) => ({ value: l, label: t(`products.languages.${l}`) }))}
        />
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        caption={t('my_documents.title')}
        empty={<EmptyState message={t('my_documents.empty')} />}
      />
    </div>
  );
}
