import type { ReactNode } from 'react';
import { useNavigation, useRouteLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { loader } from '~/routes/($lang)._main.clients.$id.campuses.$campusId';
import { Button } from '~/components/ui/button';

/** The campus page's layout route: its loader data (the campus, what the user may do) serves every tab. */
export const CAMPUS_ROUTE = 'routes/($lang)._main.clients.$id.campuses.$campusId';

export function useCampus() {
  return useRouteLoaderData<typeof loader>(CAMPUS_ROUTE)!;
}

/** The campus page's address without language prefix. */
export function campusBase(campus: { id: string; client: { id: string } }) {
  return `/clients/${campus.client.id}/campuses/${campus.id}`;
}

/** A tab form's Save button. */
export function SaveButton({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  return (
    <Button type="submit" disabled={busy}>
      {children ?? t('common.save')}
    </Button>
  );
}
