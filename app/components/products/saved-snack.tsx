import { useEffect } from 'react';
import { useNavigate, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '~/components/ui/snackbar';

/**
 * After a redirect with `?saved=<what>`, shows its message once and drops the marker from the address
 * (through the router, so later form posts and reloads do not carry it and repeat the message).
 */
export function useSavedParamSnack() {
  const { t } = useTranslation();
  const show = useSnackbar();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const saved = params.get('saved');
  useEffect(() => {
    if (!saved) return;
    show('success', t(`products.messages.${saved}`));
    const next = new URLSearchParams(params);
    next.delete('saved');
    navigate({ search: `?${next}` }, { replace: true, preventScrollReset: true });
  }, [saved, params, navigate, show, t]);
}
