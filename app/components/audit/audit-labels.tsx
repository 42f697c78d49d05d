/**
 * The words of the audit trail: an action, an entity type or a field as a person reads it. The audit
 * area's own words first (audit.json), then the logs tabs' (activity.json), else the code humanised.
 */
import { useTranslation } from 'react-i18next';
import { humanize } from '~/lib/logged-changes';

export function useAuditLabels() {
  const { t } = useTranslation();
  const pick = (own: string, shared: string | null, code: string) =>
    t(own, { defaultValue: shared ? t(shared, { defaultValue: humanize(code) }) : humanize(code) });
  return {
    action: (a: string) => pick(`audit.actions.${a}`, `activity.actions.${a}`, a),
    entity: (e: string) => pick(`audit.entities.${e}`, null, e),
    field: (f: string) => pick(`audit.fields.${f}`, `activity.fields.${f}`, f),
  };
}
