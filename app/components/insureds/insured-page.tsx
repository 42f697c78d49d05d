import { useRouteLoaderData } from '@remix-run/react';
import type { loader } from '~/routes/($lang)._main.insureds_.$id.insured_details';

/** The insured page's layout route: its loader data (the policy, the tabs, what the user may do) serves every tab. */
export const INSURED_ROUTE = 'routes/($lang)._main.insureds_.$id.insured_details';

export function useInsured() {
  return useRouteLoaderData<typeof loader>(INSURED_ROUTE)!;
}

export type InsuredPageData = ReturnType<typeof useInsured>;
export type InsuredDetail = InsuredPageData['policy'];
