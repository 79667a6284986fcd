import { connect } from '../../src/storage/connect.js';
import { createTestDatabase, startService, type RunningService, type TestDatabase } from './service.js';

export interface CountingService extends RunningService {
  /**
   * Runs `call` and returns what it gave with the SQL text of every statement the service sent to its
   * database meanwhile, `begin` and `commit` included (on PostgreSQL, one round trip each), and the handle
   * each went through (`tokens`: the token writes' own pool, storage/connect.ts `Storage.tokenDb`).
   */
  statementsDuring<T>(
    call: () => Promise<T>,
  ): Promise<{ result: T; statements: string[]; handles: ('db' | 'tokens')[] }>;
}

/**
 * The real service (startService) over a database handle that notes every statement it sends. The service
 * runs no timers that touch the database while it is up, so what a request sends is all that is noted.
 */
export async function startCountingService(env: Record<string, string> = {}): Promise<CountingService> {
  const noted: string[] = [];
  const handles: ('db' | 'tokens')[] = [];
  const isolated = createTestDatabase();
  const database: TestDatabase = {
    ...isolated,
    open: () =>
      connect(isolated.url, {
        ...(isolated.schema === undefined ? {} : { schema: isolated.schema }),
        onStatement: (sql, handle) => {
          noted.push(sql);
          handles.push(handle);
        },
      }),
  };
  const running = await startService(env, 0, database);
  return {
    ...running,
    async statementsDuring(call) {
      const from = noted.length;
      const result = await call();
      return { result, statements: noted.slice(from), handles: handles.slice(from) };
    },
  };
}
