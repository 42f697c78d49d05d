import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { HTML_LANG, LANGUAGES, LANGUAGE_NAMES, localePath, splitLocale } from '~/i18n/config';
import { useRootData } from '~/root';
import { postDetached } from '~/components/ui/menu-form';
import { Icon } from './icons';

/**
 * Switches the interface language: a form post that remembers the choice (i18n_redirected cookie and
 * the user's profile) and reloads the same page under the new prefix.
 */
export function LanguageSwitcher({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { csrfToken } = useRootData();
  const { path } = splitLocale(location.pathname);
  const buttonTone =
    tone === 'dark'
      ? 'text-white hover:bg-white/10'
      : 'text-slate-700 hover:bg-slate-100 ring-1 ring-slate-300';
  return (
    <Menu as="div" className="relative">
      <MenuButton
        className={`flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium ${buttonTone}`}
      >
        <Icon name="globe" className="h-5 w-5" />
        <span className="sr-only">{t('shell.language')}: </span>
        {i18n.language.toUpperCase()}
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-1 w-48 rounded-lg bg-white py-1 text-sm text-slate-800 shadow-lg ring-1 ring-black/10 focus:outline-none"
      >
        {LANGUAGES.map((lng) => (
          <form key={lng} method="post" action="/actions/language">
            <input type="hidden" name="_csrf" value={csrfToken} />
            <input type="hidden" name="lang" value={lng} />
            <input type="hidden" name="redirect_to" value={localePath(lng, path + location.search)} />
            <MenuItem>
              <button
                type="submit"
                lang={HTML_LANG[lng]}
                data-lang={lng}
                onClick={postDetached}
                aria-current={lng === i18n.language ? 'true' : undefined}
                className={`flex w-full items-center justify-between px-4 py-2 text-left data-[focus]:bg-primary-50 ${lng === i18n.language ? 'font-semibold' : ''}`}
              >
                {LANGUAGE_NAMES[lng]}
                <span className="text-xs uppercase text-slate-500">{lng}</span>
              </button>
            </MenuItem>
          </form>
        ))}
      </MenuItems>
    </Menu>
  );
}
