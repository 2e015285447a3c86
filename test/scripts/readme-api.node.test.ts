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
