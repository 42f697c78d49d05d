/** The file field of a message: several files, the kinds and the size limit said beside it. */
import { useTranslation } from 'react-i18next';
import { ErrorList, Label } from '~/components/forms';

export const ATTACHMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.docx,.xlsx,.csv';

export function AttachmentsInput({
  id,
  errors,
  limits,
}: {
  id: string;
  errors?: string[];
  /** From the page's loader: at most `files` files of `mb` MB each. */
  limits: { files: number; mb: number };
}) {
  const { t } = useTranslation();
  return (
    <div>
      <Label htmlFor={id}>{t('conversations.fields.attachments')}</Label>
      <input
        id={id}
        type="file"
        name="attachments"
        multiple
        accept={ATTACHMENT_ACCEPT}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-hint`}
        data-testid="attachments"
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {t('conversations.attachments_hint', { count: limits.files, mb: limits.mb })}
      </p>
      <ErrorList errors={errors} />
    </div>
  );
}
