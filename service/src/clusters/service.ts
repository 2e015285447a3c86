/**
 * The multi-cluster user-ID mapping (document 1, "Multi-cluster records", "Endpoints > Multi-cluster") of
 * the local service, which is a single-cluster deployment: there is one cluster, {@link LOCAL_CLUSTER}.
 *
 * Durable in SQLite:
 * - `clusters_mapping`: one row per user ID assigned to the cluster (`createdAt`, Unix ms);
 * - `clusters_record_owners`: which user ID a record belongs to. A record write carrying the
 *   `X-Service-User-ID` header gives the written records to that user; a write without the header gives
 *   them to no one. A user's `nbRecords` / `dataSize` are the records it owns that still exist (so any
 *   deletion — delete object, batch, clear, deleteByQuery, delete index — decrements at once), and the
 *   bytes of their JSON.
 */
import type { Context } from 'hono';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../http/errors.js';

/** The one cluster of the local service. */
export const LOCAL_CLUSTER = 'c1-local';

/** The header that names the user ID (document 1, "Endpoints > Multi-cluster"). */
export const USER_ID_HEADER = 'X-Service-User-ID';

/** User IDs as the hosted family accepts them: letters, digits, `_` and `-`, 1 to 64 characters. */
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** At most this many users in one `POST /1/clusters/mapping/batch`. */
export const MAX_BATCH_USERS = 1000;

/** The top users listed per cluster (document 1, "Limits": 10 per cluster). */
export const TOP_USERS = 10;

export interface UserMapping {
  userID: string;
  clusterName: string;
  nbRecords: number;
  dataSize: number;
}

export interface ClusterFigures {
  clusterName: string;
  nbRecords: number;
  nbUserIDs: number;
  dataSize: number;
}

/**
 * Checks a user ID (400 naming it otherwise).
 *
 * @example
 * validateUserId('user-42', 'X-Service-User-ID') // 'user-42'
 */
