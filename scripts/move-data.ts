/**
 * `npm run move-data -- --to postgres://… [--from DATA_DIR]`: copies an embedded installation
 * (DATA_DIR's SQLite database and files) onto PostgreSQL and the object store named by the
 * BLOB_STORE=s3 and S3_* variables, then checks the copy (README "Scale-out: moving a
 * museum's data"). Run it with the old server stopped; run it again after an interruption.
 *
 * Exit codes: 0 moved and checked; 1 the copy failed or does not match (run again, or see the
 * lines above); 2 refused before anything was written (the message says what to fix).
 */
import { loadConfig } from '../src/server/config';
import { MoveRefused, moveData } from '../src/server/db/move-data';

const USAGE =
  '用法：npm run move-data -- --to postgres://用户:密码@主机:5432/库名 [--from 原数据目录]\n' +
  '（同时设置新服务器将使用的 BLOB_STORE=s3 与 S3_* 变量；--from 默认为 DATA_DIR，再默认 ./data）';

function argsOf(argv: string[]): { to?: string; from?: string } {
  const out: { to?: string; from?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a];
    if (flag !== '--to' && flag !== '--from') throw new MoveRefused(`不认识的参数 ${a}\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (!value) throw new MoveRefused(`${flag} 后面缺少值\n${USAGE}`);
    out[flag === '--to' ? 'to' : 'from'] = value;
  }
  return out;
}

async function main(): Promise<number> {
  const args = argsOf(process.argv.slice(2));
  if (!args.to) throw new MoveRefused(`缺少目标数据库：请用 --to 指明 PostgreSQL 的连接地址\n${USAGE}`);
  let config;
  try {
    config = loadConfig({
      ...process.env,
      DATABASE_URL: args.to,
      ...(args.from ? { DATA_DIR: args.from } : {}),
    });
  } catch (err) {
    throw new MoveRefused((err as Error).message);
  }
  const started = Date.now();
  console.log(`从 ${config.dataDir} 迁移到 PostgreSQL 与对象存储 ${config.scale.s3?.bucket ?? ''}`);
  const report = await moveData({
    dataDir: config.dataDir,
    databaseUrl: args.to,
    s3: config.scale.s3,
    log: (line) => console.log(line),
  });
  const bad = report.tables.filter((t) => t.source !== t.target || !t.digestMatches);
  for (const t of bad) {
    console.error(
      `  表 ${t.table} 不一致：源 ${t.source} 行，目标 ${t.target} 行${t.digestMatches ? '' : '，内容不同'}`,
    );
  }
  if (report.damaged.length) {
    console.error(
      `源数据目录中有 ${report.damaged.length} 个文件的内容与其校验值（文件名中的 MD5）不符，已损坏，没有复制：\n  ` +
        report.damaged.join('\n  ') +
        '\n请从备份中找回这些文件放回原处，再运行一次迁移。',
    );
  }
  if (report.missing.length) {
    console.error(
      `警告：源数据库中有 ${report.missing.length} 个文件在原数据目录里已经不存在（迁移前就已丢失），无法迁移：\n  ` +
        report.missing.join('\n  ') +
        '\n可从备份中找回这些文件放回原数据目录的相同位置，再运行一次迁移补上。',
    );
  }
  if (report.unfinishedUploads) {
    console.log(
      `有 ${report.unfinishedUploads} 个未完成的上传没有迁移（分片只在原服务器上）：迁移后请相关同事重新上传这些文件。`,
    );
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!report.ok) {
    console.error(
      `迁移未通过核对（用时 ${seconds} 秒）：请按上面的提示处理后再运行一次，已复制的部分不会重复。`,
    );
    return 1;
  }
  const rows = report.tables.reduce((n, t) => n + t.target, 0);
  const files = report.files.reduce((n, f) => n + f.copied + f.alreadyThere, 0);
  console.log(
    `迁移完成并已核对（用时 ${seconds} 秒）：${report.tables.length} 张表共 ${rows} 行，${files} 个文件。` +
      '现在可以用同样的 DATABASE_URL、BLOB_STORE=s3 与 S3_* 设置启动新服务器。',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof MoveRefused) {
      console.error(`拒绝迁移：${err.message}`);
      process.exit(2);
    }
    console.error(`迁移中断：${err instanceof Error ? err.message : String(err)}`);
    console.error('已复制的部分会保留；排除问题后再运行一次同样的命令即可继续，不会重复复制。');
    process.exit(1);
  },
);
