import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { Logo } from '~/components/shell/icons';
import { Footer, Watermark } from '~/components/shell/footer';

/** A legal document (privacy, cookies, terms): readable without signing in, opened from every footer. */
export function LegalPage({ doc, sections }: { doc: 'privacy' | 'cookies' | 'terms'; sections: number }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex min-h-full flex-col bg-slate-100">
      <header className="flex items-center gap-3 bg-primary-800 px-4 py-3 text-white sm:px-8">
        <Link to={localePath(i18n.language, '/')} className="flex items-center gap-3">
          <Logo className="h-8 w-8" />
          <span className="font-bold">{t('app.name')}</span>
        </Link>
      </header>
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-8 sm:px-8">
        <article className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
          <h1 className="text-3xl font-bold tracking-tight">{t(`legal.${doc}.title`)}</h1>
          <p className="mt-2 text-sm text-slate-500">{t('legal.updated', { date: '21 Nov 2026' })}</p>
          <p className="mt-6 text-slate-700">{t(`legal.${doc}.intro`)}</p>
          {Array.from({ length: sections }, (_, i) => i + 1).map((n) => (
            <section key={n} className="mt-6">
              <h2 className="text-lg font-semibold">{t(`legal.${doc}.s${n}_title`)}</h2>
              <p className="mt-2 leading-relaxed text-slate-700">{t(`legal.${doc}.s${n}_body`)}</p>
            </section>
          ))}
        </article>
      </main>
      <Footer />
      <Watermark />
    </div>
  );
}
