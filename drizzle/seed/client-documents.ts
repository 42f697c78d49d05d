import { eq } from 'drizzle-orm';
import { serviceAgreements } from '../schema';
import type { DB } from '../../workers/platform/db';
import type { Env } from '../../workers/env';

/**
 * A one-page PDF saying `lines` (Helvetica, A4), with a correct cross-reference table, so the demo's
 * documents open in any viewer.
 */
export function simplePdf(lines: string[]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
  const text = lines.map((l, i) => `BT /F1 12 Tf 72 ${770 - i * 18} Td (${esc(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/**
 * Oakwood's documents (GET clients/{id}/documents): its return policy, the signed terms of its service
 * agreement and a note with the signed onboarding form. Added through the domain, as the senior admin,
 * so the files are in R2 and each has its activity-log row. Only when serving (it needs the R2 binding).
 */
export async function seedDemoClientDocuments(
  db: DB,
  env: Env,
  input: { companyId: number; clientId: number; clientPublicId: string; actingUserId: number },
) {
  const [{ loadActor }, { setClientFile }, { addClientNote }, { addAgreementDocuments }] = await Promise.all([
    import('../../workers/domain/access/actor'),
    import('../../workers/domain/clients/files'),
    import('../../workers/domain/clients/notes'),
    import('../../workers/domain/service-agreements/documents'),
  ]);
  const actor = await loadActor(db, input.actingUserId, { selectedCompanyId: input.companyId });
  if (!actor) throw new Error('The acting user of the demo documents cannot act');
  const ctx = { db, env, now: new Date(), actor };
  const pdf = (name: string, lines: string[]) =>
    new File([simplePdf(lines) as BlobPart], name, { type: 'application/pdf' });
  await setClientFile(
    ctx,
    input.clientPublicId,
    'return_policy',
    pdf('Oakwood return policy.pdf', ['Oakwood International School', 'Return policy for insured students']),
  );
  const [agreement] = await db
    .select({ public_id: serviceAgreements.public_id })
    .from(serviceAgreements)
    .where(eq(serviceAgreements.client_id, input.clientId))
    .limit(1);
  if (agreement)
    await addAgreementDocuments(ctx, agreement.public_id, [
      pdf('Signed terms.pdf', ['Service agreement', 'Signed by both parties']),
    ]);
  await addClientNote(
    ctx,
    input.clientPublicId,
    {
      title: 'Signed onboarding form',
      note: 'The school returned the onboarding form, signed by the bursar.',
      date: ctx.now.toISOString().slice(0, 10),
      source: 'email',
      type: 'admin_note',
    },
    pdf('Onboarding form.pdf', ['Onboarding form', 'Oakwood International School']),
  );
}
