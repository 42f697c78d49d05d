import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import { pageTitle } from '~/lib/meta';
import { APP_VERSION } from '~/lib/navigation';
import { Card, PageHeader } from '~/components/ui/card';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    load({ request, context }) {
      return { title: pageTitle(context, request, 'release_notes.title') };
    },
  })(args);

const RELEASES = [
  { version: APP_VERSION, key: 'v1_0_0', items: ['signin', 'shell', 'languages', 'regions', 'account'] },
];

/** What changed in each version; the menu's version link opens it. */
export default function ReleaseNotes() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('release_notes.title')} description={t('release_notes.intro')} />
      {RELEASES.map((r) => (
        <Card key={r.version} className="mb-4">
          <h2 className="flex items-baseline justify-between text-lg font-semibold">
            {r.version}
            <span className="text-sm font-normal text-slate-500">{t(`release_notes.${r.key}_date`)}</span>
          </h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-700">
            {r.items.map((i) => (
              <li key={i}>{t(`release_notes.${r.key}_items.${i}`)}</li>
            ))}
          </ul>
        </Card>
      ))}
    </div>
  );
}
