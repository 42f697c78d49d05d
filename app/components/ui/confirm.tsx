/**
 * Asking before a destructive or money-moving operation (docs/page-kit.md, "A confirmation step"). The
 * operation's intent declares the question (`confirm` in the action kit), so a post without
 * `confirmed=1` does nothing and answers it:
 * - without JavaScript the shell shows that answer as a step in place of the page (ConfirmStep): the
 *   question, "Confirm" (the same fields again, with `confirmed=1`) and "Back";
 * - with JavaScript the button that sends the form (ConfirmButton) asks in a dialog first and sends
 *   `confirmed=1` at once, so the step is never needed.
 */
import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PendingConfirmation } from '~/lib/actions';
import { useMessage } from '~/lib/messages';
import { AppForm } from '~/components/fields';
import { buttonClass } from './button';

/** The field a confirmed post carries (the action kit's CONFIRMED). */
const CONFIRMED = 'confirmed';

type Tone = 'danger' | 'primary';

/**
 * The question in the browser: a native modal dialog (the page behind is inert, focus stays in it, Escape
 * closes it), as the phone drawer is, rather than a dialog library on every page that confirms.
 */
function ConfirmDialog({
  question,
  confirmLabel,
  tone,
  onConfirm,
  onClose,
}: {
  question: ReactNode;
  confirmLabel: string;
  tone: Tone;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-question`}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-white p-0 text-left text-sm font-normal text-slate-800 shadow-xl backdrop:bg-slate-900/50"
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="px-6 pb-4 pt-5">
        <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {t('confirm.title')}
        </h2>
        <p id={`${id}-question`} className="mt-2 whitespace-pre-line text-slate-700">
          {question}
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 px-6 py-4">
        <button type="button" className={buttonClass('secondary')} onClick={onClose} autoFocus>
          {t('confirm.back')}
        </button>
        <button type="button" className={buttonClass(tone)} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export type ConfirmButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  /**
   * The question, naming what the operation acts on (the page's wording of the intent's own question), or
   * one made from the form as it is filled in (an amount, a date).
   */
  question: string | ((form: HTMLFormElement) => string);
  /** The text of the dialog's button that acts; the button's own text when absent. */
  confirmLabel?: string;
  /** The look of the dialog's button that acts: 'danger' (the default) or 'primary' (money moved as asked). */
  tone?: Tone;
};

/**
 * A submit button whose intent asks before acting. Without JavaScript it is a plain submit button (the
 * server answers with its confirmation step); with JavaScript it opens the question in a dialog and, once
 * confirmed, sends its form as it would have (its own name, value and formAction) with `confirmed=1`.
 */
export function ConfirmButton({
  question,
  confirmLabel,
  tone = 'danger',
  onClick,
  children,
  ...button
}: ConfirmButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  useEffect(() => {
    // Sent once the hidden `confirmed` field is in the form, through the form's own submit (Remix's Form
    // or a document post), with this button as the submitter.
    if (!confirmed) return;
    const self = ref.current;
    self?.form?.requestSubmit(self);
    setConfirmed(false);
  }, [confirmed]);
  return (
    <>
      <button
        ref={ref}
        type="submit"
        {...button}
        onClick={(e) => {
          onClick?.(e);
          if (e.defaultPrevented) return;
          const form = e.currentTarget.form;
          if (!form) return;
          e.preventDefault();
          setAsking(typeof question === 'function' ? question(form) : question);
        }}
      >
        {children}
      </button>
      {confirmed ? <input type="hidden" name={CONFIRMED} value="1" form={button.form} /> : null}
      {asking !== null ? (
        <ConfirmDialog
          question={asking}
          confirmLabel={confirmLabel ?? (typeof children === 'string' ? children.replace(/…$/, '') : '')}
          tone={tone}
          onClose={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            setConfirmed(true);
          }}
        />
      ) : null}
    </>
  );
}

/**
 * The confirmation step a post without `confirmed=1` answers (the shell shows it in place of the page):
 * the question, "Confirm" posting the same fields again with `confirmed=1`, and "Back" to the page. A
 * file that was chosen is asked for again: a browser cannot send it twice.
 */
export function ConfirmStep({ confirmation: c }: { confirmation: PendingConfirmation }) {
  const { t } = useTranslation();
  const m = useMessage();
  return (
    <section
      className="mx-auto max-w-xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      aria-labelledby="confirm-step-title"
      data-testid="confirm-step"
    >
      <h1
        id="confirm-step-title"
        className="text-xl font-semibold text-slate-900 focus:outline-none"
        tabIndex={-1}
        autoFocus
      >
        {t('confirm.title')}
      </h1>
      <p className="mt-3 whitespace-pre-line text-slate-700">{m(c.question)}</p>
      <AppForm
        method="post"
        action={c.action}
        encType={c.files.length ? 'multipart/form-data' : undefined}
        className="mt-6 space-y-4"
      >
        {c.fields.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CONFIRMED} value="1" />
        {c.files.map((f) => (
          <div key={f.name}>
            <label
              htmlFor={`confirm-file-${f.name}`}
              className="mb-1.5 block text-sm font-medium text-slate-700"
            >
              {t('confirm.file_again', { file: f.file })}
            </label>
            <input id={`confirm-file-${f.name}`} type="file" name={f.name} className="block text-sm" />
          </div>
        ))}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={buttonClass(c.tone)}>
            {m(c.button)}
          </button>
          <a href={c.back} className={buttonClass('secondary')}>
            {t('confirm.back')}
          </a>
        </div>
      </AppForm>
    </section>
  );
}
