import { createContext, useContext } from 'react';

/**
 * The page's CSP nonce (workers/web/csp.ts), given by entry.server.tsx to the inline scripts of the
 * document. In the browser it is empty: scripts are already running, and browsers hide nonces anyway.
 */
export const NonceContext = createContext('');

export const useNonce = () => useContext(NonceContext);
