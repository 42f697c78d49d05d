import { useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';

/**
 * Keeps a page's data fresh while a job behind it runs (a staging, a ZIP, a large confirmation): the
 * loaders run again every second with JavaScript, and without it the page reloads every two seconds.
 * Render it once in the page: `<RefreshWhile running={job.status === 'running'} />`.
 */
export function RefreshWhile({ running }: { running: boolean }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  return running ? (
    <noscript>
      <meta httpEquiv="refresh" content="2" />
    </noscript>
  ) : null;
}
