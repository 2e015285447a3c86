/**
 * A controller host that is not an element: proves the controllers work headless. It runs `hostUpdate` of its
 * controllers in a microtask after each `requestUpdate`, as a Lit element would.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SearchStore } from '../../src/store/types.js';
import { APP_ID, SEARCH_KEY } from '../elements/search-fixture.js';

export class PlainHost implements ReactiveControllerHost {
  readonly controllers: ReactiveController[] = [];
  updates = 0;
  private pending: Promise<boolean> = Promise.resolve(true);

  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
  }
  removeController(controller: ReactiveController): void {
    this.controllers.splice(this.controllers.indexOf(controller), 1);
  }
  requestUpdate(): void {
    this.updates++;
    this.pending = Promise.resolve().then(() => {
      for (const controller of this.controllers) controller.hostUpdate?.();
      return true;
    });
  }
  get updateComplete(): Promise<boolean> {
    return this.pending;
  }
  connect(): void {
    for (const controller of this.controllers) controller.hostConnected?.();
  }
  disconnect(): void {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }
}

export function storeFor(
  indexName: string,
  initialState?: Parameters<typeof createSearchStore>[0]['initialState'],
): SearchStore {
  const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });
  return createSearchStore({ client, indexName, initialState });
}
