/**
 * Contacts and addresses inside any Conform form (companies, clients, campuses). The form's schema holds
 * `contacts: contactsSchema` and/or `billing_address` / `mailing_address` (workers/domain/contacts/schema.ts);
 * the loader gives defaults from `contactsFormValue` / `addressFormValue`, which include empty slots for
 * the types that take several contacts, so the form works without JavaScript. "Add another" and "Remove"
 * are Conform intent buttons: with JavaScript they act at once, without it they post back and the action's
 * `submission.reply()` returns the form with the slot added or removed (nothing typed is lost).
 *
 *   <ContactsEditor form={form} field={fields.contacts} countries={countries} />
 *   <AddressFieldset field={fields.billing_address} kind="billing" countries={countries} />
 */
import { getInputProps, getSelectProps, type FieldMetadata, type FormMetadata } from '@conform-to/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorList, Field, Label, inputClass } from '~/components/forms';
import {
  CONTACT_TYPE_RULES,
  CONTACT_TYPES,
  MAX_CONTACTS_PER_TYPE,
  type AddressKind,
  type ContactType,
} from '@server/domain/contacts/rules';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ObjectField = FieldMetadata<Record<string, any>, any, string[]>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ListField = FieldMetadata<Record<string, any>[], any, string[]>;

/**
 * A nested fieldset (contacts, an address, the fact-find) as the shared editors take it. Conform types a
 * form's fields by its schema, which the editors do not know; a form whose schema is a union or a
 * refinement types them loosely, so the field is named here: `fieldsetOf(fields, 'billing_address')`.
 */
export function fieldsetOf<F extends object>(fields: F, name: string): ObjectField;
export function fieldsetOf(field: AnyField): ObjectField;
export function fieldsetOf(fields: object, name?: string): ObjectField {
  return (name === undefined ? fields : (fields as Record<string, unknown>)[name]) as ObjectField;
}

