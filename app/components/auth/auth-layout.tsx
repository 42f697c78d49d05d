import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';
import { Logo } from '~/components/shell/icons';
import { Footer, Watermark } from '~/components/shell/footer';
import { LanguageSwitcher } from '~/components/shell/language-switcher';
import { FlowToast } from '~/components/ui/snackbar';
import type { Constraints } from '~/lib/schema-form';
import { LoginHelp } from './login-help';

/** The login layout: header logo, the "Having Trouble Accessing The System?" button when signed out, footer. */
export function AuthLayout({
  children,
  helpConstraint,
}: {
  children: ReactNode;
  /** The contact form's browser checks: `constraintsOf(contactUsSchema)` from the layout's loader. */
  helpConstraint?: Constraints;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useRootData();
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-br from-primary-900 via-primary-800 to-primary-700">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <Link to={localePath(i18n.language, '/')} className="flex items-center gap-3 text-white">
          <Logo className="h-10 w-10" />
          <span className="text-xl font-bold tracking-tight">{t('app.name')}</span>
        </Link>
        <LanguageSwitcher />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center">
        <div className="w-full max-w-md">
          <div className="rounded-2xl bg-white px-6 py-8 shadow-2xl sm:px-10">{children}</div>
          {!user ? (
            <div className="mt-6 text-center">
              <LoginHelp constraint={helpConstraint} />
            </div>
          ) : null}
        </div>
      </main>
      <Footer />
      <Watermark />
    </div>
  );
}

export function AuthHeading({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
      <FlowToast className="mt-4" />
    </div>
  );
}
