// Child process for the cross-process quota test: spends /say characters from a shared Redis.
import { Redis } from 'ioredis';
import { createQuotas } from '../../src/user-limits.ts';

const [url, user, amount, times] = process.argv.slice(2) as [string, string, string, string];
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
const quotas = createQuotas({ perUserPerMinute: 10, sayDailyChars: 1000, redis });
const results: boolean[] = [];
for (let i = 0; i < Number(times); i++)
  results.push((await quotas.sayChars.consume(user, Number(amount))).allowed);
process.stdout.write(JSON.stringify(results));
redis.disconnect();
