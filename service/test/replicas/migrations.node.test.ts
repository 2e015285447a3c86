/**
 * The PostgreSQL schema migrations (`storage/postgres/migrations.ts`): the same mechanism as SQLite's, the
 * version in `service_schema`: a new database is brought to the last step, a second run does nothing, a
 * failing step leaves the database at the step before it, a database from a newer service is refused, and
 * replicas migrating at once migrate once.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { migratePostgres, PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../src/storage/postgres/migrations.js';
import { newDatabase, stopPostgres } from './helpers.js';

after(() => stopPostgres());

async function withPool<T>(database: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: database });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

test('a new database is brought to the last step; a second run does nothing', async () => {
  const database = await newDatabase();
  await withPool(database, async (pool) => {
    assert.deepEqual(await migratePostgres(pool), { from: 0, to: PG_SCHEMA_VERSION });
    assert.deepEqual(await migratePostgres(pool), { from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION });
    const tables = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'service_log'");
    assert.equal(tables.rowCount, 1);
  });
});

test('replicas migrating at once: one migrates, the others find nothing to do', async () => {
  const database = await newDatabase();
  await withPool(database, async (pool) => {
    const runs = await Promise.all([migratePostgres(pool), migratePostgres(pool), migratePostgres(pool)]);
    assert.equal(runs.filter((run) => run.from === 0).length, 1);
  });
});

test('a failing step leaves the database at the step before it; a newer database is refused', async () => {
  const database = await newDatabase();
  await withPool(database, async (pool) => {
    const failing = [
      ...PG_MIGRATIONS,
      {
        version: PG_SCHEMA_VERSION + 1,
        name: 'a step that fails half-way',
        async up(client: pg.PoolClient) {
          await client.query('CREATE TABLE half_way (id INTEGER)');
          await client.query('SELECT * FROM no_such_table');
        },
      },
    ];
    await assert.rejects(migratePostgres(pool, failing), /no_such_table/);
    const version = await pool.query('SELECT version FROM service_schema');
    assert.equal(version.rows[0].version, PG_SCHEMA_VERSION);
    assert.equal(
      (await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_way'")).rowCount,
      0,
    );
    await pool.query('UPDATE service_schema SET version = $1', [PG_SCHEMA_VERSION + 5]);
    await assert.rejects(migratePostgres(pool), /newer than this service's/);
  });
});
