import { useFetcher, useLocation, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';
import { useMessage } from '~/lib/messages';
import { useRootData } from '~/root';
import type { ActionAnswer } from '~/lib/actions';
import { CsrfInput, Field, TextAreaField } from '~/components/forms';
import { Icon } from '~/components/shell/icons';
import { Button, buttonClass } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { keepFocus } from './auth-actions';

// The dialog's code (Headless UI's dialog, focus trap and transitions: about a fifth of the sign-in
// pages' JavaScript) is loaded when someone first asks for help, not with every sign-in page.
const Dialog = lazy(() => import('~/components/ui/dialog').then((m) => ({ default: m.Dialog })));

type View = 'choices' | 'contact';

/**
 * Whether the help is open in place (`?help=`, the way without scripts): the page's own form then leaves
 * the first focus to the help's contact form.
 */
export function useHelpInPlace(): boolean {
  return useSearchParams()[0].has('help');
}
const FORM_ID = 'login-help-contact';
const ACTION = '/actions/contact-us';

const noop = () => () => {};
/** True once React runs in the browser; false on the server and during hydration. */
function useHydrated() {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

/**
 * The login-help dialog (spec 000 sections 2 and 4): a button opening the shared dialog with two
 * choices, the other regional portal or "Contact us", which reveals the contact form with Back and Send
 * message. After a send attempt, success or failure, the form is reset, the dialog closes and a message
 * says what happened.
 *
 * Without JavaScript the button is a link to `?help=1` (`?help=contact` for the form), which renders the
 * same content in place; the form then posts normally and comes back to the page with the outcome as a toast.
 */
export function LoginHelp({ constraint }: { constraint?: Constraints }) {
  const { t } = useTranslation();
  const m = useMessage();
  const location = useLocation();
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const fetcher = useFetcher<ActionAnswer>({ key: 'login-help-contact' });
  const urlView: View | null =
    params.get('help') === 'contact' ? 'contact' : params.has('help') ? 'choices' : null;
  // Until the person uses the button, a ?help= link decides (so such a link also opens the dialog).
  const [state, setState] = useState<{ open: boolean; view: View } | null>(null);
  const { open, view } = state ?? { open: !!urlView, view: urlView ?? 'choices' };
  const [formKey, setFormKey] = useState(0);
  // A refusal of the last send (a success is the toast the answer sets).
  const [notice, setNotice] = useState<{ error: string | null } | null>(null);
  // Once opened, the dialog stays mounted, so closing it plays its transition.
  const [mounted, setMounted] = useState(false);
  if (open && hydrated && !mounted) setMounted(true);

  useEffect(() => setNotice(null), [location.pathname]);
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    setNotice(fetcher.data.ok ? null : { error: fetcher.data.error });
    setFormKey((k) => k + 1);
    setState({ open: false, view: 'choices' });
  }, [fetcher.state, fetcher.data]);

  const href = (help: string | null) => {
    const next = new URLSearchParams(params);
    if (help) next.set('help', help);
    else next.delete('help');
    const search = next.toString();
    return `${location.pathname}${search ? `?${search}` : ''}`;
  };
  const sending = fetcher.state !== 'idle';
  const title = t('login_help.title');
  const buttonClasses =
    'text-sm font-medium text-white underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-white';

  const content =
    view === 'choices' ? (
      <Choices
        onContact={hydrated ? () => setState({ open: true, view: 'contact' }) : undefined}
        contactHref={href('contact')}
      />
    ) : (
      <ContactForm
        key={formKey}
        fetcher={hydrated ? fetcher : null}
        redirectTo={href(null)}
        constraint={constraint}
      />
    );
  const actions =
    view === 'contact' ? (
      <>
        {hydrated ? (
          <Button variant="secondary" onClick={() => setState({ open: true, view: 'choices' })}>
            {t('common.back')}
          </Button>
        ) : (
          <a href={href('1')} className={buttonClass('secondary')}>
            {t('common.back')}
          </a>
        )}
        <Button type="submit" form={FORM_ID} disabled={sending}>
          {sending ? t('login_help.sending') : t('login_help.send')}
        </Button>
      </>
    ) : null;

  return (
    <div className="space-y-4">
      {hydrated ? (
        <button
          type="button"
          className={buttonClasses}
          aria-haspopup="dialog"
          onMouseDown={keepFocus}
          onClick={() => {
            setNotice(null);
            setState({ open: true, view: 'choices' });
          }}
        >
          {t('login_help.button')}
        </button>
      ) : (
        <a href={href('1')} className={buttonClasses}>
          {t('login_help.button')}
        </a>
      )}
      {notice ? (
        <div className="text-left">
          <Alert tone="error">{m(notice.error) || t('login_help.failed')}</Alert>
        </div>
      ) : null}
      {hydrated ? (
        mounted || open ? (
          <Suspense fallback={null}>
            <Dialog
              open={open}
              onClose={() => setState({ open: false, view: 'choices' })}
              title={title}
              actions={actions}
            >
              {content}
            </Dialog>
          </Suspense>
        ) : null
      ) : urlView ? (
        // No JavaScript: the dialog's content in place, as a card.
        <section aria-label={title} className="rounded-xl bg-white text-left shadow-xl">
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
            <a
              href={href(null)}
              className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100"
              aria-label={t('common.close')}
            >
              <Icon name="close" className="h-5 w-5" />
            </a>
          </div>
          <div className="px-6 py-5">{content}</div>
          {actions ? (
            <div className="flex justify-end gap-3 border-t border-slate-200 px-6 py-4">{actions}</div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

function Choices({ onContact, contactHref }: { onContact?: () => void; contactHref: string }) {
  const { t, i18n } = useTranslation();
  const { region, otherRegionUrl } = useRootData();
  const otherLogin = `${otherRegionUrl.replace(/\/$/, '')}${localePath(i18n.language, '/auth/login')}`;
  const card =
    'flex w-full items-start gap-4 rounded-lg p-4 text-left ring-1 ring-slate-200 transition hover:bg-primary-50 hover:ring-primary-300';
  const contactBody: ReactNode = (
    <>
      <Icon name="mail" className="mt-0.5 h-6 w-6 shrink-0 text-primary-700" />
      <span>
        <span className="block font-semibold text-slate-900">{t('login_help.contact_us')}</span>
        <span className="mt-0.5 block text-sm text-slate-600">{t('login_help.contact_hint')}</span>
      </span>
    </>
  );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">{t('login_help.intro')}</p>
      <a href={otherLogin} className={card}>
        <Icon name="switch" className="mt-0.5 h-6 w-6 shrink-0 text-primary-700" />
        <span>
          <span className="block font-semibold text-slate-900">
            {t(region === 'uk' ? 'login_help.go_to_ie' : 'login_help.go_to_uk')}
          </span>
          <span className="mt-0.5 block text-sm text-slate-600">{t('login_help.other_region_hint')}</span>
        </span>
      </a>
      {onContact ? (
        <button type="button" onClick={onContact} className={card}>
          {contactBody}
        </button>
      ) : (
        <a href={contactHref} className={card}>
          {contactBody}
        </a>
      )}
    </div>
  );
}

function ContactForm({
  fetcher,
  redirectTo,
  constraint,
}: {
  fetcher: ReturnType<typeof useFetcher<ActionAnswer>> | null;
  redirectTo: string;
  constraint?: Constraints;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm({
    id: FORM_ID,
    schema: () => import('@server/domain/auth/schema').then((m) => m.contactUsSchema),
    // Without JavaScript the browser's own checks block sending until the form is valid.
    defaultNoValidate: false,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const body = (
    <>
      <CsrfInput />
      <p className="text-sm text-slate-600">{t('login_help.contact_intro')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t('login_help.first_name')}
          field={fields.first_name}
          inputProps={{ autoComplete: 'given-name', autoFocus: true }}
        />
        <Field
          label={t('login_help.last_name')}
          field={fields.last_name}
          inputProps={{ autoComplete: 'family-name' }}
        />
      </div>
      <Field
        label={t('login_help.email')}
        field={fields.email}
        type="email"
        inputProps={{ autoComplete: 'email' }}
      />
      <TextAreaField label={t('login_help.reason')} field={fields.reason} rows={4} />
    </>
  );
  const props = { ...getFormProps(form), method: 'post' as const, action: ACTION, className: 'space-y-4' };
  return fetcher ? (
    <fetcher.Form {...props}>{body}</fetcher.Form>
  ) : (
    <form {...props}>
      <input type="hidden" name="redirect_to" value={redirectTo} />
      {body}
    </form>
  );
}
