/**
 * Writes the per-element API reference into `docs/elements.md` (the element reference the README links to)
 * between `<!-- api:start -->` and `<!-- api:end -->`, from `custom-elements.json` (run `npm run analyze`
 * first; `npm run readme-api` does both). Sections per element: properties/attributes, events, slots, CSS
 * parts, CSS custom properties, translations (key and English default).
 *
 * @example
 * ```sh
 * npm run readme-api            # rewrite docs/elements.md
 * node --import tsx scripts/readme-api.ts --check   # exit 1 when docs/elements.md is out of date
 * ```
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Described {
  name: string;
  description?: string;
  summary?: string;
}
interface TypeText {
  text?: string;
}
interface Attribute extends Described {
  type?: TypeText;
  default?: string;
  fieldName?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  inheritedFrom?: { name: string; module?: string };
  type?: TypeText;
  default?: string;
  privacy?: 'public' | 'private' | 'protected';
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
}
interface Declaration extends Described {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: Attribute[];
  members?: Member[];
  events?: Array<Described & { type?: TypeText }>;
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: Array<Described & { default?: string; syntax?: string }>;
  /** The English strings (`static defaultTranslations`), added to the manifest by its `svc-public-api` plugin. */
  translations?: Array<{ name: string; default: string }>;
}
interface Manifest {
  modules: Array<{ path: string; declarations?: Declaration[] }>;
}

export const START = '<!-- api:start -->';
export const END = '<!-- api:end -->';

