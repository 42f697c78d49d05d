/** Read-only contacts and addresses (detail pages, users without the update permission). */
import { useTranslation } from 'react-i18next';
import { CONTACT_TYPES, type ContactType } from '@server/domain/contacts/rules';
import type { Address, Contact, ContactsValue } from '@server/domain/contacts/values';

function phone(country: string | null, number: string | null) {
  return number ? `${country ? `${country} ` : ''}${number}` : null;
}

function ContactCard({ contact, title }: { contact: Contact; title: string }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200" data-testid="contact-card">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</p>
      <p className="mt-1 font-medium text-slate-900">
        {contact.full_name}
        {contact.is_master_user ? (
          <span className="ml-2 rounded-full bg-primary-100 px-2 py-0.5 text-xs font-medium text-primary-800">
            {t('contacts.master_user')}
          </span>
        ) : null}
      </p>
      {contact.job_title || contact.department ? (
        <p className="text-sm text-slate-600">
          {[contact.job_title, contact.department].filter(Boolean).join(' · ')}
        </p>
      ) : null}
      <dl className="mt-2 space-y-1 text-sm text-slate-700">
        {contact.email ? (
          <div className="flex gap-2">
            <dt className="sr-only">{t('contacts.fields.email')}</dt>
            <dd>
              <a href={`mailto:${contact.email}`} className="text-primary-800 hover:underline">
                {contact.email}
              </a>
            </dd>
          </div>
        ) : null}
        {contact.phone_number ? (
          <div className="flex gap-2">
            <dt className="sr-only">{t('contacts.fields.phone')}</dt>
            <dd>{phone(contact.phone_country, contact.phone_number)}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

export function ContactsView({
  contacts,
  types = CONTACT_TYPES,
}: {
  contacts: ContactsValue;
  types?: readonly ContactType[];
}) {
  const { t } = useTranslation();
  const cards: { key: string; title: string; contact: Contact }[] = [];
  for (const type of types) {
    const value = contacts[type];
    if (Array.isArray(value))
      value.forEach((c, i) =>
        cards.push({
          key: `${type}-${c.id}`,
          title: t(`contacts.type_one.${type}`, { n: i + 1 }),
          contact: c,
        }),
      );
    else if (value) cards.push({ key: type, title: t(`contacts.types.${type}`), contact: value });
  }
  if (!cards.length) return <p className="text-sm text-slate-500">{t('contacts.none')}</p>;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {cards.map((c) => (
        <ContactCard key={c.key} contact={c.contact} title={c.title} />
      ))}
    </div>
  );
}

export function AddressView({ address, title }: { address: Address | null; title: string }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</p>
      {address ? (
        <address className="mt-1 space-y-0.5 text-sm not-italic text-slate-800">
          {address.full_name ? <p className="font-medium">{address.full_name}</p> : null}
          {address.department ? <p>{address.department}</p> : null}
          {address.address ? <p>{address.address}</p> : null}
          {address.address2 ? <p>{address.address2}</p> : null}
          <p>{[address.city, address.province, address.postal_code].filter(Boolean).join(', ')}</p>
          {address.country_name ? <p>{address.country_name}</p> : null}
          {address.email ? <p>{address.email}</p> : null}
          {address.phone_number ? <p>{phone(address.phone_country, address.phone_number)}</p> : null}
        </address>
      ) : (
        <p className="mt-1 text-sm text-slate-500">{t('contacts.address.none')}</p>
      )}
    </div>
  );
}
