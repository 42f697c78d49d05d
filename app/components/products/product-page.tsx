import { useNavigation, useRouteLoaderData } from '@remix-run/react';
import { AppForm } from '~/components/fields';
import type { loader } from '~/routes/($lang)._main.products.$id';
import { ConfirmButton } from '~/components/ui/confirm';

/** The product page's layout route: its loader data (the product, what the user may do) serves every tab. */
export const PRODUCT_ROUTE = 'routes/($lang)._main.products.$id';

export function useProduct() {
  return useRouteLoaderData<typeof loader>(PRODUCT_ROUTE)!;
}

export type ProductPageData = ReturnType<typeof useProduct>;
export type ProductDetail = ProductPageData['product'];

/** The optional value of a form field as its input shows it. */
export const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The form values of a product's details and claim details, as its inputs show them. */
export function productDefaults(p: ProductDetail) {
  return {
    code: p.code,
    name: p.name,
    description: str(p.description),
    insurer_id: p.insurer?.id ?? '',
    type: str(p.type),
    policy_type: str(p.policy_type),
    scheme: str(p.scheme),
    cover_type: str(p.cover_type),
    territorial_limit: str(p.territorial_limit),
    master_certificate_number: str(p.master_certificate_number),
    effective_start_date: p.effective_start_date,
    effective_end_date: str(p.effective_end_date),
    min_purchase_days: str(p.min_purchase_days),
    max_enrolment_period_days: str(p.max_enrolment_period_days),
    max_term_days: str(p.max_term_days),
    unit_id: str(p.unit_id),
    insured_age_min: str(p.insured_age_min),
    insured_age_max: str(p.insured_age_max),
    currency: p.currency,
    max_coverage_amount: p.max_coverage_amount == null ? '' : p.max_coverage_amount.toFixed(2),
    claim_email: str(p.claim_email),
    claim_phone: str(p.claim_phone),
    medical_assistance_email: str(p.medical_assistance_email),
    medical_assistance_phone: str(p.medical_assistance_phone),
    claim_details: str(p.claim_details),
  };
}

/** A row's delete button: a one-button form with its intent and id; its intent asks first (`confirm`). */
export function DeleteRowButton({
  intent,
  idName,
  id,
  label,
  confirm,
}: {
  intent: string;
  idName: string;
  id: number;
  label: string;
  confirm: string;
}) {
  const busy = useNavigation().state === 'submitting';
  return (
    <AppForm method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      <ConfirmButton disabled={busy} className="font-medium text-red-700 hover:underline" question={confirm}>
        {label}
      </ConfirmButton>
    </AppForm>
  );
}