export function validateUserId(value: unknown, where: string): string {
  if (typeof value !== 'string' || !USER_ID.test(value)) {
    throw new HttpError(
      400,
      `${where} must be a user ID of 1 to 64 characters among letters, digits, '_' and '-' (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/** The cluster named in a request (404 for any name but the local cluster's). */
export function requireCluster(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new HttpError(400, `${where} must be a non-empty string`);
  if (value !== LOCAL_CLUSTER)
    throw new HttpError(404, `Cluster ${value} does not exist (the local service has one cluster: ${LOCAL_CLUSTER})`);
  return value;
}

export class Clusters {
  private readonly statements;

  constructor(private readonly ctx: ServiceContext) {
    const { db } = ctx;
    db.exec(`
      CREATE TABLE IF NOT EXISTS clusters_mapping (
        user_id TEXT PRIMARY KEY,
        cluster_name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS clusters_record_owners (
        index_name TEXT NOT NULL,
        object_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        PRIMARY KEY (index_name, object_id)
      );
      CREATE INDEX IF NOT EXISTS clusters_record_owners_user ON clusters_record_owners (user_id);
    `);
    this.statements = {
      assign: db.prepare(
        'INSERT INTO clusters_mapping (user_id, cluster_name, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET cluster_name = excluded.cluster_name',
      ),
      get: db.prepare('SELECT user_id, cluster_name, created_at FROM clusters_mapping WHERE user_id = ?'),
      all: db.prepare('SELECT user_id, cluster_name, created_at FROM clusters_mapping ORDER BY user_id'),
      remove: db.prepare('DELETE FROM clusters_mapping WHERE user_id = ?'),
      removeOwned: db.prepare('DELETE FROM clusters_record_owners WHERE user_id = ?'),
      own: db.prepare(
        'INSERT INTO clusters_record_owners (index_name, object_id, user_id) VALUES (?, ?, ?) ON CONFLICT (index_name, object_id) DO UPDATE SET user_id = excluded.user_id',
      ),
      disown: db.prepare('DELETE FROM clusters_record_owners WHERE index_name = ? AND object_id = ?'),
      anyOwned: db.prepare('SELECT 1 FROM clusters_record_owners WHERE index_name = ? LIMIT 1'),
      owned: db.prepare('SELECT index_name, object_id, user_id FROM clusters_record_owners'),
      ownedBy: db.prepare('SELECT index_name, object_id, user_id FROM clusters_record_owners WHERE user_id = ?'),
    };
  }

  /** Assigns users to a cluster (one transaction); re-assigning keeps the first `createdAt`. */
  assign(userIDs: string[], clusterName: string, at: number): void {
    this.ctx.db.transaction(() => {
      for (const userID of userIDs) this.statements.assign.run(userID, clusterName, at);
    })();
  }

  has(userID: string): boolean {
    return this.statements.get.get(userID) !== undefined;
  }

  /** Removes a user ID and its record ownership (the records stay in their indices). */
  remove(userID: string): boolean {
    let removed = false;
    this.ctx.db.transaction(() => {
      removed = this.statements.remove.run(userID).changes > 0;
      this.statements.removeOwned.run(userID);
    })();
    return removed;
  }

  /**
   * The user ID of a record write (`X-Service-User-ID`), checked before anything is written: undefined
   * without the header, 400 for an invalid ID, 404 for a user ID not assigned to a cluster (document 1:
   * "users are not assigned automatically: a call for an unassigned or unknown user is rejected").
   */
  writer(c: Context): string | undefined {
    const header = c.req.header(USER_ID_HEADER);
    if (header === undefined) return undefined;
    const userID = validateUserId(header, USER_ID_HEADER);
    if (!this.has(userID)) throw new HttpError(404, `User ID ${userID} is not assigned to a cluster`);
    return userID;
  }

  /** Records written: they belong to `userID`, or to no one without it. Call inside the write's transaction. */
  written(userID: string | undefined, indexName: string, objectIDs: Iterable<string>): void {
    // a write without a user ID only disowns: nothing to do when no record of the index has an owner
    if (!userID && this.statements.anyOwned.get(indexName) === undefined) return;
    for (const objectID of objectIDs) {
      if (userID) this.statements.own.run(indexName, objectID, userID);
      else this.statements.disown.run(indexName, objectID);
    }
  }

  /** Every mapped user with its figures, from the records that still exist. */
  mappings(): UserMapping[] {
    const figures = new Map<string, { nbRecords: number; dataSize: number }>();
    for (const row of this.statements.owned.iterate() as Iterable<{
      index_name: string;
      object_id: string;
      user_id: string;
    }>) {
      const size = this.recordSize(row.index_name, row.object_id);
      if (size === undefined) continue;
      const entry = figures.get(row.user_id) ?? { nbRecords: 0, dataSize: 0 };
      entry.nbRecords += 1;
      entry.dataSize += size;
      figures.set(row.user_id, entry);
    }
    return (this.statements.all.all() as Array<{ user_id: string; cluster_name: string }>).map((row) => ({
      userID: row.user_id,
      clusterName: row.cluster_name,
      ...(figures.get(row.user_id) ?? { nbRecords: 0, dataSize: 0 }),
    }));
  }

  /** One mapped user with its figures, or undefined. */
  mapping(userID: string): UserMapping | undefined {
    const row = this.statements.get.get(userID) as { user_id: string; cluster_name: string } | undefined;
    if (!row) return undefined;
    let nbRecords = 0;
    let dataSize = 0;
    for (const owned of this.statements.ownedBy.iterate(userID) as Iterable<{
      index_name: string;
      object_id: string;
    }>) {
      const size = this.recordSize(owned.index_name, owned.object_id);
      if (size === undefined) continue;
      nbRecords += 1;
      dataSize += size;
    }
    return { userID: row.user_id, clusterName: row.cluster_name, nbRecords, dataSize };
  }

  /** The clusters with the sums of their users' figures. */
  clusters(): ClusterFigures[] {
    const users = this.mappings();
    return [
      {
        clusterName: LOCAL_CLUSTER,
        nbRecords: users.reduce((sum, user) => sum + user.nbRecords, 0),
        nbUserIDs: users.length,
        dataSize: users.reduce((sum, user) => sum + user.dataSize, 0),
      },
    ];
  }

  /** The top users by record count per cluster (ties: larger dataSize, then userID). */
  top(): Array<Record<string, UserMapping[]>> {
    const users = this.mappings().sort(
      (a, b) =>
        b.nbRecords - a.nbRecords ||
        b.dataSize - a.dataSize ||
        (a.userID < b.userID ? -1 : a.userID > b.userID ? 1 : 0),
    );
    return [{ [LOCAL_CLUSTER]: users.filter((user) => user.clusterName === LOCAL_CLUSTER).slice(0, TOP_USERS) }];
  }

  /** Bytes of the record's JSON (UTF-8), or undefined when it no longer exists. */
  private recordSize(indexName: string, objectID: string): number | undefined {
    const record = this.ctx.indices.get(indexName)?.getObject(objectID);
    return record ? Buffer.byteLength(JSON.stringify(record)) : undefined;
  }
}

const services = new WeakMap<ServiceContext, Clusters>();

/**
 * The multi-cluster mapping of a service (one per context).
 *
 * @example
 * getClusters(ctx).mapping('user-42') // { userID: 'user-42', clusterName: 'c1-local', nbRecords: 3, dataSize: 180 }
 */
export function getClusters(ctx: ServiceContext): Clusters {
  let clusters = services.get(ctx);
  if (!clusters) {
    clusters = new Clusters(ctx);
    services.set(ctx, clusters);
  }
  return clusters;
}
