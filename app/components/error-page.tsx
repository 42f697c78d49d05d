import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { buttonClass } from '~/components/ui/button';

/** 404 "Page Not Found!", 503 maintenance, anything else "Oops!" / "Something Went Wrong!". */
export function ErrorPage({ status }: { status: number }) {
  const { t, i18n } = useTranslation();
  const home = localePath(i18n.language, '/home');
  const title = status === 404 ? t('error.not_found_title') : status === 503 ? '503' : t('error.oops');
  const text =
    status === 404
      ? t('error.not_found')
      : status === 503
        ? t('error.maintenance')
        : t('error.something_wrong');
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-100 px-4 py-16">
      <title>{`${title} - ${t('app.portal_title')}`}</title>
      <div className="w-full max-w-lg rounded-2xl bg-white px-8 py-12 text-center shadow-sm ring-1 ring-slate-200">
        <p className="text-6xl font-black text-primary-800">{status}</p>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-600">{text}</p>
        {status !== 503 ? (
          <a href={home} className={buttonClass('primary', 'mt-8')}>
            {t('error.go_home')}
          </a>
        ) : null}
      </div>
    </main>
  );
}
