import type { ReactNode } from 'react';
import { useRouteLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { SubmissionResult } from '@conform-to/react';
import type { loader } from '~/routes/($lang)._main.clients.$id._tabs';
import { FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';

/** The client page's layout route: its loader data (the client, what the user may do) serves every tab. */
export const CLIENT_ROUTE = 'routes/($lang)._main.clients.$id._tabs';

export function useClient() {
  return useRouteLoaderData<typeof loader>(CLIENT_ROUTE)!;
}

export type ClientPageData = ReturnType<typeof useClient>;

const SAVE_FAILED = 'clients.save_failed';

/**
 * The errors above a client form: after a refused save, 'Unable to save the client!' (spec 001 s.8)
 * first, then the form's own.
 */
export function saveErrors(
  answer: { intent: string | null; submission: SubmissionResult<string[]> | null } | null | undefined,
  errors: string[] | undefined,
  /** The form's intent, on a page with several forms. */
  intent?: string,
): string[] | undefined {
  if (!answer || answer.submission?.status !== 'error') return errors;
  if (intent !== undefined && answer.intent !== intent) return errors;
  return [SAVE_FAILED, ...(errors ?? []).filter((e) => e !== SAVE_FAILED)];
}

/** A card holding one edit form of a client tab: its title, errors, fields and Save button. */
export function EditCard({
  intent,
  title,
  children,
  busy,
  errors,
}: {
  intent: string;
  title: string;
  children: ReactNode;
  busy: boolean;
  errors?: string[];
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">{title}</h2>
      {/* The intent travels with every post of the form, "Add another" and "Remove" included. */}
      <input type="hidden" name="intent" value={intent} />
      {/* Enter in a field saves this card (the form's first submit button), not "Add another" or "Remove". */}
      <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
      <div className="mb-4">
        <FormErrors errors={errors} />
      </div>
      {children}
      <div className="mt-6 flex justify-end">
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </div>
    </Card>
  );
}
