/**
 * The element reference generator (scripts/readme-api.ts → docs/elements.md): tables from a manifest,
 * markers, and the real manifest of this repository (every element gets a section).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiMarkdown,
  ELEMENTS_DOC,
  elementSection,
  END,
  replaceBetweenMarkers,
  START,
} from '../../scripts/readme-api.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const declaration = {
  kind: 'class',
  customElement: true,
  tagName: 'svc-example',
  name: 'SvcExample',
  summary: 'An example. It shows things.',
  description: 'An example. It shows things.\n\nLonger text.',
  attributes: [
    { name: 'mode', fieldName: 'mode', type: { text: "'a' | 'b'" }, default: "'a'", description: 'The mode.' },
  ],
  members: [
    { kind: 'field' as const, name: 'mode', type: { text: "'a' | 'b'" }, default: "'a'", description: 'The mode.' },
    { kind: 'field' as const, name: 'secret', privacy: 'private' as const },
    { kind: 'field' as const, name: 'search', description: 'Inherited.', inheritedFrom: { name: 'SvcElement' } },
  ],
  events: [{ name: 'svc-example-change', description: 'Changed. Translations: `label` ("Label").' }],
  slots: [{ name: '', description: 'Content.' }],
  cssParts: [{ name: 'base', description: 'The wrapper.' }],
  cssProperties: [{ name: '--svc-example-gap', description: 'Gap | space.' }],
  translations: [
    { name: 'label', default: 'Label' },
    { name: 'count.one', default: '{count} item | one' },
  ],
};

describe('scripts/readme-api', () => {
  it('renders one section per element with escaped pipes, no private or inherited members, translations apart', () => {
    const section = elementSection(structuredClone(declaration), 'src/elements/example/svc-example.ts');
    assert.match(section, /^### `<svc-example>`/);
    assert.match(section, /\| `mode` \| `mode` \| `'a' \\\| 'b'` \| `'a'` \| The mode\. \|/);
    assert.doesNotMatch(section, /secret|Inherited/);
    assert.match(section, /\| `svc-example-change` \| {2}\| Changed\. \|/);
    assert.match(section, /\nTranslations: `label` \("Label"\)\.\n/);
    assert.match(section, /\| \(default\) \| Content\. \|/);
    assert.match(section, /\| `--svc-example-gap` \| {2}\| Gap \\\| space\. \|/);
    assert.match(section, /module `elements\/example\/svc-example\.js`/);
    assert.match(section, /\*\*Translations\*\*\n\n\| Key \| English \|\n\| --- \| --- \|\n\| `label` \| Label \|\n/);
    assert.match(section, /\| `count\.one` \| \{count\} item \\\| one \|/);
    assert.match(
      section,
      /\*\*Translations\*\*\n\n\| Key \| English \|\n\| --- \| --- \|\n\| `label` \| Label \|\n\| `count\.one` \| \{count\} item \\\| one \|/,
    );
    assert.equal(section.match(/An example\. It shows things\./g)?.length, 1, 'the summary is not repeated');
  });

  it('lists the elements with the first sentence of their summary', () => {
    const markdown = apiMarkdown({
      modules: [{ path: 'src/elements/example/svc-example.ts', declarations: [structuredClone(declaration)] }],
    });
    assert.match(markdown, /- \[`<svc-example>`\]\(#svc-example\) — An example\.\n/);
  });

  it('replaces only the text between the markers, and refuses a document without them', () => {
    const readme = `intro\n${START}\nold\n${END}\nrest\n`;
    assert.equal(replaceBetweenMarkers(readme, 'new'), `intro\n${START}\nnew\n${END}\nrest\n`);
    assert.throws(() => replaceBetweenMarkers('no markers', 'x'), /lacks the markers/);
  });

  it('covers every element of the repository from a freshly generated manifest, and docs/elements.md shows exactly that', () => {
    // The analyzer joins its outdir to the project directory: a scratch folder under the ignored .tmp/.
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const outdir = mkdtempSync(join(root, '.tmp', 'cem-'));
    try {
      const result = spawnSync(
        process.execPath,
        [
          join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
          'analyze',
          '--quiet',
          '--config',
          'custom-elements-manifest.config.mjs',
          '--outdir',
          relative(root, outdir),
        ],
        { cwd: root, encoding: 'utf8' },
      );
      assert.equal(result.status, 0, result.stderr);
      const manifest = JSON.parse(readFileSync(join(outdir, 'custom-elements.json'), 'utf8'));
      const markdown = apiMarkdown(manifest);
      for (const tag of [
        'svc-search',
        'svc-search-box',
        'svc-autocomplete',
        'svc-hits',
        'svc-refinement-list',
        'svc-pagination',
        'svc-stats',
        'svc-current-refinements',
        'svc-clear-refinements',
        'svc-sort-by',
        'svc-hits-per-page',
        'svc-range-input',
        'svc-infinite-hits',
        'svc-menu',
        'svc-index',
        'svc-configure',
      ]) {
        assert.match(markdown, new RegExp(`### \`<${tag}>\``), `${tag} has a section`);
      }
      assert.doesNotMatch(markdown, /\| `type` \|/, 'no phantom events');
      for (const tag of [
        'svc-hierarchical-menu',
        'svc-breadcrumb',
        'svc-toggle-refinement',
        'svc-numeric-menu',
        'svc-rating-menu',
        'svc-range-slider',
        'svc-dynamic-widgets',
        'svc-query-rule-custom-data',
        'svc-query-rule-context',
        'svc-panel',
      ]) {
        assert.match(markdown, new RegExp(`### \`<${tag}>\``), `${tag} has a section`);
      }
      // The public API only: no #private or protected member, no static, in any declaration of the manifest.
      const members = manifest.modules.flatMap(
        (m: { declarations?: Array<{ members?: Array<Record<string, unknown>> }> }) =>
          (m.declarations ?? []).flatMap((d) => d.members ?? []),
      );
      assert.deepEqual(
        members
          .filter(
            (m: Record<string, unknown>) =>
              m.static || m.privacy === 'private' || m.privacy === 'protected' || String(m.name).startsWith('#'),
          )
          .map((m: Record<string, unknown>) => m.name),
        [],
      );
      const refinementList = manifest.modules
        .flatMap((m: { declarations?: Array<{ tagName?: string; translations?: unknown }> }) => m.declarations ?? [])
        .find((d: { tagName?: string }) => d.tagName === 'svc-refinement-list');
      assert.deepEqual(refinementList.translations[0], { name: 'listLabel', default: 'Filter by {attribute}' });
      // The one scheme of event names: docs/elements.md's Events table lists every event of the manifest, each
      // with exactly the elements that declare it.
      const fired = new Map<string, Set<string>>();
      for (const d of manifest.modules.flatMap(
        (m: { declarations?: Array<{ tagName?: string; events?: Array<{ name: string }> }> }) => m.declarations ?? [],
      )) {
        for (const event of d.tagName ? (d.events ?? []) : []) {
          if (!fired.has(event.name)) fired.set(event.name, new Set());
          fired.get(event.name)!.add(d.tagName!);
        }
      }
      const doc = readFileSync(join(root, ELEMENTS_DOC), 'utf8');
      const rows = new Map(
        [...doc.slice(0, doc.indexOf(START)).matchAll(/^\| `(svc-[a-z-]+)` \| .* \| (.*) \|$/gm)].map((row) => [
          row[1]!,
          new Set([...row[2]!.matchAll(/`<(svc-[a-z-]+)/g)].map((tag) => tag[1]!)),
        ]),
      );
      assert.deepEqual([...rows.keys()].sort(), [...fired.keys()].sort(), 'the events of the table');
      for (const [name, tags] of fired) assert.deepEqual([...rows.get(name)!].sort(), [...tags].sort(), name);
      // Inherited strings are listed too (the search box's are its base's).
      assert.match(markdown, /### `<svc-search-box>`[^#]*\| `submitTitle` \| Submit the search \|/);
      // The element reference is this manifest's (element docs changed → `npm run readme-api`).
      const reference = readFileSync(join(root, ELEMENTS_DOC), 'utf8');
      assert.equal(
        replaceBetweenMarkers(reference, markdown),
        reference,
        `${ELEMENTS_DOC} is out of date: run \`npm run readme-api\``,
      );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
