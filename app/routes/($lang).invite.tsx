import { json } from '@remix-run/cloudflare';
import { Outlet, useLoaderData, useLocation, useMatches } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { splitLocale } from '~/i18n/config';
import { INVITE_STEPS, type InviteStep } from '~/lib/invite';
import { constraintsOf, contactUsSchema } from '~/lib/schemas.server';
import { AuthLayout } from '~/components/auth/auth-layout';

/** The login-help contact form's browser checks (required, lengths, email). */
export const loader = () => json({ helpConstraint: constraintsOf(contactUsSchema) });

/** The invitation sign-up: the login layout with the step the person is on. */
export default function InviteRoutes() {
  const { t } = useTranslation();
  const { helpConstraint } = useLoaderData<typeof loader>();
  const { path } = splitLocale(useLocation().pathname);
  const index = INVITE_STEPS.indexOf(path.replace(/^\/invite\//, '').replace(/\/$/, '') as InviteStep);
  // An invalid invitation has no steps to show.
  const invalid = useMatches().some((m) => (m.data as { invalid?: boolean } | undefined)?.invalid);
  return (
    <AuthLayout helpConstraint={helpConstraint}>
      {index >= 0 && !invalid ? (
        <div className="mb-6">
          <p className="text-xs font-semibold uppercase tracking-wide text-primary-700">
            {t('invite.step', { current: index + 1, total: INVITE_STEPS.length })}
          </p>
          <div className="mt-2 flex gap-1.5" aria-hidden="true">
            {INVITE_STEPS.map((step, i) => (
              <span
                key={step}
                className={`h-1.5 flex-1 rounded-full ${i <= index ? 'bg-primary-700' : 'bg-slate-200'}`}
              />
            ))}
          </div>
        </div>
      ) : null}
      <Outlet />
    </AuthLayout>
  );
}
