import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CopytoUserListBody } from '../../../shared/api/workflow';
import type { WorkflowService } from './workflow.service';

/**
 * /singleMuseum/workflowConfig/*: the people, departments and roles the approval pickers offer
 * (spec §7). Any signed-in member of staff may read them: approvers pick a transfer target,
 * starters see copy-to recipients, administrators design flows.
 */
export function workflowRoutes(app: FastifyInstance, deps: { workflow: WorkflowService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/workflowConfig/copytoUserList', { schema: { body: CopytoUserListBody } }, async (req) =>
    deps.workflow.copytoUserList(req.body.userIds),
  );
  r.get('/workflowConfig/approverUserList', async () => deps.workflow.approverUserList());
}
