import type { Preview } from '@storybook/web-components-vite';
import { setCustomElementsManifest } from '@storybook/web-components-vite';
// Generated from the elements' JSDoc by `npm run analyze` (run before every Storybook start/build).
import manifest from '../custom-elements.json';
// Registers every element (the same file as the package's `./define` entry).
import '../src/define.js';

setCustomElementsManifest(manifest);

interface ManifestDeclaration {
  tagName?: string;
  translations?: Array<{ name: string; default: string }>;
}

/** The declaration of a tag in the manifest. */
const declarationOf = (tag: unknown): ManifestDeclaration | undefined =>
  (manifest as { modules: Array<{ declarations?: ManifestDeclaration[] }> }).modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.tagName === tag);

/**
 * The element's translations (the manifest's `translations`: key and English default) as a table of their own
 * in the docs ("translations" category), read-only: they are set through the `translations` property.
 */
const translationArgTypes: NonNullable<Preview['argTypesEnhancers']>[number] = (context) => {
  const translations = declarationOf(context.component)?.translations ?? [];
  const added = Object.fromEntries(
    translations.map((translation) => [
      `translations.${translation.name}`,
      {
        name: translation.name,
        description: 'Replace it through the `translations` property (of the element or of `<svc-search>`).',
        control: false,
        table: {
          category: 'translations',
          type: { summary: 'string' },
          defaultValue: { summary: translation.default },
        },
      },
    ]),
  );
  return { ...context.argTypes, ...added };
};

const preview: Preview = {
  tags: ['autodocs'],
  argTypesEnhancers: [translationArgTypes],
  parameters: {
    // No colour matcher: the manifest's CSS custom properties (`--svc-border-color`…) have no value to pick from.
    controls: { expanded: true },
    docs: { toc: true },
    layout: 'padded',
  },
};

export default preview;
