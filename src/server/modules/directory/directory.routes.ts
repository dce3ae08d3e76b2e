import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddressBookDelete,
  AddressBookDetailQuery,
  AddressBookListQuery,
  AddressBookSave,
  AddressBookUpdate,
} from '../../../shared/api/directory';
import { DONE } from '../../plugins/envelope';
import { requireTokenHeader } from '../../plugins/auth';
import type { Access } from '../auth/access';
import type { DirectoryService } from './directory.service';

/** Reading: every member of staff (the workbench grant opens /home/address-book). */
const READ = 'home.workbench';
/** Editing: the 通讯录管理 page's grant (/oa/address-book-management). */
const EDIT = 'oa.addressBook';

/** /singleMuseum/bs/bsAddressBook/*: the staff directory (spec office.md §7). */
export function directoryRoutes(app: FastifyInstance, deps: { directory: DirectoryService; access: Access }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { directory, access } = deps;
  const base = '/bs/bsAddressBook';

  /** Hidden rows are for editors; asking for them without the grant is refused, not ignored. */
  async function mayRead(req: FastifyRequest, includeHidden: boolean) {
    await access.require(req.user, READ);
    if (includeHidden) await access.require(req.user, EDIT);
    return { includeHidden };
  }

  r.get(`${base}/list`, { schema: { querystring: AddressBookListQuery } }, async (req) => {
    const { includeHidden, ...q } = req.query;
    return directory.list(q, await mayRead(req, includeHidden === 1));
  });
  r.get(`${base}/detail`, { schema: { querystring: AddressBookDetailQuery } }, async (req) => {
    await access.require(req.user, READ);
    return directory.detail(req.query, { includeHidden: await access.can(req.user, EDIT) });
  });
  r.post(`${base}/save`, { schema: { body: AddressBookSave } }, async (req) => {
    await access.require(req.user, EDIT);
    return directory.save(req.user.id, req.body);
  });
  r.post(`${base}/update`, { schema: { body: AddressBookUpdate } }, async (req) => {
    await access.require(req.user, EDIT);
    await directory.update(req.user.id, req.body);
    return DONE;
  });
  // The spec's GET, and a POST for clients that queue writes (only POST carries Idempotency-Key).
  r.get(`${base}/delete`, { schema: { querystring: AddressBookDelete } }, async (req) => {
    requireTokenHeader(req);
    await access.require(req.user, EDIT);
    await directory.remove(req.query.id);
    return DONE;
  });
  r.post(`${base}/delete`, { schema: { body: AddressBookDelete } }, async (req) => {
    await access.require(req.user, EDIT);
    await directory.remove(req.body.id);
    return DONE;
  });
}
