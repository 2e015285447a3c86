/**
 * What the service's own routers need beyond the public `ServiceContext` (the catalog of indices and
 * the key store), looked up from the context so every router keeps the `register(app, ctx)` shape.
 */
import type { ServiceContext } from '../context.js';
import type { Catalog } from '../storage/catalog.js';
import type { DictionaryStore } from '../storage/dictionaries.js';
import type { KeyStore } from '../storage/keys.js';

export interface ServiceInternals {
  catalog: Catalog;
  keys: KeyStore;
  /** Custom dictionary entries and dictionary settings (document 1, Dictionaries). */
  dictionaries: DictionaryStore;
}

const internals = new WeakMap<ServiceContext, ServiceInternals>();

export function attachInternals(ctx: ServiceContext, value: ServiceInternals): void {
  internals.set(ctx, value);
}

export function internalsOf(ctx: ServiceContext): ServiceInternals {
  const value = internals.get(ctx);
  if (!value) throw new Error('This ServiceContext was not created by createService');
  return value;
}
