/**
 * The multi-cluster user-ID mapping (document 1, "Multi-cluster records", "Endpoints > Multi-cluster") of
 * the local service, which is a single-cluster deployment: there is one cluster, {@link LOCAL_CLUSTER}.
 *
 * Durable in storage: the users assigned to the cluster (`createdAt`, Unix ms), and which user ID a record
 * belongs to. A record write carrying the `X-Service-User-ID` header gives the written records to that user;
 * a write without the header gives them to no one. A user's `nbRecords` / `dataSize` are the records it owns
 * that still exist (so any deletion — delete object, batch, clear, deleteByQuery, delete index — decrements at
 * once), and the bytes of their JSON.
 */
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import type { ClusterStore } from '../storage/types.js';
import type { TaskQueue, Write } from '../tasks/queue.js';

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
    throw new ServiceError(
      400,
      `${where} must be a user ID of 1 to 64 characters among letters, digits, '_' and '-' (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/** The cluster named in a request (404 for any name but the local cluster's). */
export function requireCluster(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new ServiceError(400, `${where} must be a non-empty string`);
  if (value !== LOCAL_CLUSTER)
    throw new ServiceError(
      404,
      `Cluster ${value} does not exist (the local service has one cluster: ${LOCAL_CLUSTER})`,
    );
  return value;
}

export class Clusters {
  readonly #store: ClusterStore;
  readonly #tasks: TaskQueue;
  readonly #catalog: Catalog;

  constructor(store: ClusterStore, tasks: TaskQueue, catalog: Catalog) {
    this.#store = store;
    this.#tasks = tasks;
    this.#catalog = catalog;
  }

  /** Assigns users to a cluster (one write); re-assigning keeps the first `createdAt`. */
  async assign(userIDs: string[], clusterName: string, at: number): Promise<void> {
    await this.#tasks.run({ indexName: '*', kind: 'clusters:assign' }, (write) => {
      write.change({ area: 'clusters', type: 'assign', userIDs, clusterName, at });
    });
  }

  async has(userID: string): Promise<boolean> {
    return (await this.#store.users()).some((user) => user.userID === userID);
  }

  /** Removes a user ID and its record ownership (the records stay in their indices). */
  async remove(userID: string): Promise<boolean> {
    if (!(await this.has(userID))) return false;
    await this.#tasks.run({ indexName: '*', kind: 'clusters:remove' }, (write) => {
      write.change({ area: 'clusters', type: 'remove', userID });
    });
    return true;
  }

  /**
   * The user ID of a record write (`X-Service-User-ID`), checked before anything is written: undefined
   * without the header, 400 for an invalid ID, 404 for a user ID not assigned to a cluster (document 1:
   * "users are not assigned automatically: a call for an unassigned or unknown user is rejected").
   */
  async writer(header: string | undefined): Promise<string | undefined> {
    if (header === undefined) return undefined;
    const userID = validateUserId(header, USER_ID_HEADER);
    if (!(await this.has(userID))) throw new ServiceError(404, `User ID ${userID} is not assigned to a cluster`);
    return userID;
  }

  /** Records written: they belong to `userID`, or to no one without it. Call inside the records' write. */
  written(write: Write, userID: string | undefined, indexName: string, objectIDs: readonly string[]): void {
    if (objectIDs.length === 0) return;
    write.change({ area: 'clusters', type: 'own', indexName, objectIDs: [...objectIDs], userID });
  }

  /** Every mapped user with its figures, from the records that still exist. */
  async mappings(): Promise<UserMapping[]> {
    const figures = this.#figures(await this.#store.owned());
    return (await this.#store.users()).map((user) => ({
      userID: user.userID,
      clusterName: user.clusterName,
      ...(figures.get(user.userID) ?? { nbRecords: 0, dataSize: 0 }),
    }));
  }

  /** One mapped user with its figures, or undefined. */
  async mapping(userID: string): Promise<UserMapping | undefined> {
    const user = (await this.#store.users()).find((candidate) => candidate.userID === userID);
    if (!user) return undefined;
    const figures = this.#figures(await this.#store.owned(userID)).get(userID) ?? { nbRecords: 0, dataSize: 0 };
    return { userID: user.userID, clusterName: user.clusterName, ...figures };
  }

  /** The clusters with the sums of their users' figures. */
  async clusters(): Promise<ClusterFigures[]> {
    const users = await this.mappings();
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
  async top(): Promise<Array<Record<string, UserMapping[]>>> {
    const users = (await this.mappings()).sort(
      (a, b) =>
        b.nbRecords - a.nbRecords ||
        b.dataSize - a.dataSize ||
        (a.userID < b.userID ? -1 : a.userID > b.userID ? 1 : 0),
    );
    return [{ [LOCAL_CLUSTER]: users.filter((user) => user.clusterName === LOCAL_CLUSTER).slice(0, TOP_USERS) }];
  }

  /** Per user, the records it owns that still exist and the bytes of their JSON. */
  #figures(owned: Array<{ indexName: string; objectID: string; userID: string }>) {
    const figures = new Map<string, { nbRecords: number; dataSize: number }>();
    for (const row of owned) {
      const record = this.#catalog.get(row.indexName)?.getObject(row.objectID);
      if (!record) continue;
      const entry = figures.get(row.userID) ?? { nbRecords: 0, dataSize: 0 };
      entry.nbRecords += 1;
      entry.dataSize += Buffer.byteLength(JSON.stringify(record));
      figures.set(row.userID, entry);
    }
    return figures;
  }
}
