/**
 * Barclaycard ePDQ (e-Commerce hosted payment page): the protocol, free of business rules.
 *
 * - The checkout posts a form to EPDQ_URL with PSPID, ORDERID, AMOUNT (minor units), CURRENCY, LANGUAGE and
 *   the return addresses, signed with SHA-IN: every parameter with a non-empty value, names upper-cased and
 *   sorted, each written `NAME=value` followed by the SHA-IN passphrase, the whole hashed with SHA-256 and
 *   written as upper-case hex.
 * - ePDQ answers (browser return and server-to-server notification) carry their parameters signed the same
 *   way with the SHA-OUT passphrase, over the parameters of the SHA-OUT list only.
 *
 * The local simulator (workers/web/epdq-simulator.ts) uses these same functions, so a change here is
 * exercised end to end by the tests.
 */
import { constantTimeEqual, sha256Hex } from './crypto';

/** The parameters ePDQ includes in the SHA-OUT signature of its answers (ePDQ integration guide). */
export const SHA_OUT_PARAMETERS: ReadonlySet<string> = new Set([
  'AAVADDRESS',
  'AAVCHECK',
  'AAVMAIL',
  'AAVNAME',
  'AAVPHONE',
  'AAVZIP',
  'ACCEPTANCE',
  'ALIAS',
  'AMOUNT',
  'BIC',
  'BIN',
  'BRAND',
  'CARDNO',
  'CCCTY',
  'CN',
  'COLLECTOR_BIC',
  'COLLECTOR_IBAN',
  'COMPLUS',
  'CREATION_STATUS',
  'CREDITDEBIT',
  'CURRENCY',
  'CVCCHECK',
  'DCC_COMMPERCENTAGE',
  'DCC_CONVAMOUNT',
  'DCC_CONVCCY',
  'DCC_EXCHRATE',
  'DCC_EXCHRATESOURCE',
  'DCC_EXCHRATETS',
  'DCC_INDICATOR',
  'DCC_MARGINPERCENTAGE',
  'DCC_VALIDHOURS',
  'DEVICEID',
  'DIGESTCARDNO',
  'ECI',
  'ED',
  'EMAIL',
  'ENCCARDNO',
  'FXAMOUNT',
  'FXCURRENCY',
  'IP',
  'IPCTY',
  'MANDATEID',
  'MOBILEMODE',
  'NBREMAILUSAGE',
  'NBRIPUSAGE',
  'NBRIPUSAGE_ALLTX',
  'NBRUSAGE',
  'NCERROR',
  'ORDERID',
  'PAYID',
  'PAYIDSUB',
  'PAYMENT_REFERENCE',
  'PM',
  'SCO_CATEGORY',
  'SCORING',
  'SEQUENCETYPE',
  'SIGNDATE',
  'STATUS',
  'SUBBRAND',
  'SUBSCRIPTION_ID',
  'TRXDATE',
  'VC',
]);

/** Upper-cases the parameter names (ePDQ names are case-insensitive); the first of duplicates wins. */
export function normaliseParams(params: Record<string, string | undefined | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const name = key.toUpperCase();
    if (name in out || value == null) continue;
    out[name] = String(value);
  }
  return out;
}

/** The string ePDQ hashes: `NAME=value` + passphrase for each non-empty parameter, names sorted. */
export function signatureBase(
  params: Record<string, string>,
  passphrase: string,
  include?: ReadonlySet<string>,
): string {
  const normalised = normaliseParams(params);
  return Object.keys(normalised)
    .filter((k) => k !== 'SHASIGN' && normalised[k] !== '' && (!include || include.has(k)))
    .sort()
    .map((k) => `${k}=${normalised[k]}${passphrase}`)
    .join('');
}

/** SHA-IN: the signature of the form the checkout posts to the hosted page. */
export async function signIn(params: Record<string, string>, shaIn: string): Promise<string> {
  return (await sha256Hex(signatureBase(params, shaIn))).toUpperCase();
}

/** SHA-OUT: the signature of an answer from ePDQ (over the SHA-OUT parameters only). */
export async function signOut(params: Record<string, string>, shaOut: string): Promise<string> {
  return (await sha256Hex(signatureBase(params, shaOut, SHA_OUT_PARAMETERS))).toUpperCase();
}

/** Checks an answer's SHASIGN against its SHA-OUT signature, in time that does not reveal where they differ. */
export async function verifyOut(params: Record<string, string>, shaOut: string): Promise<boolean> {
  const given = normaliseParams(params).SHASIGN ?? '';
  if (!shaOut || !given) return false;
  return constantTimeEqual(given.toUpperCase(), await signOut(params, shaOut));
}

/** Checks a form's SHASIGN against its SHA-IN signature (the simulator's side of the exchange). */
export async function verifyIn(params: Record<string, string>, shaIn: string): Promise<boolean> {
  const given = normaliseParams(params).SHASIGN ?? '';
  if (!shaIn || !given) return false;
  return constantTimeEqual(given.toUpperCase(), await signIn(params, shaIn));
}

/** The amount field: integer minor units (ePDQ's AMOUNT is the amount times 100). */
export function amountField(minor: number): string {
  return String(Math.round(minor));
}

/**
 * The AMOUNT of an answer in minor units. ePDQ answers with a decimal amount ("123.45", "12" or "12.5");
 * anything else is null.
 */
export function answerAmountMinor(amount: string | undefined): number | null {
  if (!amount) return null;
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/** Decimal amount as ePDQ writes it in its answers (no trailing zeros: 123.5, 12). */
export function answerAmount(minor: number): string {
  const major = Math.trunc(minor / 100);
  const cents = minor % 100;
  if (!cents) return String(major);
  return `${major}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/**
 * What an ePDQ STATUS means to us. 5 (authorised) and 9 (payment requested) are money we have; 1 is the
 * customer cancelling; 0 and 2 are refusals; 4, 41, 46, 50-59, 91-99 are still being processed
 * (or uncertain); anything else is treated as failed.
 */
export type CardOutcome = 'succeeded' | 'pending' | 'cancelled' | 'failed';
export function outcomeOf(status: string | undefined): CardOutcome {
  const code = Number(status);
  if (!status || !Number.isInteger(code)) return 'failed';
  if (code === 5 || code === 9) return 'succeeded';
  if (code === 1) return 'cancelled';
  if (code === 4 || code === 41 || code === 46 || (code >= 50 && code <= 59) || (code >= 91 && code <= 99))
    return 'pending';
  return 'failed';
}

/** ePDQ's LANGUAGE codes for the portal's languages. */
export function epdqLanguage(lang: string | undefined): string {
  switch (lang) {
    case 'de':
      return 'de_DE';
    case 'es':
      return 'es_ES';
    case 'fr':
      return 'fr_FR';
    case 'it':
      return 'it_IT';
    case 'pt':
      return 'pt_PT';
    case 'cn':
      return 'zh_CN';
    default:
      return 'en_US';
  }
}

/** The hosted page's address: EPDQ_URL as given, or resolved against our own address when it is a path. */
export function hostedPageUrl(url: string, publicUrl: string): string {
  return url.startsWith('/') ? new URL(url, publicUrl).toString() : url;
}
