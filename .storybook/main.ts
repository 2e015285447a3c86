/**
 * Storybook 10 catalogue (`npm start`, `npm run storybook`).
 *
 * The local service is mounted on Storybook's own dev server (same origin, so stories use
 * `hosts = location.origin` and no CORS is involved). It is created once, lazily, by a Vite plugin's
 * `configureServer` hook, with the demo catalogue loaded into the `products` index and its data in
 * `SVC_DATA_DIR` (default `.data/`). The static build (`npm run build-storybook`) has no service.
 */
import type { StorybookConfig } from '@storybook/web-components-vite';
import type { Plugin, UserConfig } from 'vite';
import { localServicePlugin } from './local-service.js';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // No onboarding checklist ("Get started 32 %") in the sidebar: the catalogue is the library's, not a tutorial.
  features: { sidebarOnboardingChecklist: false },
  docs: { defaultName: 'Docs' },
  async viteFinal(viteConfig: UserConfig, { configType }) {
    // vite.config.ts describes the library bundle (dist/svc-search.js); Storybook builds an app.
    // Only what vite.config.ts sets is taken out; Storybook's own build options stay.
    viteConfig.build = { ...viteConfig.build };
    delete viteConfig.build.lib;
    delete viteConfig.build.outDir;
    const output = viteConfig.build.rolldownOptions?.output;
    if (output && !Array.isArray(output)) {
      const { codeSplitting: _codeSplitting, minify: _minify, ...rest } = output as Record<string, unknown>;
      viteConfig.build.rolldownOptions = { ...viteConfig.build.rolldownOptions, output: rest };
    }
    // Storybook writes its manager into the output directory before Vite builds the preview there:
    // Vite must not empty it (its default for a directory inside the project).
    viteConfig.build.emptyOutDir = false;
    // One copy of Lit: pre-bundle every Lit entry used by the elements, the stories and Storybook's renderer
    // (`lit/directive-helpers.js`), else a late-discovered entry loads lit-html a second time from source.
    viteConfig.optimizeDeps = {
      ...viteConfig.optimizeDeps,
      include: [
        ...(viteConfig.optimizeDeps?.include ?? []),
        'lit',
        'lit/directive-helpers.js',
        'lit/directives/repeat.js',
        'lit/directives/if-defined.js',
        'lit/directives/live.js',
        '@lit/context',
      ],
    };
    const plugins: Plugin[] = [];
    if (configType === 'DEVELOPMENT') plugins.push(localServicePlugin());
    viteConfig.plugins = [...(viteConfig.plugins ?? []), ...plugins];
    return viteConfig;
  },
};

export default config;
