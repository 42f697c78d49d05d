import { isLanguage, translate } from '../platform/i18n';

function escape(text: string) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The 503 page every page request gets while the maintenance switch is on; in the path's language. */
export function maintenancePage(path: string): string {
  const first = path.split('/')[1];
  const lang = isLanguage(first) ? first : 'en';
  const t = (k: string) => escape(translate(lang, k));
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>503 - ${t('error.maintenance_title')}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f1f5f9;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;padding:1.5rem}main{max-width:36rem;text-align:center;background:#fff;border-radius:1rem;padding:2.5rem 2rem;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:3rem;margin:0;color:#1e3a8a}p{font-size:1.125rem;line-height:1.6}</style></head>
<body><main><h1>503</h1><p>${t('error.maintenance')}</p></main></body></html>`;
}
