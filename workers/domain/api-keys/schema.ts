/** Inputs of the API keys area (pure: the page's form validates with the same schema). */
import { z } from 'zod';
import { isoDate, msg, optional, requiredText } from '../validation';
import { itemsParam, pageParam } from '../list-query';

/** A checkbox group sends one value as a string, several as an array, none as nothing. */
const permissionList = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string().max(60)).max(200).min(1, msg('api_keys.errors.no_permissions')),
);

export const generateApiKeySchema = z.object({
  name: requiredText(100),
  permissions: permissionList,
  /** The company the key belongs to (company users with several companies in view). */
  company_id: optional(z.string().max(40)),
  /** One campus of the school (school users); none = every campus the creator sees. */
  campus_id: optional(z.string().max(40)),
  /** The last day the key works (YYYY-MM-DD, UTC); none = until revoked. */
  expires_on: optional(isoDate),
});
export type GenerateApiKeyInput = z.infer<typeof generateApiKeySchema>;

export const apiKeyListQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(25, 100),
});
