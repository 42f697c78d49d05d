/** The insured page's first tab: the person and their policy, immediate family members, linked policies. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { immediateFamily, linkedPolicies } from '@server/domain/policies/service';
import { requireInsuredTab } from '~/lib/insureds.server';
import { formatDate, formatDateTime } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { Card } from '~/components/ui/card';
import { Facts } from '~/components/ui/facts';
import { RelatedPolicies, TripDates } from '~/components/insureds/insured-bits';
import { useInsured } from '~/components/insureds/insured-page';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema,
    async load({ ctx, params }) {
      requireInsuredTab(ctx, 'policy');
      const [family, linked] = await Promise.all([
        immediateFamily(ctx, params.id),
        linkedPolicies(ctx, params.id),
      ]);
      return json({ family, linked });
    },
  })(args);

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

export default function InsuredPolicyTab() {
  const { t } = useTranslation();
  const { policy: p, staff } = useInsured();
  const { family, linked } = useLoaderData<typeof loader>();
  const f = (key: string) => t(`insureds.fields.${key}`);
  const phone = p.phone_number ? `${p.phone_country ?? ''} ${p.phone_number}`.trim() : null;
  return (
    <div className="space-y-6">
      <Section title={t('insureds.detail.person')}>
        <Facts
          items={[
            { label: f('first_name'), value: p.first_name, testId: 'first-name' },
            { label: f('last_name'), value: p.last_name, testId: 'last-name' },
            { label: f('date_of_birth'), value: formatDate(p.date_of_birth) },
            { label: f('gender'), value: p.gender ? t(`order.genders.${p.gender}`) : null },
            { label: f('email'), value: p.email },
            { label: f('personal_email'), value: p.personal_email },
            { label: f('phone'), value: phone },
            { label: f('passport_number'), value: p.passport_number },
            { label: f('residence_country'), value: p.residence_country?.name },
            { label: f('destination_country'), value: p.destination_country?.name },
            { label: f('destination_address'), value: p.destination_address },
            { label: f('student_number'), value: p.student_number },
            { label: f('plan'), value: p.plan },
            { label: f('year_of_study'), value: p.year_of_study },
          ]}
        />
      </Section>
      <Section title={t('insureds.detail.policy')}>
        <Facts
          items={[
            { label: f('policy_id'), value: p.policy_number, testId: 'policy-number' },
            { label: f('type'), value: t(`insureds.types.${p.type}`) },
            { label: f('trip_dates'), value: <TripDates start={p.start_date} end={p.end_date} /> },
            { label: f('product'), value: `${p.product.name} (${p.product.code})` },
            ...(staff ? [{ label: f('client'), value: p.client.name }] : []),
            { label: f('campus'), value: p.campus.name },
            { label: f('contract'), value: p.contract.name },
            { label: f('group_name'), value: p.group_name },
            { label: f('premium'), value: formatMoney(p.premium, p.currency) },
            { label: f('tax'), value: formatMoney(p.tax, p.currency) },
            { label: f('booking_date'), value: formatDate(p.booking_date) },
            { label: f('issued_at'), value: formatDateTime(p.issued_at) },
            {
              label: f('welcome_email_sent_at'),
              value: p.welcome_email_sent_at ? formatDateTime(p.welcome_email_sent_at) : null,
            },
            { label: f('version'), value: String(p.version) },
            ...(p.cancelled_at
              ? [
                  { label: f('cancelled_at'), value: formatDateTime(p.cancelled_at) },
                  { label: f('cancelled_by'), value: p.cancelled_by },
                  { label: f('cancel_reason'), value: p.cancel_reason },
                ]
              : []),
          ]}
        />
      </Section>
      <Section title={t('insureds.detail.family')}>
        <RelatedPolicies
          rows={family}
          empty={t('insureds.detail.family_empty')}
          caption={t('insureds.detail.family')}
        />
      </Section>
      <Section title={t('insureds.detail.linked')}>
        <div className="space-y-4">
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">{f('group_leader')}</h3>
            <RelatedPolicies
              rows={linked.group_leader ? [linked.group_leader] : []}
              empty={t('insureds.detail.group_leader_none')}
              caption={f('group_leader')}
            />
          </div>
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">
              {t('insureds.detail.led', { count: linked.led_count })}
            </h3>
            <RelatedPolicies
              rows={linked.led_insureds}
              empty={t('insureds.detail.led_empty')}
              caption={t('insureds.detail.led', { count: linked.led_count })}
            />
          </div>
        </div>
      </Section>
    </div>
  );
}