/** A repeated nested fieldset (a contact type's people, an agreement's rows), for `getFieldList()`. */
export function listOf(field: AnyField): ListField {
  return field as ListField;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, string[]>;

export interface CountryOption {
  id: number;
  name: string;
  abbreviation: string;
  dial_code?: string | null;
}

/** One list of phone countries per form, used by every phone-country input through `list`. */
export function PhoneCountryList({ id, countries }: { id: string; countries: CountryOption[] }) {
  return (
    <datalist id={id}>
      {countries.map((c) => (
        <option key={c.id} value={c.abbreviation}>
          {c.name}
          {c.dial_code ? ` (+${c.dial_code.replace(/^\+/, '')})` : ''}
        </option>
      ))}
    </datalist>
  );
}

function PhonePair({ country, number, listId }: { country: AnyField; number: AnyField; listId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="grid grid-cols-[7rem_1fr] items-start gap-3">
      <Field
        label={t('contacts.fields.phone_country')}
        field={country}
        hint={t('contacts.phone_country_hint')}
        inputProps={{
          maxLength: 2,
          list: listId,
          autoComplete: 'off',
          style: { textTransform: 'uppercase' },
        }}
      />
      <Field
        label={t('contacts.fields.phone_number')}
        field={number}
        type="tel"
        inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
      />
    </div>
  );
}

function Checkbox({ field, label, hint }: { field: AnyField; label: string; hint?: string }) {
  const props = getInputProps(field, { type: 'checkbox' });
  return (
    <div>
      <label className="inline-flex items-start gap-2 text-sm text-slate-700">
        <input
          {...props}
          key={props.key}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700"
        />
        <span>
          <span className="font-medium">{label}</span>
          {hint ? <span className="block text-xs text-slate-500">{hint}</span> : null}
        </span>
      </label>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** The fields of one contact, as its type allows them. */
export function ContactFields({
  type,
  field,
  listId,
}: {
  type: ContactType;
  field: ObjectField;
  listId?: string;
}) {
  const { t } = useTranslation();
  const rules = CONTACT_TYPE_RULES[type];
  const f = field.getFieldset();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label={t('contacts.fields.first_name')}
        field={f.first_name}
        inputProps={{ autoComplete: 'off' }}
      />
      <Field
        label={t('contacts.fields.last_name')}
        field={f.last_name}
        inputProps={{ autoComplete: 'off' }}
      />
      <Field
        label={t('contacts.fields.email')}
        field={f.email}
        type="email"
        inputProps={{ autoComplete: 'off' }}
      />
      <PhonePair country={f.phone_country} number={f.phone_number} listId={listId} />
      {rules.jobTitle ? <Field label={t('contacts.fields.job_title')} field={f.job_title} /> : null}
      {rules.department ? <Field label={t('contacts.fields.department')} field={f.department} /> : null}
      {rules.masterUser ? (
        <div className="sm:col-span-2">
          <Checkbox
            field={f.is_master_user}
            label={t('contacts.fields.is_master_user')}
            hint={t('contacts.fields.is_master_user_hint')}
          />
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <ErrorList id={field.errorId} errors={field.errors} />
      </div>
    </div>
  );
}

/**
 * Every contact type the owner takes, each in its own group; `secondary` and `custom` as lists with
 * "Add another" and "Remove".
 */
export function ContactsEditor({
  form,
  field,
  types = CONTACT_TYPES,
  countries,
}: {
  form: AnyForm;
  field: ObjectField;
  types?: readonly ContactType[];
  countries: CountryOption[];
}) {
  const { t } = useTranslation();
  const listId = useId();
  const fs = field.getFieldset();
  return (
    <div className="space-y-6">
      <PhoneCountryList id={listId} countries={countries} />
      {types.map((type) => {
        const rules = CONTACT_TYPE_RULES[type];
        if (!rules.multiple) {
          return (
            <fieldset key={type} className="rounded-lg border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-900">
                {t(`contacts.types.${type}`)}
              </legend>
              <p className="mb-3 text-xs text-slate-500">
                {t(`contacts.hints.${type}`)} {t('contacts.empty_slot')}
              </p>
              <ContactFields type={type} field={fs[type] as ObjectField} listId={listId} />
            </fieldset>
          );
        }
        const list = listOf(fs[type]).getFieldList();
        return (
          <fieldset key={type} className="rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">
              {t(`contacts.types.${type}`)}
            </legend>
            <p className="mb-3 text-xs text-slate-500">
              {t(`contacts.hints.${type}`)} {t('contacts.empty_slot')}
            </p>
            <div className="space-y-4">
              {list.map((item, index) => (
                <div key={item.key} className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
                  <div className="mb-3 flex items-center justify-between gap-3">
                    <h4 className="text-sm font-medium text-slate-800">
                      {t(`contacts.type_one.${type}`, { n: index + 1 })}
                    </h4>
                    <button
                      {...form.remove.getButtonProps({ name: fs[type].name, index })}
                      className="text-sm font-medium text-red-700 hover:underline"
                    >
                      {t('contacts.remove')}
                    </button>
                  </div>
                  <ContactFields type={type} field={item} listId={listId} />
                </div>
              ))}
            </div>
            <ErrorList id={fs[type].errorId} errors={fs[type].errors} />
            {list.length < MAX_CONTACTS_PER_TYPE ? (
              <button
                {...form.insert.getButtonProps({ name: fs[type].name })}
                className="mt-3 text-sm font-semibold text-primary-800 hover:underline"
              >
                + {t('contacts.add_another')}
              </button>
            ) : null}
          </fieldset>
        );
      })}
    </div>
  );
}

/** A billing or mailing address inside any Conform form. */
export function AddressFieldset({
  field,
  kind,
  countries,
  legend = true,
}: {
  field: ObjectField;
  kind: AddressKind;
  countries: CountryOption[];
  legend?: boolean;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const f = field.getFieldset();
  const label = (k: string) => t(`contacts.address.fields.${k}`);
  return (
    <fieldset className="rounded-lg border border-slate-200 p-4">
      {legend ? (
        <legend className="px-1 text-sm font-semibold text-slate-900">{t(`contacts.address.${kind}`)}</legend>
      ) : null}
      <p className="mb-3 text-xs text-slate-500">{t('contacts.address.empty_hint')}</p>
      <PhoneCountryList id={listId} countries={countries} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={label('first_name')} field={f.first_name} inputProps={{ autoComplete: 'off' }} />
        <Field label={label('last_name')} field={f.last_name} inputProps={{ autoComplete: 'off' }} />
        <Field label={label('email')} field={f.email} type="email" inputProps={{ autoComplete: 'off' }} />
        <Field label={label('department')} field={f.department} />
        <div className="sm:col-span-2">
          <Field label={label('address')} field={f.address} inputProps={{ autoComplete: 'off' }} />
        </div>
        <div className="sm:col-span-2">
          <Field label={label('address2')} field={f.address2} inputProps={{ autoComplete: 'off' }} />
        </div>
        <Field label={label('city')} field={f.city} inputProps={{ autoComplete: 'off' }} />
        <Field label={label('province')} field={f.province} />
        <Field label={label('postal_code')} field={f.postal_code} inputProps={{ autoComplete: 'off' }} />
        <div>
          <Label htmlFor={f.country_id.id}>{label('country_id')}</Label>
          <select {...getSelectProps(f.country_id)} key={f.country_id.key} className={inputClass}>
            <option value="">{t('contacts.address.choose_country')}</option>
            {countries.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
          <ErrorList id={f.country_id.errorId} errors={f.country_id.errors} />
        </div>
        <div className="sm:col-span-2">
          <PhonePair country={f.phone_country} number={f.phone_number} listId={listId} />
        </div>
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
