import type { FastifyInstance } from 'fastify';
import { DONE } from '../../plugins/envelope';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeptCreate,
  DeptUpdate,
  IdBody,
  RoleCreate,
  RoleSetMenus,
  RoleUpdate,
  UserCreate,
  UserEnable,
  UserListQuery,
  UserResetPassword,
  UserUpdate,
} from '../../../shared/api/org';
import { UserLookupQuery } from '../../../shared/api/share';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { notFound } from '../../errors';
import type { Access } from '../auth/access';
import type { Shelf } from '../../storage/shelf';
import { avatarMime } from './avatar';
import type { OrgService } from './org.service';
import { findUser } from './org.repo';

/** The admin pages' menu keys (catalogue): the API behind a page needs that page's grant. */
const PERSON = 'system.person';
const PARTY = 'system.party';
const ROLES = 'system.roleSetting';
const PERSON_PENDING = 'system.personPending';

/** /singleMuseum/sysUser, /sysDept, /sysRole: the organisation admin calls. */
export function orgRoutes(
  app: FastifyInstance,
  deps: { org: OrgService; access: Access; db: Db; config: Config; avatars: Shelf },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { org, access } = deps;

  r.get('/sysUser/list', { schema: { querystring: UserListQuery } }, async (req) => {
    await access.require(req.user, PERSON);
    return org.listUsers(req.query);
  });
  r.post('/sysUser/save', { schema: { body: UserCreate } }, async (req) => {
    await access.require(req.user, PERSON);
    return org.createUser(req.user, req.body);
  });
  r.post('/sysUser/update', { schema: { body: UserUpdate } }, async (req) => {
    await access.require(req.user, PERSON);
    await org.updateUser(req.user, req.body);
    return DONE;
  });
  r.post('/sysUser/enable', { schema: { body: UserEnable } }, async (req) => {
    await access.require(req.user, PERSON);
    await org.setEnabled(req.user, req.body);
    return DONE;
  });
  r.post('/sysUser/resetPassword', { schema: { body: UserResetPassword } }, async (req) => {
    await access.require(req.user, PERSON);
    await org.resetPassword(req.user, req.body);
    return DONE;
  });

  // Any signed-in user may find colleagues by name or phone (pickers: the share dialog first).
  r.get('/sysUser/lookup', { schema: { querystring: UserLookupQuery } }, async (req) =>
    org.lookupUsers(req.query.nameOrPhone),
  );

  // Any signed-in user may see avatars: they appear beside names everywhere.
  r.get(
    '/sysUser/avatar/:userId',
    { schema: { params: z.object({ userId: z.coerce.number().int().positive() }) } },
    async (req, reply) => {
      const u = await findUser(deps.db, req.params.userId);
      if (!u?.avatar) throw notFound('该用户没有头像');
      const bytes = await deps.avatars.get(u.avatar);
      if (!bytes) throw notFound('该用户没有头像');
      reply.header('cache-control', 'private, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      reply.type(avatarMime(u.avatar));
      return reply.send(bytes);
    },
  );

  // The tree is read by the person page and, later, by every people picker.
  r.get('/sysDept/tree', async () => org.deptTree());
  r.post('/sysDept/save', { schema: { body: DeptCreate } }, async (req) => {
    await access.require(req.user, PARTY);
    return org.createDept(req.body);
  });
  r.post('/sysDept/update', { schema: { body: DeptUpdate } }, async (req) => {
    await access.require(req.user, PARTY);
    await org.updateDept(req.body);
    return DONE;
  });
  r.post('/sysDept/delete', { schema: { body: IdBody } }, async (req) => {
    await access.require(req.user, PARTY);
    await org.deleteDept(req.body.id);
    return DONE;
  });

  // Roles are listed for the role pickers of the person page and of 人员审核's 通过 too.
  r.get('/sysRole/list', async (req) => {
    if (!(await access.can(req.user, PERSON)) && !(await access.can(req.user, PERSON_PENDING)))
      await access.require(req.user, ROLES);
    return org.listRoles();
  });
  r.post('/sysRole/save', { schema: { body: RoleCreate } }, async (req) => {
    await access.require(req.user, ROLES);
    return org.createRole(req.body);
  });
  r.post('/sysRole/update', { schema: { body: RoleUpdate } }, async (req) => {
    await access.require(req.user, ROLES);
    await org.updateRole(req.body);
    return DONE;
  });
  r.post('/sysRole/delete', { schema: { body: IdBody } }, async (req) => {
    await access.require(req.user, ROLES);
    await org.deleteRole(req.body.id);
    return DONE;
  });
  r.post('/sysRole/setMenus', { schema: { body: RoleSetMenus } }, async (req) => {
    await access.require(req.user, ROLES);
    await org.setRoleMenus(req.body);
    return DONE;
  });
}
