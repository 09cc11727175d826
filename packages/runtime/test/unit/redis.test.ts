import assert from 'node:assert/strict';
import { createRedis } from '@gateway/runtime';

describe('The Redis client of a service (D23)', () => {
  it('when REDIS_SENTINELS is given, then the client asks those Sentinels for the master named, with the password and database of REDIS_URL, and leaves a demoted master', () => {
    const redis = createRedis(
      { redisUrl: 'redis://:s3cret@ignored:6379/2', redisSentinels: [{ host: 'sentinel-0', port: 26379 }, { host: 'sentinel-1', port: 26380 }], redisSentinelName: 'gateway' },
      { lazyConnect: true, maxRetriesPerRequest: 1 },
    );
    try {
      assert.deepEqual(redis.options.sentinels, [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1', port: 26380 },
      ]);
      assert.equal(redis.options.name, 'gateway');
      assert.equal(redis.options.password, 's3cret');
      assert.equal(redis.options.db, 2);
      assert.equal(redis.options.role, 'master');
      assert.equal(redis.options.maxRetriesPerRequest, 1);
    } finally {
      redis.disconnect();
    }
  });

  it('when no Sentinel is given, then the client connects to REDIS_URL itself', () => {
    const redis = createRedis({ redisUrl: 'redis://cache:6380/1', redisSentinels: [], redisSentinelName: 'gateway' }, { lazyConnect: true });
    try {
      assert.equal(redis.options.sentinels?.length ?? 0, 0);
      assert.equal(redis.options.host, 'cache');
      assert.equal(redis.options.port, 6380);
      assert.equal(redis.options.db, 1);
    } finally {
      redis.disconnect();
    }
  });
});
