import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { DRIVE_PREFIX, MUSEUM_PREFIX } from '../../shared/api/envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** One line for the OpenAPI document: what the call does. */
    summary?: string;
    /** The shape of `result`/`data` on success, for the document only (never used to serialise). */
    answer?: z.ZodType;
    /** A multipart call's form fields and what each holds. */
    multipart?: Record<string, string>;
  }
}

/**
 * The OpenAPI document at `/openapi.json` (issue 18): every call of the API, the records
 * engine's and the hand-written modules' alike, described from the very zod schemas that
 * validate it (zod 4's toJSONSchema; there is no second copy to drift). Routes are collected as
 * they register (buildApp's onRoute hook), so a new call is in the document the day it exists;
 * tests/server/openapi.test.ts fails if one is missing or cannot be described.
 *
 * Public: it describes calls, never data, and whoever builds the mini-program or a museum's own
 * integration starts there. The app's 接口文档 page (/system/openapi) browses it.
 */

type Json = Record<string, unknown>;

function jsonOf(schema: z.ZodType): { json: Json; ok: boolean } {
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
    delete json.$schema;
    return { json, ok: true };
  } catch {
    return { json: {}, ok: false };
  }
}

/** The tag of a call: its path without the prefix and the last segment (bs/bsDutyRoster). */
function tagOf(url: string): string {
  const prefix = url.startsWith(DRIVE_PREFIX) ? DRIVE_PREFIX : MUSEUM_PREFIX;
  const parts = url.slice(prefix.length).split('/').filter(Boolean);
  const tag = parts.slice(0, Math.max(1, parts.length - 1)).join('/');
  return `${prefix === DRIVE_PREFIX ? '网盘 ' : ''}${tag}`;
}

export const isApiUrl = (url: string) =>
  url.startsWith(`${MUSEUM_PREFIX}/`) || url.startsWith(`${DRIVE_PREFIX}/`);

function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path', failed: string[], at: string) {
  if (!schema) return [];
  const { json, ok } = jsonOf(schema);
  if (!ok) failed.push(`${at} ${where}`);
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** Builds the document from the collected routes; `failed` names any schema zod could not describe. */
export function buildOpenApi(routes: readonly RouteOptions[]): { doc: Json; failed: string[] } {
  const paths: Record<string, Record<string, Json>> = {};
  const failed: string[] = [];
  for (const route of routes) {
    if (!isApiUrl(route.url)) continue;
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    const schema = (route.schema ?? {}) as { querystring?: z.ZodType; body?: z.ZodType; params?: z.ZodType };
    const config = (route.config ?? {}) as {
      summary?: string;
      answer?: z.ZodType;
      multipart?: Record<string, string>;
      public?: boolean;
    };
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of methods) {
      const at = `${method} ${route.url}`;
      const op: Json = {
        tags: [tagOf(route.url)],
        summary: config.summary ?? '',
        operationId: `${method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        parameters: [
          ...parametersOf(schema.params, 'path', failed, at),
          ...parametersOf(schema.querystring, 'query', failed, at),
        ],
      };
      if (schema.body) {
        const { json, ok } = jsonOf(schema.body);
        if (!ok) failed.push(`${at} body`);
        op.requestBody = {
          required: true,
          content: {
            'application/json': { schema: json },
            'application/x-www-form-urlencoded': { schema: json },
          },
        };
      } else if (config.multipart) {
        op.requestBody = {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(
                  Object.entries(config.multipart).map(([k, d]) => [
                    k,
                    k === 'file'
                      ? { type: 'string', format: 'binary', description: d }
                      : { type: 'string', description: d },
                  ]),
                ),
              },
            },
          },
        };
      }
      const payloadKey = route.url.startsWith(DRIVE_PREFIX) ? 'data' : 'result';
      const answer = config.answer ? jsonOf(config.answer).json : {};
      op.responses = {
        200: {
          description:
            '成功时 success 为 true、code 为 0；业务失败时 success 为 false，message 是可以直接展示的中文说明',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  success: { type: 'boolean' },
                  code: { type: 'integer' },
                  message: { type: 'string' },
                  [payloadKey]: answer,
                },
              },
            },
          },
        },
        400: { description: '参数不正确（message 指出哪个字段、错在哪里）' },
        999: { description: '登录超时，请重新登录' },
      };
      if (!config.public) op.security = [{ token: [] }];
      (paths[path] ??= {})[method.toLowerCase()] = op;
    }
  }
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: '馆务云 API',
      version: '1',
      description:
        '馆务云的全部接口。博物馆接口在 /singleMuseum 下，答复 {success, code, message, result}；网盘接口在 /wangpan 下，答复 {success, code, message, data}。' +
        '登录后把 token 放在请求头 token 中；写操作可带 Idempotency-Key 请求头，重复发送只生效一次。批量导入失败时 code 为 1004，result.lines 列出每一处错误。',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
    paths,
  };
  return { doc, failed };
}

/** Collects every route as it registers; call before any module registers. */
export function collectRoutes(app: FastifyInstance): RouteOptions[] {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (r) => void routes.push(r));
  return routes;
}

/** GET /openapi.json, built once on first request (every route exists by then). */
export function openApiRoute(app: FastifyInstance, routes: readonly RouteOptions[]) {
  let text: string | undefined;
  app.get('/openapi.json', { config: { public: true } }, async (_req, reply) => {
    text ??= JSON.stringify(buildOpenApi(routes).doc);
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(text);
  });
}
