/**
 * The library's server renderer runs as Node loads it (Lit SSR reads its own modules; bundled, it would be a second
 * copy of Lit next to the one the template is made with). In the browser, webpack bundles `svc-search/hydrate` and
 * the elements like any dependency.
 *
 * @type {import('next').NextConfig}
 */
const config = {
  serverExternalPackages: ['svc-search', 'lit', '@lit-labs/ssr'],
  // The example lives inside the library's repository: its `svc-search` is the repository itself (dist/).
  outputFileTracingRoot: new URL('../..', import.meta.url).pathname,
  poweredByHeader: false,
};

export default config;
