/**
 * Monitoring (document 3): status, incidents, inventory, latency, indexing time, reachability probes and
 * infrastructure metrics of the local service (`usage/monitoring.ts`), with the monitoring key.
 * See `docs/notes/usage-monitoring.md`, "Monitoring".
 */
import { type Context, Hono } from 'hono';
import type { Services } from '../services.js';
import { authorizeOperational } from '../usage/keys.js';
import { Monitoring } from '../usage/monitoring.js';
import { callerOf } from './request.js';

/**
 * @example
 * app.route('/', monitoringRoutes(services)); // GET /1/status → {"status":{"c1-local-1":"operational"}}
 */
export function monitoringRoutes(services: Services): Hono {
  const app = new Hono();
  const monitoring = new Monitoring(services);
  const guard = (c: Context) => authorizeOperational(services.authorize, services.config, callerOf(c), 'monitoring');

  app.get('/1/status', (c) => {
    guard(c);
    return c.json(monitoring.status());
  });
  app.get('/1/status/:servers', (c) => {
    guard(c);
    return c.json(monitoring.status(c.req.param('servers')));
  });
  app.get('/1/incidents', (c) => {
    guard(c);
    return c.json(monitoring.incidents());
  });
  app.get('/1/incidents/:servers', (c) => {
    guard(c);
    return c.json(monitoring.incidents(c.req.param('servers')));
  });
  app.get('/1/inventory/servers', (c) => {
    guard(c);
    return c.json(monitoring.inventory());
  });
  app.get('/1/latency/:servers', async (c) => {
    guard(c);
    return c.json(await monitoring.latency(c.req.param('servers')));
  });
  app.get('/1/indexing/:servers', async (c) => {
    guard(c);
    return c.json(await monitoring.indexing(c.req.param('servers')));
  });
  app.get('/1/reachability/:servers/probes', async (c) => {
    guard(c);
    return c.json(await monitoring.probes(c.req.param('servers')));
  });
  app.get('/1/infrastructure/:metric/period/:period', async (c) => {
    guard(c);
    return c.json(await monitoring.infrastructure(c.req.param('metric'), c.req.param('period')));
  });
  return app;
}
