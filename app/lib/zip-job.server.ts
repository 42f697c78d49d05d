/**
 * The loader of a page that waits on a ZIP job (the insureds' documents, the selected invoices): the job
 * the address names, read through its area's status (which checks the permission and the job's kind), with
 * the counts its result holds. The page renders it with `ZipJobPage` (app/components/ui/zip-job.tsx).
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import type { ActorCtx } from '@server/domain/context';
import type { JobStatus } from '@server/domain/jobs/service';
import { pageLoader } from './loaders.server';
import { pageTitle } from './meta';
import { idsSchema } from './schemas.server';

export interface ZipJobDefinition<C extends string> {
  permission: string;
  /** Where a user without the permission goes: the list the job was started from. */
  back: string;
  /** The page's title key. */
  title: string;
  /** The job's status in its area (NotFound for another kind of job, or another person's). */
  status: (ctx: ActorCtx, jobId: string) => Promise<JobStatus>;
  /** The counts of the finished job's result the page says (files, insureds, invoices, size), 0 until then. */
  counts: readonly C[];
}

export const zipJobLoader = <C extends string>(args: LoaderFunctionArgs, def: ZipJobDefinition<C>) =>
  pageLoader({
    permission: def.permission,
    otherwise: def.back,
    params: idsSchema('jobId'),
    async load({ ctx, request, context, params }) {
      const job = await def.status(ctx, params.jobId);
      const result = (job.result ?? {}) as Partial<Record<C, unknown>>;
      const counts = Object.fromEntries(
        def.counts.map((name) => [name, typeof result[name] === 'number' ? result[name] : 0]),
      ) as Record<C, number>;
      return {
        title: pageTitle(context, request, def.title),
        job: {
          id: job.id,
          status: job.status,
          done: job.done,
          total: job.total,
          percent: job.percent,
          message: job.message,
          ...counts,
        },
      };
    },
  })(args);
