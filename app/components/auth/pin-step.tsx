import { Link, useActionData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { answerOf } from '~/lib/actions';
import { useSchemaForm, type SchemaFormOptions } from '~/lib/schema-form';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthActions } from './auth-actions';
import { useHelpInPlace } from './login-help';
import { AuthHeading } from './auth-layout';

/** What a PIN page's action hands back when a new PIN was sent (see pinStepIntents). */
export interface PinStepData {
  resent: boolean;
}

/**
 * The one PIN step (sign-in, the reset of a password, the invitation's email and phone): the PIN field,
 * the verify button, "send a new PIN" and a way back. The page's action is an intentAction with
 * `pinStepIntents` (verify and resend).
 */
export function PinStep({
  title,
  subtitle,
  resentNotice,
  submitLabel,
  back,
  constraint,
}: {
  /** The PIN field's browser checks: the page's loader sends `constraintsOf(pinSchema)`. */
  constraint: SchemaFormOptions<never>['constraint'];
  title: string;
  subtitle: string;
  /** Said after a new PIN was sent. */
  resentNotice: string;
  /** The verify button (defaults to "Verify"). */
  submitLabel?: string;
  /** The link under the form: start again, use another address, change the phone... */
  back: { to: string; label: string };
}) {
  const { t } = useTranslation();
  const helpInPlace = useHelpInPlace();
  const answer = answerOf<PinStepData>(useActionData());
  const [form, fields] = useSchemaForm({
    id: 'pin-step',
    // The browser's own checks apply until scripts run (for ever on the sign-in PIN page, which has none).
    defaultNoValidate: false,
    schema: () => import('@server/domain/auth/schema').then((m) => m.pinSchema),
    // A refused resend (too many PINs asked for, say) is the form's error too.
    lastResult: answer?.submission,
    constraint,
    // Validate on submit, then as the user types: an error appearing on blur would move the links
    // under the field away from a click in progress.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading title={title} subtitle={subtitle} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {answer?.intent === 'resend' && answer.ok && answer.data?.resent ? (
          <Alert tone="success">{resentNotice}</Alert>
        ) : null}
        <FormErrors errors={form.errors} />
        <Field
          label={t('auth.pin')}
          field={fields.pin}
          inputProps={{
            inputMode: 'numeric',
            autoComplete: 'one-time-code',
            maxLength: 6,
            autoFocus: !helpInPlace,
          }}
        />
        <Button type="submit" name="intent" value="verify" className="w-full">
          {submitLabel ?? t('auth.verify')}
        </Button>
      </AppForm>
      <AuthActions>
        <AppForm method="post">
          <button
            type="submit"
            name="intent"
            value="resend"
            className="font-medium text-primary-700 hover:underline"
          >
            {t('auth.resend_pin')}
          </button>
        </AppForm>
        <Link to={back.to} className="font-medium text-primary-700 hover:underline">
          {back.label}
        </Link>
      </AuthActions>
    </>
  );
}
