/**
 * A Vite plugin that answers the search API (`/1/…`, `/2/…`) from the local service, in process, on the
 * dev server's own origin. Used by Storybook (`.storybook/main.ts`) and therefore by `npm start`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

export interface LocalServicePluginOptions {
  /** Directory of the service's storage; default `SVC_DATA_DIR` or `.data`. */
  dataDir?: string;
  /** Load the demo catalogue into `products` when it is empty (default true). */
  demo?: boolean;
}

const API_PATH = /^\/(1|2)\//;

export function localServicePlugin(options: LocalServicePluginOptions = {}): Plugin {
  return {
    name: 'svc-local-service',
    async configureServer(server) {
      // Imported here so that loading the Storybook config does not load the service (build-storybook).
      const { createService } = await import('../service/src/index.js');
      const service = await createService({
        dataDir: options.dataDir ?? process.env.SVC_DATA_DIR ?? '.data',
        demo: options.demo ?? true,
      });
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
        if (!API_PATH.test(req.url ?? '')) return next();
        service.handler(req, res, () => next());
      });
      server.httpServer?.once('close', () => {
        void service.close();
      });
      server.config.logger.info(
        `  local service mounted on /1/ and /2/ (data: ${options.dataDir ?? process.env.SVC_DATA_DIR ?? '.data'})`,
      );
    },
  };
}
