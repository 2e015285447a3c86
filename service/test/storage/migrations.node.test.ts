/**
 * The SQLite schema migrations (`service/src/storage/sqlite/migrations.ts`): a new database gets every step;
 * a database at any earlier step is brought to the same schema; the database the service wrote before the
 * migrations list existed (a real one, dumped from that release: `fixtures/before-migrations.sql`) is
 * migrated with all its data, and the service answers from it; a database newer than the service is refused.
 * They need no server: every run checks them.
 *
 * In the PostgreSQL run (`test:postgres`), the PostgreSQL list (`storage/postgres/migrations.ts`) too: its
 * steps in order, applied to an empty database and again (idempotent), and from every earlier step to the
 * schema of a new database. (A failing step, a newer database and replicas migrating at once:
 * ../replicas/migrations.node.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../src/storage/sqlite/migrations.js';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import pg from 'pg';
import { migratePostgres, PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../src/storage/postgres/migrations.js';
import { postgresDatabaseFor, SEARCH_KEY, startService, TEST_STORAGE, tempDir } from '../service-helpers.js';

const FIXTURE = readFileSync(new URL('./fixtures/before-migrations.sql', import.meta.url), 'utf8');

/** Tables, their columns (name, type, not null, default, key) and indices: what two databases must share. */
function schemaOf(db: Database.Database): Record<string, unknown> {
  const objects = db
    .prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all() as Array<{ type: string; name: string; tbl_name: string }>;
  const schema: Record<string, unknown> = {};
  for (const object of objects) {
    if (object.type === 'table') {
      const columns = db.prepare(`PRAGMA table_info(${object.name})`).all() as Array<Record<string, unknown>>;
      schema[`table ${object.name}`] = columns
        .map(({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    } else if (object.type === 'index') {
      const columns = db.prepare(`PRAGMA index_info(${object.name})`).all() as Array<{ name: string }>;
      schema[`index ${object.name}`] = `${object.tbl_name}(${columns.map((column) => column.name).join(', ')})`;
    }
  }
  return schema;
}

function freshSchema(): Record<string, unknown> {
  const db = new Database(':memory:');
  migrate(db);
  const schema = schemaOf(db);
  db.close();
  return schema;
}

describe('SQLite migrations', () => {
  test('the steps are numbered 1, 2, 3, … in order', () => {
    assert.deepEqual(
      MIGRATIONS.map((migration) => migration.version),
      MIGRATIONS.map((_, i) => i + 1),
    );
    assert.equal(SCHEMA_VERSION, MIGRATIONS.length);
  });

  test('a new database gets every step once; a second start changes nothing', () => {
    const db = new Database(':memory:');
    assert.deepEqual(migrate(db), { from: 0, to: SCHEMA_VERSION });
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const schema = schemaOf(db);
    assert.deepEqual(migrate(db), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    assert.deepEqual(schemaOf(db), schema);
    assert.ok(Object.keys(schema).includes('table service_records'));
    db.close();
  });

  test('a database left at any earlier step is brought to the same schema as a new one', () => {
    const expected = freshSchema();
    for (let version = 0; version < SCHEMA_VERSION; version += 1) {
      const db = new Database(':memory:');
      migrate(db, MIGRATIONS.slice(0, version));
      assert.equal(db.pragma('user_version', { simple: true }), version);
      assert.deepEqual(migrate(db), { from: version, to: SCHEMA_VERSION });
      assert.deepEqual(schemaOf(db), expected, `from version ${version}`);
      db.close();
    }
  });

  test('a step that fails leaves the database at the step before it', () => {
    const db = new Database(':memory:');
    const failing = [
      ...MIGRATIONS,
      {
        version: SCHEMA_VERSION + 1,
        name: 'fails half-way',
        up(database: Database.Database) {
          database.exec('CREATE TABLE half_way (id INTEGER)');
          throw new Error('disk full');
        },
      },
    ];
    assert.throws(() => migrate(db, failing), /disk full/);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'half_way'").get(), undefined);
    db.close();
  });

  test('a database written by a newer service is refused', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    assert.throws(() => migrate(db), /newer than this service's/);
    db.close();
  });

  test('the database of the release before the migrations list is migrated with its data, and served', async () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    const old = new Database(join(dataDir, 'svc-search.sqlite'));
    old.exec(FIXTURE);
    assert.equal(old.pragma('user_version', { simple: true }), 0);
    old.close();

    const db = openDatabase(dataDir);
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(schemaOf(db), freshSchema());
    db.close();

    const running = await startService({ dataDir }, { storage: 'sqlite' });
    try {
      // The A/B test (it would send half of the searches of books to books_b: deleted first).
      const abtests = await running.ok('GET', '/2/abtests');
      assert.equal(abtests.abtests[0].name, 'fixture test');
      assert.equal(abtests.abtests[0].variants[1].index, 'books_b');
      await running.ok('DELETE', `/2/abtests/${abtests.abtests[0].abTestID}`);
      // Records, settings, the replica, the rule and the synonym of the old database.
      const search = await running.ok('POST', '/1/indexes/books/query', { query: 'wizard' });
      assert.equal(search.hits[0].objectID, 'b2');
      assert.deepEqual(search.appliedRules, [{ objectID: 'earthsea' }]);
      const settings = await running.ok('GET', '/1/indexes/books/settings');
      assert.deepEqual(settings.replicas, ['books_by_year']);
      assert.deepEqual(settings.customRanking, ['desc(year)']);
      assert.equal((await running.ok('POST', '/1/indexes/books_by_year/query', { query: '' })).nbHits, 3);
      assert.equal((await running.ok('GET', '/1/indexes/books/rules/earthsea')).objectID, 'earthsea');
      assert.deepEqual((await running.ok('GET', '/1/indexes/books/synonyms/sf')).synonyms, ['sf', 'science fiction']);
      // The key created through /1/keys still opens its index, and only it.
      const keys = await running.ok('GET', '/1/keys');
      const key = keys.keys.find((k: { description: string }) => k.description === 'fixture key').value;
      assert.equal((await running.call('POST', '/1/indexes/books/query', { query: '' }, { key })).status, 200);
      assert.equal((await running.call('POST', '/1/indexes/books_b/query', { query: '' }, { key })).status, 403);
      assert.equal(
        (await running.call('POST', '/1/indexes/books/query', { query: '' }, { key: SEARCH_KEY })).status,
        200,
      );
      // The Insights event with the search it referred to, the strategy, the Query Suggestions configuration.
      const events = await running.ok('GET', '/1/_local/events?index=books');
      assert.equal(events.events[0].search.query, 'dune');
      assert.deepEqual(events.events[0].search.positions, [1]);
      assert.equal((await running.ok('GET', '/1/strategies/personalization')).personalizationImpact, 50);
      assert.equal((await running.ok('GET', '/1/configs/books_qs')).indexName, 'books_qs');
      // The custom stop word.
      const stopwords = await running.ok('POST', '/1/dictionaries/stopwords/search', { query: 'thee' });
      assert.equal(stopwords.nbHits, 1);
      // Task ids continue after the old ones; the old Analytics search is counted.
      const write = await running.ok('POST', '/1/indexes/books', { title: 'Solaris' });
      assert.ok(write.taskID > 8, `taskID ${write.taskID} after the 8 tasks of the old database`);
      assert.equal(
        (await running.ok('GET', '/2/searches/count?index=books&startDate=2026-11-20&endDate=2026-11-20')).count,
        1,
      );
    } finally {
      await running.stop();
    }
  });
});

/** Tables, their columns (name, type, nullable, default) and indices of a PostgreSQL database's public schema. */
async function pgSchemaOf(pool: pg.Pool): Promise<Record<string, unknown>> {
  const columns = await pool.query<Record<string, string>>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const indices = await pool.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
  );
  const schema: Record<string, unknown> = {};
  for (const { table_name, ...column } of columns.rows) {
    const key = `table ${table_name}`;
    const table = (schema[key] as unknown[] | undefined) ?? [];
    table.push(column);
    schema[key] = table;
  }
  for (const index of indices.rows) schema[`index ${index.indexname}`] = index.indexdef;
  return schema;
}

let pgDatabases = 0;

/** Runs `fn` on a pool of a new, empty database of the test server. */
async function withNewPgDatabase<T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  pgDatabases += 1;
  const database = await postgresDatabaseFor(join(tempDir(), `migrations-${pgDatabases}`));
  const pool = new pg.Pool({ connectionString: database });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

if (TEST_STORAGE === 'postgres') {
  describe('PostgreSQL migrations', () => {
    test('the steps are numbered 1, 2, 3, … in order', () => {
      assert.deepEqual(
        PG_MIGRATIONS.map((migration) => migration.version),
        PG_MIGRATIONS.map((_, i) => i + 1),
      );
      assert.equal(PG_SCHEMA_VERSION, PG_MIGRATIONS.length);
    });

    test('an empty database gets every step once; applied again, nothing changes', async () => {
      await withNewPgDatabase(async (pool) => {
        assert.deepEqual(await migratePostgres(pool), { from: 0, to: PG_SCHEMA_VERSION });
        const schema = await pgSchemaOf(pool);
        assert.ok(Object.keys(schema).includes('table service_records'));
        assert.ok(Object.keys(schema).includes('table analytics_searches'));
        assert.deepEqual(await migratePostgres(pool), { from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION });
        assert.deepEqual(await pgSchemaOf(pool), schema);
        const version = await pool.query('SELECT version FROM service_schema');
        assert.deepEqual(version.rows, [{ version: PG_SCHEMA_VERSION }]);
      });
    });

    test('a database left at any earlier step is brought to the same schema as a new one', async () => {
      const expected = await withNewPgDatabase(async (pool) => {
        await migratePostgres(pool);
        return pgSchemaOf(pool);
      });
      for (let version = 0; version < PG_SCHEMA_VERSION; version += 1) {
        await withNewPgDatabase(async (pool) => {
          await migratePostgres(pool, PG_MIGRATIONS.slice(0, version));
          assert.deepEqual(await migratePostgres(pool), { from: version, to: PG_SCHEMA_VERSION });
          assert.deepEqual(await pgSchemaOf(pool), expected, `from version ${version}`);
        });
      }
    });
  });
}
