import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { HTML_LANG, LANGUAGES, LANGUAGE_NAMES, localePath, splitLocale } from '~/i18n/config';
import { useRootData } from '~/root';
import { Popup } from '~/components/ui/popup';
import { useWithoutScripts } from '~/lib/hydrate';
import { Icon } from './icons';

/**
 * Switches the interface language: a form post that remembers the choice (i18n_redirected cookie and
 * the user's profile) and reloads the same page under the new prefix.
 *
 * A disclosure (ui/popup.tsx: a button that shows a list of choices, as navigation menus are built):
 * the choices stay plain forms. On a page served without scripts (the sign-in steps) the disclosure is a
 * `<details>` element, which opens and closes without JavaScript.
 */
export function LanguageSwitcher({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { csrfToken } = useRootData();
  const { path } = splitLocale(location.pathname);
  const withoutScripts = useWithoutScripts();
  const buttonTone =
    tone === 'dark'
      ? 'text-white hover:bg-white/10'
      : 'text-slate-700 hover:bg-slate-100 ring-1 ring-slate-300';
  const buttonClassName = `flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium ${buttonTone}`;
  const label = (
    <>
      <Icon name="globe" className="h-5 w-5" />
      <span className="sr-only">{t('shell.language')}: </span>
      {i18n.language.toUpperCase()}
    </>
  );
  const panelClassName =
    'absolute right-0 top-full z-50 mt-1 w-48 rounded-lg bg-white py-1 text-sm text-slate-800 shadow-lg ring-1 ring-black/10';
  const choices = (
    <ul>
      {LANGUAGES.map((lng) => (
        <li key={lng}>
          <form method="post" action="/actions/language">
            <input type="hidden" name="_csrf" value={csrfToken} />
            <input type="hidden" name="lang" value={lng} />
            <input type="hidden" name="redirect_to" value={localePath(lng, path + location.search)} />
            <button
              type="submit"
              lang={HTML_LANG[lng]}
              data-lang={lng}
              aria-current={lng === i18n.language ? 'true' : undefined}
              className={`flex w-full items-center justify-between px-4 py-2 text-left hover:bg-primary-50 focus:bg-primary-50 focus:outline-none ${lng === i18n.language ? 'font-semibold' : ''}`}
            >
              {LANGUAGE_NAMES[lng]}
              <span className="text-xs uppercase text-slate-500">{lng}</span>
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
  if (withoutScripts)
    return (
      <details className="relative [&_summary::-webkit-details-marker]:hidden">
        <summary className={`cursor-pointer list-none ${buttonClassName}`}>{label}</summary>
        <div className={panelClassName}>{choices}</div>
      </details>
    );
  return (
    <Popup kind="panel" buttonClassName={buttonClassName} button={label} panelClassName={panelClassName}>
      {() => choices}
    </Popup>
  );
}
