import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';

/**
 * "View as" for a user's row or page (the users screens): shown to those who may open a support view
 * (workers/domain/access/support.ts), for school users only. It leads to the start page, which confirms.
 */
export function ViewAsLink({
  user,
  className = 'text-sm font-medium text-primary-800 hover:underline',
}: {
  user: { id: string; user_type: string; first_name: string; last_name: string };
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const { user: me } = useRootData();
  if (!me?.can_support_view || user.user_type !== 'school') return null;
  return (
    <Link
      to={localePath(i18n.language, `/support/view-as/${user.id}`)}
      className={className}
      title={t('support.view_link_label', { name: `${user.first_name} ${user.last_name}` })}
      data-testid="view-as-link"
    >
      {t('support.view_link')}
    </Link>
  );
}
