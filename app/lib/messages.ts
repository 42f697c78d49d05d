import { useTranslation } from 'react-i18next';
import { parseMessage } from '@server/domain/messages';

/** Translates a domain message (a key, maybe with parameters) into the reader's language. */
export function useMessage() {
  const { t } = useTranslation();
  return (message: string | undefined | null) => {
    if (!message) return '';
    const { key, params } = parseMessage(message);
    return t(key, { ...params, defaultValue: key });
  };
}
