import { useTranslation } from 'react-i18next';

/** Placeholder-free stub replaced below by the full dialog. */
export function LoginHelp() {
  const { t } = useTranslation();
  return <span className="text-sm text-white">{t('login_help.button')}</span>;
}