/** One table cell: a single line, pipes escaped. */
function cell(text: string | undefined): string {
  return (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}
function code(text: string | undefined): string {
  // Pipes are escaped inside code spans too: GitHub splits table cells before parsing them.
  return text ? `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|')}\`` : '';
}
function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** First sentence of a summary, for the index. */
function firstSentence(text: string): string {
  const line = cell(text);
  const end = line.search(/\.(\s+[A-Z(`"“]|$)/);
  return end < 0 ? line : line.slice(0, end + 1);
}

/**
 * A "Translations: …" paragraph written after the last JSDoc tag ends up in that tag's description:
 * take it out so it gets its own line.
 */
function splitTranslations(decl: Declaration): string | undefined {
  let found: string | undefined;
  for (const list of [decl.events, decl.slots, decl.cssParts, decl.cssProperties]) {
    for (const item of list ?? []) {
      const at = item.description?.search(/\s*Translations:/) ?? -1;
      if (item.description && at >= 0) {
        found = item.description.slice(at).trim();
        item.description = item.description.slice(0, at).trim();
      }
    }
  }
  return found;
}

/** The markdown for one element declaration. */
export function elementSection(decl: Declaration, modulePath: string): string {
  const out: string[] = [];
  const translations = splitTranslations(decl);
  out.push(`### \`<${decl.tagName}>\``);
  // Descriptions usually open with the summary; print it once.
  const description = decl.description?.trim() ?? '';
  if (decl.summary && !description.startsWith(firstSentence(decl.summary).slice(0, -1))) out.push(decl.summary.trim());
  if (description) out.push(description);
  if (translations && !description.includes('Translations:')) out.push(translations);
  out.push(`Class \`${decl.name}\`, module \`${modulePath.replace(/^src\//, '').replace(/\.ts$/, '.js')}\`.`);

  const attributes = decl.attributes ?? [];
  const byField = new Map(attributes.filter((a) => a.fieldName).map((a) => [a.fieldName!, a]));
  // Members every element inherits from SvcElement are described once, in the introduction; members of
  // other shared bases (SvcSelectElement, SvcHitList) are the element's own API and listed with it.
  const fromSvcElement = (m: Member) => m.inheritedFrom?.name === 'SvcElement';
  const props = (decl.members ?? []).filter(
    (m) =>
      m.kind === 'field' &&
      !m.static &&
      (m.privacy ?? 'public') === 'public' &&
      !m.name.startsWith('_') &&
      !fromSvcElement(m),
  );
  const rows = props.map((m) => {
    const attr = byField.get(m.name)?.name ?? m.attribute;
    return [code(m.name), attr ? code(attr) : '', code(m.type?.text), code(m.default), cell(m.description)];
  });
  // Attributes without a property (rare) still belong in the table.
  const inherited = new Set((decl.members ?? []).filter(fromSvcElement).map((m) => m.name));
  for (const a of attributes) {
    if (a.fieldName && inherited.has(a.fieldName)) continue;
    if (!a.fieldName || !props.some((p) => p.name === a.fieldName)) {
      rows.push(['', code(a.name), code(a.type?.text), code(a.default), cell(a.description)]);
    }
  }
  const sections: Array<[string, string]> = [
    ['Properties and attributes', table(['Property', 'Attribute', 'Type', 'Default', 'Description'], rows)],
    [
      'Events',
      table(
        ['Event', 'Detail', 'Description'],
        (decl.events ?? []).filter((e) => e.name).map((e) => [code(e.name), code(e.type?.text), cell(e.description)]),
      ),
    ],
    [
      'Slots',
      table(
        ['Slot', 'Description'],
        (decl.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]),
      ),
    ],
    [
      'CSS parts',
      table(
        ['Part', 'Description'],
        (decl.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ],
    [
      'CSS custom properties',
      table(
        ['Property', 'Default', 'Description'],
        (decl.cssProperties ?? []).map((p) => [code(p.name), code(p.default), cell(p.description)]),
      ),
    ],
    [
      'Translations',
      table(
        ['Key', 'English'],
        (decl.translations ?? []).map((t) => [code(t.name), cell(t.default)]),
      ),
    ],
  ];
  for (const [title, body] of sections) if (body) out.push(`**${title}**\n\n${body}`);
  return out.join('\n\n');
}

/** The whole generated block (without markers), elements in tag order. */
export function apiMarkdown(manifest: Manifest): string {
  const elements = manifest.modules
    .flatMap((m) => (m.declarations ?? []).map((d) => ({ d, path: m.path })))
    .filter(({ d }) => d.customElement && d.tagName)
    .sort((a, b) => a.d.tagName!.localeCompare(b.d.tagName!));
  const index = elements.map(
    ({ d }) => `- [\`<${d.tagName}>\`](#${d.tagName})${d.summary ? ` — ${firstSentence(d.summary)}` : ''}`,
  );
  return [
    '## Elements API',
    '',
    '_Generated from the elements’ JSDoc (`custom-elements.json`) by `npm run readme-api`; do not edit by hand._',
    '',
    index.join('\n'),
    '',
    'Every element also has these members (from `SvcElement`): the `search` attribute/property (the `id` of its',
    '`<svc-search>` when it is not inside it), the `translations` property (a partial map of its strings, over the',
    '`<svc-search>`’s `translations` and the English defaults), and the read-only `store`, `insights` and',
    '`language` (the nearest `lang`).',
    '',
    elements.map(({ d, path }) => elementSection(d, path)).join('\n\n'),
  ].join('\n');
}

/** The file the element reference is written into, relative to the repository. */
export const ELEMENTS_DOC = 'docs/elements.md';

/** Replaces the text between the markers; throws when they are missing. */
export function replaceBetweenMarkers(document: string, block: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ELEMENTS_DOC} lacks the markers ${START} … ${END}`);
  return `${document.slice(0, start + START.length)}\n${block}\n${document.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as Manifest;
  const path = join(root, ELEMENTS_DOC);
  const current = readFileSync(path, 'utf8');
  const next = replaceBetweenMarkers(current, apiMarkdown(manifest));
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error(`${ELEMENTS_DOC} is out of date: run \`npm run readme-api\``);
      process.exit(1);
    }
  } else if (next !== current) {
    writeFileSync(path, next);
    console.log(`${ELEMENTS_DOC}: element reference updated`);
  } else {
    console.log(`${ELEMENTS_DOC}: element reference already up to date`);
  }
}
