import type { DriveUser } from './drive-util';

/** The archive makers live with the fixtures, so the e2e tests use the same ones. */
export {
  gbk,
  rawZip,
  sevenZipOf,
  tarOf,
  tgzOf,
  unicodePathExtra,
  type RawEntry,
} from '../fixtures/archives/make-archives';

export interface JobView {
  status?: string;
  success?: boolean;
  message: string;
  names: string[];
  targetPath: string;
  jobId: string;
}

/** Starts an unzip and waits for its job to end; answers the final job. */
export async function unzip(u: DriveUser, body: Record<string, unknown>) {
  const res = await u.post('/file/unzipfile', body);
  // A refused call answers its envelope (success false, message), a job otherwise.
  if (!res.body?.success) return res.body as JobView;
  let job = res.body.data;
  for (let i = 0; job.status === 'running' && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await u.get('/file/unzipjob', { jobId: job.jobId })).body.data;
  }
  return job as JobView;
}
