import type { Preview } from '@storybook/web-components-vite';
import { setCustomElementsManifest } from '@storybook/web-components-vite';
// Generated from the elements' JSDoc by `npm run analyze` (run before every Storybook start/build).
import manifest from '../custom-elements.json';
// Registers every element (the same file as the package's `./define` entry).
import '../src/define.js';

setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  parameters: {
    controls: { expanded: true, matchers: { color: /(background|color)$/i } },
    docs: { toc: true },
    layout: 'padded',
  },
};

export default preview;
