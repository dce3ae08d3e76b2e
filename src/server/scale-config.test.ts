import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

/** BLOB_STORE, S3_* and REDIS_*: what a museum group sets, and every way of getting it wrong. */

const base = { DATA_DIR: '/tmp/gwy-config-test' };
const s3 = {
  BLOB_STORE: 's3',
  S3_ENDPOINT: 'http://10.0.0.20:9000/',
  S3_BUCKET: 'guanwuyun',
  S3_ACCESS_KEY_ID: 'guanwuyun',
  S3_SECRET_ACCESS_KEY: 'a-long-secret',
  S3_FORCE_PATH_STYLE: '1',
};

describe('scale-out settings', () => {
  it('default to the data dir and this process', () => {
    expect(loadConfig(base).scale).toEqual({ s3: undefined, redis: undefined });
  });

  it('read an S3-compatible store and Redis', () => {
    const c = loadConfig({ ...base, ...s3, S3_PREFIX: '/museum-a/', REDIS_URL: 'redis://10.0.0.30:6379/0' });
    expect(c.scale).toEqual({
      s3: {
        endpoint: 'http://10.0.0.20:9000',
        bucket: 'guanwuyun',
        region: 'us-east-1',
        credentials: { accessKeyId: 'guanwuyun', secretAccessKey: 'a-long-secret' },
        forcePathStyle: true,
        prefix: 'museum-a/',
      },
      redis: { url: 'redis://10.0.0.30:6379/0', prefix: 'gwy:' },
    });
    // AWS itself: no endpoint, the SDK's own credentials.
    const aws = loadConfig({ ...base, BLOB_STORE: 's3', S3_BUCKET: 'museum-files', S3_REGION: 'ap-east-1' });
    expect(aws.scale.s3).toMatchObject({ endpoint: undefined, region: 'ap-east-1', credentials: undefined });
    expect(
      loadConfig({ ...base, REDIS_URL: 'rediss://cache:6380', REDIS_PREFIX: 'city:' }).scale.redis,
    ).toEqual({
      url: 'rediss://cache:6380',
      prefix: 'city:',
    });
  });

  it('refuse what would fail later, naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ BLOB_STORE: 'minio' }, /BLOB_STORE/],
      [{ BLOB_STORE: 's3' }, /必须设置 S3_BUCKET/],
      [{ ...s3, S3_BUCKET: 'Guan_Wu_Yun' }, /S3_BUCKET 不是有效的桶名/],
      [{ ...s3, S3_ENDPOINT: 'ftp://10.0.0.20' }, /S3_ENDPOINT 必须以 http:\/\/ 或 https:\/\/ 开头/],
      [
        { ...s3, S3_ENDPOINT: '10.0.0.20 9000' },
        /S3_ENDPOINT 不是有效的网址.*例如 http:\/\/10\.0\.0\.20:9000/,
      ],
      [{ ...s3, S3_SECRET_ACCESS_KEY: '' }, /必须同时设置/],
      [{ ...s3, S3_PREFIX: 'a/../b' }, /S3_PREFIX/],
      [{ ...s3, S3_PREFIX: 'a b' }, /S3_PREFIX/],
      [{ S3_BUCKET: 'guanwuyun' }, /BLOB_STORE 不是 s3/],
      [{ REDIS_URL: 'http://10.0.0.30:6379' }, /REDIS_URL 必须以 redis:\/\//],
      [{ REDIS_URL: '10.0.0.30:6379' }, /REDIS_URL/],
      [{ REDIS_URL: 'redis://x', REDIS_PREFIX: 'a prefix' }, /REDIS_PREFIX/],
    ];
    for (const [env, message] of bad)
      expect(() => loadConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(message);
  });
});
