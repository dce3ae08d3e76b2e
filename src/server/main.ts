// First: traces from anything below name src/server/… lines in the built server.
import './stack-map';
import { loadConfig } from './config';
import { describeScale } from './scale-config';
import { isUniqueViolation } from './db/dialect';
import { openDatabase } from './db/index';
import { buildApp } from './app';
import { ensureAdmin, seedDemo } from './modules/seed/seed';
import { createOrgService } from './modules/org/org.service';

/**
 * The server's entry: configuration, then the database (migrated), then the first-start
 * accounts, then the app, then listen. SIGINT/SIGTERM close the listener and the database so
 * a restart never interrupts a half-written transaction.
 */
async function main() {
  const config = loadConfig();
  const db = await openDatabase(config);
  // Several instances starting at once on a new database (README "Scale-out"): the one that
  // loses the race to insert the built-in roles, the admin or the demo finds them made when
  // it looks again.
  const again = <T>(step: () => Promise<T>) =>
    step().catch((err: unknown) => (isUniqueViolation(err) ? step() : Promise.reject(err)));
  const admin = await again(() => ensureAdmin(db, createOrgService(db), config.adminPassword));
  const seeded = config.seedDemo ? await again(() => seedDemo(db, config.demoPassword)) : false;

  const app = await buildApp({ config, db, logger: { level: config.production ? 'warn' : 'info' } });
  await app.listen({ port: config.port, host: config.host });

  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const scheme = config.tls ? 'https' : 'http';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [`馆务云已启动：${scheme}://${shownHost}:${port}/`, `数据目录：${config.dataDir}`];
  lines.push(...describeScale(config.scale));
  if (config.databaseUrl) lines.push('数据库：PostgreSQL（DATABASE_URL）');
  if (admin.created && admin.generated) {
    lines.push(`管理员账号：admin  初始密码：${admin.generated}（只显示这一次，请登录后在个人中心修改）`);
  } else if (admin.created) {
    lines.push('管理员账号：admin  密码：ADMIN_PASSWORD 所设的值');
  } else {
    lines.push('管理员账号：admin（密码为首次启动时设置的密码）');
  }
  if (seeded)
    lines.push(`已创建演示数据：director、staff01–staff10，密码均为 DEMO_PASSWORD（${config.demoPassword}）`);
  console.log(lines.join('\n'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`收到 ${signal}，正在关闭…`);
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
