/**
 * The multi-cluster mapping in SQLite: `clusters_mapping` (one row per user ID assigned to a cluster) and
 * `clusters_record_owners` (which user ID a record belongs to).
 */
import type Database from 'better-sqlite3';
import type { ClusterChange, ClusterStore } from '../types.js';

export class SqliteClusters implements ClusterStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#stmt = {
      assign: db.prepare(
        'INSERT INTO clusters_mapping (user_id, cluster_name, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET cluster_name = excluded.cluster_name',
      ),
      users: db.prepare('SELECT user_id, cluster_name, created_at FROM clusters_mapping ORDER BY user_id'),
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

  async users(): Promise<Array<{ userID: string; clusterName: string; createdAt: number }>> {
    const rows = this.#stmt.users.all() as Array<{ user_id: string; cluster_name: string; created_at: number }>;
    return rows.map((row) => ({ userID: row.user_id, clusterName: row.cluster_name, createdAt: row.created_at }));
  }

  async owned(userID?: string): Promise<Array<{ indexName: string; objectID: string; userID: string }>> {
    const rows = (userID === undefined ? this.#stmt.owned.all() : this.#stmt.ownedBy.all(userID)) as Array<{
      index_name: string;
      object_id: string;
      user_id: string;
    }>;
    return rows.map((row) => ({ indexName: row.index_name, objectID: row.object_id, userID: row.user_id }));
  }

  apply(change: ClusterChange): void {
    switch (change.type) {
      case 'assign':
        for (const userID of change.userIDs) this.#stmt.assign.run(userID, change.clusterName, change.at);
        break;
      case 'remove':
        this.#stmt.remove.run(change.userID);
        this.#stmt.removeOwned.run(change.userID);
        break;
      case 'own':
        // a write without a user ID only disowns: nothing to do when no record of the index has an owner
        if (!change.userID && this.#stmt.anyOwned.get(change.indexName) === undefined) break;
        for (const objectID of change.objectIDs) {
          if (change.userID) this.#stmt.own.run(change.indexName, objectID, change.userID);
          else this.#stmt.disown.run(change.indexName, objectID);
        }
        break;
    }
  }
}
