/**
 * The one date field: a text field that shows and takes a day as every page writes it, DD/MM/YYYY
 * (docs/decisions/platform.md, "One date format"), rather than the browser's own date input, which draws
 * the order of the browser's language (MM/DD/YYYY in many) whatever the page says.
 *
 * - Without scripts it is a plain text field: numeric keyboard on a phone, the shape checked by the
 *   browser (`pattern`), and the form's schema reads it into YYYY-MM-DD on the server
 *   (workers/domain/typed-days.ts), with a message for a day that does not exist.
 * - A stored day (YYYY-MM-DD) is shown as DD/MM/YYYY; anything else as it was typed, so a refused form
 *   loses nothing.
 * - With scripts a button beside it opens a month grid (calendar.tsx) to pick a day with the mouse or
 *   the keyboard.
 *
 * `Field type="date"` renders it, so does the filters bar (`FilterDate`, `compact`: the format as a
 * placeholder instead of a hint under the field, which a bar of filters has no room for).
 */
import { forwardRef, useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { DAY_INPUT_PATTERN } from '@server/domain/formats';
import { Hint, Input } from '~/components/fields';
import { britishDate } from '~/lib/dates';
import { Calendar } from './calendar';

export type DateInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'defaultValue' | 'value'
> & {
  id: string;
  /** A stored day (YYYY-MM-DD, shown DD/MM/YYYY) or what was typed (shown as it is). */
  defaultValue?: string | number | readonly string[];
  /** The format as the field's placeholder, read out as its description, instead of a hint under it. */
  compact?: boolean;
  /** Classes of the text field itself (`className` is the field with its button and hint). */
  inputClassName?: string;
};

/** A stored day as the field shows it; text that is not one as it was typed. */
export function shownDay(value: unknown): string {
  if (typeof value !== 'string') return '';
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? britishDate(value) : value;
}

export const DateInput = forwardRef<HTMLInputElement, DateInputProps>(function DateInput(
  { id, defaultValue, compact = false, className = '', inputClassName = '', ...props },
  ref,
) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement | null>(null);
  const [scripts, setScripts] = useState(false);
  useEffect(() => setScripts(true), []);
  const hintId = `${id}-format`;
  // A message about the field first (Conform's, when it has one), then the format.
  const describedBy = [props['aria-describedby'], hintId].filter(Boolean).join(' ');

  return (
    <div className={`relative ${className}`}>
      <div className="flex gap-2">
        <Input
          {...props}
          ref={(el) => {
            input.current = el;
            if (typeof ref === 'function') ref(el);
            else if (ref) ref.current = el;
          }}
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          pattern={DAY_INPUT_PATTERN}
          placeholder={compact ? t('common.date.placeholder') : undefined}
          defaultValue={shownDay(defaultValue)}
          aria-describedby={describedBy}
          className={`min-w-0 flex-1 ${inputClassName}`}
        />
        {scripts ? <Calendar input={input} disabled={props.disabled || props.readOnly} /> : null}
      </div>
      {compact ? (
        <span id={hintId} className="sr-only">
          {t('common.date.hint')}
        </span>
      ) : (
        <Hint id={hintId}>{t('common.date.hint')}</Hint>
      )}
    </div>
  );
});
