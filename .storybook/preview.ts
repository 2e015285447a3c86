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
    // No colour matcher: the manifest's CSS custom properties (`--svc-border-color`…) have no value to pick from.
    controls: { expanded: true },
    docs: { toc: true },
    layout: 'padded',
  },
};

export default preview;
